/* Small helpers: error messages, strings, clock, random data. */
#define _GNU_SOURCE
#include "clbench.h"
#include "core.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int clb_verbosity = 1;
int clb_wide;

int clb_out_width(FILE *f)
{
    if (clb_wide)
        return INT_MAX;
    struct winsize ws;
    int fd = fileno(f);
    if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > CLB_WIDTH)
        return ws.ws_col;
    return CLB_WIDTH;
}

void clb_wrap(FILE *f, int col, int indent, const char *text)
{
    int width = clb_out_width(f), start = 1;   /* start: no word on this line yet */
    size_t gap = 0;                            /* the spaces before the next word */
    for (const char *p = text; *p;) {
        if (*p == ' ') {
            gap++;
            p++;
            continue;
        }
        size_t word = strcspn(p, " \n");
        /* a line break of the text's own, or a word past the width */
        if (*p == '\n' || (!start && col + (long)gap + (long)word > width)) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
            start = 1;
        }
        if (*p == '\n') {
            gap = 0;
            p++;
            continue;
        }
        if (!start) {   /* the text's own spacing within a line */
            fprintf(f, "%*s", (int)gap, "");
            col += (int)gap;
        }
        gap = 0;
        fwrite(p, 1, word, f);
        col += (int)word;
        p += word;
        start = 0;
    }
    fputc('\n', f);
}

void clb_wrapf(FILE *f, int col, int indent, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = NULL;
    if (vasprintf(&text, fmt, ap) < 0)
        text = NULL;
    va_end(ap);
    clb_wrap(f, col, indent, text ? text : "");
    free(text);
}
/* A device thread of a process that drives several (team.c) other than the
 * job's rank 0: silent, as an MPI rank other than 0 is. */
static _Thread_local int quiet;

void clb_thread_quiet(int q) { quiet = q; }
int clb_verbosity_now(void) { return quiet ? -1 : clb_verbosity; }

/* The message of the last error, per thread, in memory that grows. */
static _Thread_local char *lasterr;
static _Thread_local unsigned long errseq;

void clb_vseterr(const char *fmt, va_list ap)
{
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0)
        msg = NULL; /* clb_lasterr says CLB_OOM */
    free(lasterr);
    lasterr = msg;
    errseq++;
}

void clb_seterr(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    clb_vseterr(fmt, ap);
    va_end(ap);
}

unsigned long clb_errseq(void) { return errseq; }

int clb_oom(void)
{
    return clb_err(CLB_ESYS, CLB_OOM);
}

/* A thread that ends frees its message (a device thread of a process that
 * drives several: the main thread's lives until exit, as any static does). */
void clb_lasterr_release(void)
{
    free(lasterr);
    lasterr = NULL;
}

const char *clb_lasterr(void)
{
    return lasterr && lasterr[0] ? lasterr : CLB_OOM " (or an unknown error)";
}

void clb_print_error(const char *fmt, ...)
{
    if (clb_verbosity_now() < 0)
        return; /* an MPI rank other than 0: rank 0 speaks for the job */
    va_list ap;
    va_start(ap, fmt);
    flockfile(stderr); /* one line, whole, while another thread speaks too */
    fputs("clbench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    funlockfile(stderr);
    va_end(ap);
}

/* Progress (level 1) and debug (level 2) lines on stderr. */
#define CLB_SAY(level)                                                          \
    do {                                                                        \
        if (clb_verbosity_now() < (level))                                      \
            return;                                                             \
        va_list ap;                                                             \
        va_start(ap, fmt);                                                      \
        vfprintf(stderr, fmt, ap);                                              \
        va_end(ap);                                                             \
    } while (0)

void clb_info(const char *fmt, ...) { CLB_SAY(1); }
void clb_debug(const char *fmt, ...) { CLB_SAY(2); }

void *clb_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        clb_seterr(CLB_OOM " allocating %zu bytes", n);
    return p;
}

void *clb_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        clb_seterr(CLB_OOM " allocating %zu x %zu bytes", n, size);
    return p;
}

char *clb_asprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *out = NULL;
    int k = vasprintf(&out, fmt, ap);
    va_end(ap);
    if (k < 0) {
        clb_oom();
        return NULL;
    }
    return out;
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

char *clb_slug(const char *in)
{
    char *out = clb_xmalloc(2 * strlen(in) + 8);
    if (!out)
        return NULL;
    size_t k = 0;
    int dash = 0;
    for (; *in; in++) {
        unsigned char ch = (unsigned char)*in;
        if (isalnum(ch)) {
            if (dash && k > 0)
                out[k++] = '-';
            dash = 0;
            out[k++] = (char)tolower(ch);
        } else {
            dash = 1;
        }
    }
    out[k] = 0;
    if (k == 0)
        strcpy(out, "device");
    return out;
}

double clb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int clb_strieq(const char *a, const char *b) { return strcasecmp(a, b) == 0; }

const char *clb_stristr(const char *hay, const char *needle) { return strcasestr(hay, needle); }

