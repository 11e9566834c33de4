/* What the commands share (cli.h). */
#include "cli.h"
#include "clb_wlutil.h"

int clb_cli_eusage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = clb_veusage(fmt, ap);
    va_end(ap);
    clb_print_error("%s", clb_lasterr());
    return rc;
}
