/* clbench: common definitions shared by every host module. */
#ifndef CLBENCH_H
#define CLBENCH_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The program's version, which every row carries (clbench_version): the
 * project version of CMakeLists.txt, bumped when kernels change. */
#ifndef CLB_VERSION
#error "CLB_VERSION is defined by CMakeLists.txt (project VERSION)"
#endif

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
 * One message per thread is enough: errors are reported where they surface.
 * The message is held in memory that grows: text from a file or the command
 * line is never cut. clb_seterr formats the new message before the old one
 * goes, so it may quote it: clb_seterr("--ceilings: %s", clb_lasterr()). */
void clb_seterr(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void clb_vseterr(const char *fmt, va_list ap);
/* Set the message and give rc: `return clb_err(CLB_ESYS, "cannot ...")`;
 * a refusal (exit 2) is `return clb_eusage("bad ...")`. A macro, not a
 * function, so that the compiler still sees which code a path returns. */
#define clb_err(rc, ...) (clb_seterr(__VA_ARGS__), (rc))
#define clb_eusage(...) clb_err(CLB_EUSAGE, __VA_ARGS__)
void clb_lasterr_release(void); /* frees this thread's message (a thread that ends) */
const char *clb_lasterr(void);
/* How many messages this thread has set: a caller that must say something
 * when a callee failed without a message compares it before and after
 * (never a message's text). */
unsigned long clb_errseq(void);
/* The message of a failed allocation, said one way: clb_oom sets it and
 * returns CLB_ESYS. */
#define CLB_OOM "out of host memory"
int clb_oom(void);
/* Print "clbench: <message>" on stderr. */
void clb_print_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Output level: -q 0, default 1, -v 2. */
extern int clb_verbosity;
/* This thread's verbosity: clb_verbosity, or -1 (silent) on a device thread
 * that is not the job's rank 0 (clb_thread_quiet). */
int clb_verbosity_now(void);
void clb_thread_quiet(int quiet);
void clb_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void clb_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* What a person reads fits CLB_WIDTH columns: a terminal wider than that
 * widens it, `--wide` (any command; clb_wide) lifts it. Tables keep a row on
 * one line; text wraps at spaces, never inside a word (host/core/util.c). */
#define CLB_WIDTH 100
extern int clb_wide;
/* The columns text written to f may use. */
int clb_out_width(FILE *f);
/* Write text to f from column col, wrapped at spaces to clb_out_width(f):
 * each further line starts with `indent` spaces; ends with a newline. A
 * word longer than a line is written whole. */
void clb_wrap(FILE *f, int col, int indent, const char *text);
void clb_wrapf(FILE *f, int col, int indent, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Small helpers (host/core/util.c). */
void *clb_xmalloc(size_t n);            /* NULL + error message on failure */
void *clb_xcalloc(size_t n, size_t size);
char *clb_strdup(const char *s);
char *clb_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
size_t clb_strlcpy(char *dst, const char *src, size_t n);
/* Room for element n of the array *v (*cap elements of elem bytes): the
 * capacity doubles, from `first`. 0, or -1 with the message set on OOM. */
int clb_grow(void **v, size_t n, size_t *cap, size_t elem, size_t first);
/* The same for an array v of any type with a size_t capacity, from 16. */
#define CLB_GROW(v, n, cap) clb_grow((void **)&(v), (size_t)(n), &(cap), sizeof *(v), 16)
/* Append to a fixed buffer of program-made text (numbers, names of our own);
 * never for text from a file or the command line: use struct clb_buf. */
void clb_appendf(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
char *clb_slug(const char *in);          /* "NVIDIA H100 80GB" -> "nvidia-h100-80gb" (malloc'd) */
double clb_now(void);                    /* monotonic seconds */
int clb_strieq(const char *a, const char *b);
const char *clb_stristr(const char *hay, const char *needle);
/* FNV-1a 64 of n bytes, continuing from h (CLB_FNV_START for a new hash). */
#define CLB_FNV_START 0xcbf29ce484222325ULL
uint64_t clb_fnv1a(uint64_t h, const void *p, size_t n);
/* qsort whose comparison gets ctx (glibc's qsort_r: clbench runs on Linux
 * and already uses GNU extensions; a port replaces this one function). */
void clb_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *),
              void *ctx);
/* Is word a member of the comma-separated list? */
int clb_list_has(const char *list, const char *word);

/* A string that grows: for text whose length nobody controls. */
struct clb_buf {
    char *s;          /* always NUL-terminated once anything was added ("" otherwise) */
    size_t len, cap;
    int oom;          /* an allocation failed; the text is cut there */
};
void clb_buf_printf(struct clb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void clb_buf_vprintf(struct clb_buf *b, const char *fmt, va_list ap);
void clb_buf_add(struct clb_buf *b, const char *s, size_t n);
const char *clb_buf_str(const struct clb_buf *b); /* "" when empty */
void clb_buf_free(struct clb_buf *b);

/* Strings that live as long as their arena: rows of a results file, notes of
 * a run. Equal strings may be interned (stored once). */
struct clb_arena {
    struct clb_arena_chunk *chunks;
    struct { const char **slot; size_t cap, n; } intern;
};
const char *clb_arena_str(struct clb_arena *a, const char *s, size_t n); /* copy; NULL on OOM */
const char *clb_arena_intern(struct clb_arena *a, const char *s, size_t n);
void clb_arena_free(struct clb_arena *a);

/* The whole content of a file from outside (a profile, a kernel source):
 * only a regular file (a FIFO or a device such as /dev/zero would hang or
 * fill the memory) of at most max_bytes, without NUL bytes. Malloc'd and
 * NUL-terminated; NULL with "<what> '<path>': reason" set. */
char *clb_read_regular(const char *path, const char *what, size_t max_bytes);
/* The check behind it, for a file opened (O_NONBLOCK) by its caller: fd is a
 * regular file of at most max_bytes (its size in *size, when size is not
 * NULL) and 0 is returned;
 * else fd is closed, "<what> '<path>' ..." set, and -1 returned. */
int clb_check_regular(int fd, const char *path, const char *what, size_t max_bytes, size_t *size);

/* A file written whole or not at all (host/core/replace.c): open makes a
 * temporary file beside path (relative to dirfd: AT_FDCWD or a directory's
 * descriptor), with O_EXCL and O_NOFOLLOW, removed if a signal ends the
 * command (dirfd AT_FDCWD); mode: its permission bits less the umask (0666
 * is what open() gives), -1: those of path when it exists. done, when keep:
 * sync it and rename it over path (CLB_REPLACE) or link it there unless a
 * file exists (CLB_REPLACE_NEW); else, or when that fails, remove it. Both:
 * 0, or -1 with errno (done: 0 only when the file is in place; after !keep,
 * -1 with the caller's errno as it was). */
struct clb_replace {
    int dirfd, fd, guard;
    char *tmp;
};
enum { CLB_REPLACE, CLB_REPLACE_NEW };
int clb_replace_open(int dirfd, const char *path, int mode, struct clb_replace *r);
int clb_replace_done(struct clb_replace *r, const char *path, int keep, int how);
/* Write all n bytes (retrying short writes and EINTR): 0, or -1 with errno. */
int clb_write_all(int fd, const void *p, size_t n);

/* Outputs never replace inputs (docs/RELIABILITY.md). Every file read through
 * clb_check_regular and every results file a run appends to is remembered by
 * device and inode. */
/* May an output (a page, a figure: `noun`, given by option `opt`) replace
 * path? CLB_OK, or CLB_EUSAGE with one line when path is a clbench results
 * file or a file this process reads or writes rows to (a symbolic link or a
 * second path to one counts: device and inode, never the name). */
int clb_output_ok(const char *path, const char *opt, const char *noun);
/* Do a and b name one file? Existing: the same device and inode; else the
 * same name in the same directory (by the directory's device and inode). */
int clb_same_path(const char *a, const char *b);

/* What a command must not leave behind when SIGINT, SIGTERM or SIGHUP ends
 * it (host/core/cleanup.c): clb_cleanup_guard installs the handlers (once;
 * `run` has its own, which stop the run between configurations); register
 * each temporary file or directory (a directory is removed after the files)
 * and each child process as it is made, and drop it when it is gone. The
 * handler kills and reaps the children, removes the paths and ends the
 * process with the signal (128 + N). Registration returns an id, -1 when
 * the table (1024 entries) is full or memory is short: the thing is then
 * only cleaned up the ordinary way. */
void clb_cleanup_guard(void);
int clb_cleanup_path(const char *path);
int clb_cleanup_child(int pid);
void clb_cleanup_drop(int id);

/* Checked size arithmetic: each operation sets *ovf (sticky) instead of
 * wrapping, so a size whose byte count does not fit is refused, never
 * allocated short. */
size_t clb_mulz(size_t a, size_t b, int *ovf);
size_t clb_addz(size_t a, size_t b, int *ovf);

/* Deterministic random data, never zero: magnitudes in [0.5, 1.5), random sign.
 * The same seed gives the same data whatever the thread count. */
void clb_fill_f32(float *p, size_t n, unsigned long long seed);
void clb_fill_f64(double *p, size_t n, unsigned long long seed);
/* n doubles where dbl, else n floats. */
void clb_fill(void *p, size_t n, int dbl, unsigned long long seed);
unsigned long long clb_rand_next(unsigned long long *state);

#endif
