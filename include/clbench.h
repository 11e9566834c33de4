/* clbench: common definitions shared by every host module. */
#ifndef CLBENCH_H
#define CLBENCH_H

#include <stddef.h>
#include <stdio.h>

#define CLB_VERSION "0.1.0"

/* Return codes of host functions. The exit status of the program is derived
 * from them (see clb_exit_status): usage errors 2, OpenCL/system errors 3,
 * validation failures 1. */
enum clb_rc {
    CLB_OK = 0,
    CLB_SKIP,   /* the device cannot run this configuration; reason recorded */
    CLB_FAIL,   /* validation failed */
    CLB_EUSAGE, /* bad option, size, parameter, profile or file */
    CLB_ECL,    /* an OpenCL call failed */
    CLB_ESYS,   /* out of host memory, I/O error */
    CLB_EINTR   /* interrupted by a signal */
};

/* The last error message, set by clb_seterr and read by whoever reports it.
 * One message per thread is enough: errors are reported where they surface. */
void clb_seterr(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *clb_lasterr(void);
/* Print "clbench: <message>" on stderr. */
void clb_die_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Output level: -q 0, default 1, -v 2. */
extern int clb_verbosity;
void clb_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void clb_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Small helpers (host/util.c). */
void *clb_xmalloc(size_t n);            /* NULL + error message on failure */
char *clb_strdup(const char *s);
size_t clb_strlcpy(char *dst, const char *src, size_t n);
void clb_appendf(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void clb_slug(const char *in, char *out, size_t n);  /* "NVIDIA H100 80GB" -> "nvidia-h100-80gb" */
double clb_now(void);                    /* monotonic seconds */
int clb_strieq(const char *a, const char *b);
const char *clb_stristr(const char *hay, const char *needle);
/* Is word a member of the comma-separated list? */
int clb_list_has(const char *list, const char *word);

/* Deterministic random data, never zero: magnitudes in [0.5, 1.5), random sign.
 * The same seed gives the same data whatever the thread count. */
void clb_fill_f32(float *p, size_t n, unsigned long long seed);
void clb_fill_f64(double *p, size_t n, unsigned long long seed);
unsigned long long clb_rand_next(unsigned long long *state);

#endif
