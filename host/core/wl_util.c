/* Small helpers the workloads, the commands and the models share
 * (include/clb_wlutil.h). */
#define _GNU_SOURCE
#include "clb_wlutil.h"
#include "clbench.h"

#include <stdio.h>
#include <stdlib.h>

int clb_veusage(const char *fmt, va_list ap)
{
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0) {
        clb_oom(); /* the message says so, as clb_seterr's would */
        return CLB_EUSAGE;
    }
    clb_seterr("%s", msg);
    free(msg);
    return CLB_EUSAGE;
}

int clb_eusage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = clb_veusage(fmt, ap);
    va_end(ap);
    return rc;
}