void clb_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *),
              void *ctx)
{
    if (n > 1) /* an empty array may be NULL, which qsort_r must not be given */
        qsort_r(base, n, size, cmp, ctx);
}

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

/* The one filling loop of both element types: exactly one of f and d is
 * non-NULL. The values are drawn as doubles either way, so a float array
 * holds the rounded values of the double array of the same seed. */
static void fill(float *f, double *d, size_t n, unsigned long long seed)
{
    long nchunks = (long)((n + FILL_CHUNK - 1) / FILL_CHUNK);
#pragma omp parallel for schedule(static)
    for (long c = 0; c < nchunks; c++) {
        unsigned long long st = seed * 0x2545F4914F6CDD1DULL + (unsigned long long)c;
        size_t end = (size_t)(c + 1) * FILL_CHUNK;
        if (end > n)
            end = n;
        for (size_t i = (size_t)c * FILL_CHUNK; i < end; i++) {
            double x = rand_value(&st);
            if (d)
                d[i] = x;
            else
                f[i] = (float)x;
        }
    }
}

void clb_fill_f32(float *p, size_t n, unsigned long long seed) { fill(p, NULL, n, seed); }

void clb_fill_f64(double *p, size_t n, unsigned long long seed) { fill(NULL, p, n, seed); }

void clb_fill(void *p, size_t n, int dbl, unsigned long long seed)
{
    fill(dbl ? NULL : p, dbl ? p : NULL, n, seed);
}

int clb_grow(void **v, size_t n, size_t *cap, size_t elem, size_t first)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? 2 * *cap : first;
    if (c > SIZE_MAX / elem) {
        clb_oom();
        return -1;
    }
    void *nv = realloc(*v, c * elem);
    if (!nv) {
        clb_oom();
        return -1;
    }
    *v = nv;
    *cap = c;
    return 0;
}

/* ---- growing strings ---------------------------------------------------- */

static int buf_reserve(struct clb_buf *b, size_t extra)
{
    if (b->oom)
        return -1;
    if (b->len + extra + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1) {
        if (cap > SIZE_MAX / 2) {
            b->oom = 1;
            return -1;
        }
        cap *= 2;
    }
    char *ns = realloc(b->s, cap);
    if (!ns) {
        b->oom = 1;
        clb_oom();
        return -1;
    }
    b->s = ns;
    b->cap = cap;
    return 0;
}

