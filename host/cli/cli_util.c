/* What the commands share (cli.h). */
#include "cli.h"

int clb_cli_eusage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    clb_vseterr(fmt, ap);
    va_end(ap);
    clb_print_error("%s", clb_lasterr());
    return CLB_EUSAGE;
}
