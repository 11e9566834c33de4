/* Small helpers: error messages, strings, clock, random data. */
#define _GNU_SOURCE
#include "clbench.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int clb_verbosity = 1;

static _Thread_local char lasterr[1024];

void clb_seterr(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lasterr, sizeof lasterr, fmt, ap);
    va_end(ap);
}

const char *clb_lasterr(void) { return lasterr[0] ? lasterr : "unknown error"; }

void clb_die_msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("clbench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void clb_info(const char *fmt, ...)
{
    if (clb_verbosity < 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

void clb_debug(const char *fmt, ...)
{
    if (clb_verbosity < 2)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

void *clb_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        clb_seterr("out of host memory allocating %zu bytes", n);
    return p;
}

char *clb_strdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = clb_xmalloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

size_t clb_strlcpy(char *dst, const char *src, size_t n)
{
    size_t len = strlen(src);
    if (n) {
        size_t k = len < n - 1 ? len : n - 1;
        memcpy(dst, src, k);
        dst[k] = 0;
    }
    return len;
}

void clb_appendf(char *buf, size_t n, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, n - used, fmt, ap);
    va_end(ap);
}

void clb_slug(const char *in, char *out, size_t n)
{
    size_t k = 0;
    int dash = 0;
    for (; *in && k + 1 < n; in++) {
        unsigned char ch = (unsigned char)*in;
        if (isalnum(ch)) {
            if (dash && k > 0 && k + 2 < n)
                out[k++] = '-';
            dash = 0;
            out[k++] = (char)tolower(ch);
        } else {
            dash = 1;
        }
    }
    out[k] = 0;
    if (k == 0)
        clb_strlcpy(out, "device", n);
}

double clb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int clb_strieq(const char *a, const char *b) { return strcasecmp(a, b) == 0; }

const char *clb_stristr(const char *hay, const char *needle) { return strcasestr(hay, needle); }

int clb_list_has(const char *list, const char *word)
{
    size_t wl = strlen(word);
    const char *p = list;
    while (p && *p) {
        while (*p == ' ' || *p == ',')
            p++;
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        while (len && p[len - 1] == ' ')
            len--;
        if (len == wl && strncmp(p, word, wl) == 0)
            return 1;
        p = e;
    }
    return 0;
}

/* splitmix64: good enough for test data, cheap, and seekable per chunk. */
unsigned long long clb_rand_next(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Chunks are seeded from (seed, chunk index) so the data does not depend on
 * the number of threads. */
#define FILL_CHUNK 65536

static double rand_value(unsigned long long *st)
{
    unsigned long long r = clb_rand_next(st);
    double mag = 0.5 + (double)(r >> 11) * (1.0 / 9007199254740992.0);
    return (r & 1) ? -mag : mag;
}

void clb_fill_f32(float *p, size_t n, unsigned long long seed)
{
    long nchunks = (long)((n + FILL_CHUNK - 1) / FILL_CHUNK);
#pragma omp parallel for schedule(static)
    for (long c = 0; c < nchunks; c++) {
        unsigned long long st = seed * 0x2545F4914F6CDD1DULL + (unsigned long long)c;
        size_t end = (size_t)(c + 1) * FILL_CHUNK;
        if (end > n)
            end = n;
        for (size_t i = (size_t)c * FILL_CHUNK; i < end; i++)
            p[i] = (float)rand_value(&st);
    }
}

void clb_fill_f64(double *p, size_t n, unsigned long long seed)
{
    long nchunks = (long)((n + FILL_CHUNK - 1) / FILL_CHUNK);
#pragma omp parallel for schedule(static)
    for (long c = 0; c < nchunks; c++) {
        unsigned long long st = seed * 0x2545F4914F6CDD1DULL + (unsigned long long)c;
        size_t end = (size_t)(c + 1) * FILL_CHUNK;
        if (end > n)
            end = n;
        for (size_t i = (size_t)c * FILL_CHUNK; i < end; i++)
            p[i] = rand_value(&st);
    }
}