void clb_buf_add(struct clb_buf *b, const char *s, size_t n)
{
    if (buf_reserve(b, n))
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

void clb_buf_vprintf(struct clb_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int k = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (k < 0 || buf_reserve(b, (size_t)k))
        return;
    vsnprintf(b->s + b->len, (size_t)k + 1, fmt, ap);
    b->len += (size_t)k;
}

void clb_buf_printf(struct clb_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    clb_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

const char *clb_buf_str(const struct clb_buf *b) { return b->s ? b->s : ""; }

void clb_buf_free(struct clb_buf *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}

/* ---- arenas ------------------------------------------------------------- */

struct clb_arena_chunk {
    struct clb_arena_chunk *next;
    size_t used, cap;
    char data[];
};

#define ARENA_CHUNK (1u << 20)

const char *clb_arena_str(struct clb_arena *a, const char *s, size_t n)
{
    struct clb_arena_chunk *c = a->chunks;
    if (!c || c->cap - c->used < n + 1) {
        size_t cap = n + 1 > ARENA_CHUNK ? n + 1 : ARENA_CHUNK;
        c = malloc(sizeof *c + cap);
        if (!c) {
            clb_oom();
            return NULL;
        }
        c->used = 0;
        c->cap = cap;
        c->next = a->chunks;
        a->chunks = c;
    }
    char *p = c->data + c->used;
    memcpy(p, s, n);
    p[n] = 0;
    c->used += n + 1;
    return p;
}

uint64_t clb_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

const char *clb_arena_intern(struct clb_arena *a, const char *s, size_t n)
{
    if (n == 0)
        return "";
    if (a->intern.n * 2 >= a->intern.cap) { /* grow and rehash */
        size_t cap = a->intern.cap ? 2 * a->intern.cap : 1024;
        const char **slot = calloc(cap, sizeof *slot);
        if (!slot)
            return clb_arena_str(a, s, n);
        for (size_t i = 0; i < a->intern.cap; i++) {
            const char *v = a->intern.slot[i];
            if (!v)
                continue;
            size_t j = clb_fnv1a(CLB_FNV_START, v, strlen(v)) & (cap - 1);
            while (slot[j])
                j = (j + 1) & (cap - 1);
            slot[j] = v;
        }
        free(a->intern.slot);
        a->intern.slot = slot;
        a->intern.cap = cap;
    }
    size_t j = clb_fnv1a(CLB_FNV_START, s, n) & (a->intern.cap - 1);
    for (const char *v; (v = a->intern.slot[j]); j = (j + 1) & (a->intern.cap - 1))
        if (strncmp(v, s, n) == 0 && v[n] == 0)
            return v;
    const char *p = clb_arena_str(a, s, n);
    if (p) {
        a->intern.slot[j] = p;
        a->intern.n++;
    }
    return p;
}

void clb_arena_free(struct clb_arena *a)
{
    for (struct clb_arena_chunk *c = a->chunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a->intern.slot);
    memset(a, 0, sizeof *a);
}

/* ---- checked sizes ------------------------------------------------------ */

size_t clb_mulz(size_t a, size_t b, int *ovf)
{
    size_t r;
    if (__builtin_mul_overflow(a, b, &r)) {
        *ovf = 1;
        return SIZE_MAX;
    }
    return r;
}

size_t clb_addz(size_t a, size_t b, int *ovf)
{
    size_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        *ovf = 1;
        return SIZE_MAX;
    }
    return r;
}

/* ---- the files this process reads or writes rows to ---------------------------- */

static struct {
    pthread_mutex_t mu;
    struct known_file { dev_t dev; ino_t ino; int rows; } *v;
    size_t n, cap;
} files = {.mu = PTHREAD_MUTEX_INITIALIZER};

void clb_files_note(dev_t dev, ino_t ino, int rows)
{
    pthread_mutex_lock(&files.mu);
    size_t i = 0;
    while (i < files.n && !(files.v[i].dev == dev && files.v[i].ino == ino))
        i++;
    if (i < files.n)
        files.v[i].rows |= rows;
    else if (!clb_grow((void **)&files.v, files.n, &files.cap, sizeof *files.v, 8))
        files.v[files.n++] = (struct known_file){dev, ino, rows};
    pthread_mutex_unlock(&files.mu);
}

int clb_files_known(dev_t dev, ino_t ino)
{
    int k = 0;
    pthread_mutex_lock(&files.mu);
    for (size_t i = 0; i < files.n && !k; i++)
        if (files.v[i].dev == dev && files.v[i].ino == ino)
            k = files.v[i].rows ? 2 : 1;
    pthread_mutex_unlock(&files.mu);
    return k;
}

/* The identity of a path that may not exist yet: its directory's device and
 * inode, and its last name. */
static int dir_entry(const char *path, struct stat *dir, const char **name)
{
    const char *slash = strrchr(path, '/');
    *name = slash ? slash + 1 : path;
    char *d = slash ? clb_asprintf("%.*s", slash == path ? 1 : (int)(slash - path), path)
                    : clb_strdup(".");
    int ok = d && stat(d, dir) == 0;
    free(d);
    return ok;
}

int clb_same_path(const char *a, const char *b)
{
    struct stat sa, sb;
    int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea || eb)
        return ea && eb && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    const char *na, *nb;
    return dir_entry(a, &sa, &na) && dir_entry(b, &sb, &nb) && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino && *na && strcmp(na, nb) == 0;
}

int clb_check_regular(int fd, const char *path, const char *what, size_t max_bytes, size_t *size)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        clb_seterr("%s '%s' is not a regular file (only regular files are read)", what, path);
        return -1;
    }
    clb_files_note(st.st_dev, st.st_ino, 0);
    if ((unsigned long long)st.st_size > max_bytes) {
        close(fd);
        /* the limit in the unit it was set in: GiB for results, bytes for a
         * profile or a kernel source */
        const size_t gib = (size_t)1 << 30;
        int in_gib = max_bytes >= gib && max_bytes % gib == 0;
        clb_seterr("%s '%s' is larger than the %zu %s clbench reads", what, path,
                   in_gib ? max_bytes >> 30 : max_bytes, in_gib ? "GiB" : "bytes");
        return -1;
    }
    if (size)
        *size = (size_t)st.st_size;
    return 0;
}

char *clb_read_regular(const char *path, const char *what, size_t max_bytes)
{
    /* O_NONBLOCK: opening a FIFO without a writer must not block */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        clb_seterr("%s '%s': cannot read: %s", what, path, strerror(errno));
        return NULL;
    }
    size_t n, got = 0;
    if (clb_check_regular(fd, path, what, max_bytes, &n))
        return NULL;
    char *buf = clb_xmalloc(n + 1);
    ssize_t k = 1;
    while (buf && got < n && (k = read(fd, buf + got, n - got)) > 0)
        got += (size_t)k;
    close(fd);
    if (!buf)
        return NULL;
    buf[got] = 0;
    if (memchr(buf, 0, got)) {
        free(buf);
        clb_seterr("%s '%s' holds a NUL byte (not a text file)", what, path);
        return NULL;
    }
    return buf;
}

int clb_exit_status(int rc)
{
    switch (rc) {
    case CLB_OK: case CLB_SKIP: return CLB_EXIT_OK;
    case CLB_FAIL: return CLB_EXIT_FAILED;
    case CLB_EUSAGE: return CLB_EXIT_USAGE;
    default: return CLB_EXIT_ERROR;
    }
}
