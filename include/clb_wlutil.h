/* Small helpers the workloads, the commands and the models share
 * (host/core/wl_util.c). */
#ifndef CLB_WLUTIL_H
#define CLB_WLUTIL_H

#include <stdarg.h>

/* Refuse: set the message (printf) and return CLB_EUSAGE, as clb_oom()
 * returns CLB_ESYS: `return clb_eusage("bad x %d", x);`. */
int clb_eusage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int clb_veusage(const char *fmt, va_list ap);

#endif
