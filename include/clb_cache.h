/* The program-binary cache (host/cache): the binaries a driver compiled
 * (CL_PROGRAM_BINARIES), kept on disk so that the next run with the same key
 * loads instead of compiling. This module moves bytes only; the core
 * (host/core/cl_program.c) talks to OpenCL. The cache is untrusted input (an
 * unsafe directory or entry is refused with one warning; the rules:
 * docs/MEASURING.md, "Program-binary cache"): an entry holds its whole key
 * and is loaded only when every byte of it matches. Entries are written under
 * a temporary name and renamed. Safe to call from several threads. */
#ifndef CLB_CACHE_H
#define CLB_CACHE_H

#include <pthread.h>
#include <stddef.h>

/* Bump when the entry layout or the meaning of a key field changes. */
#define CLB_CACHE_FORMAT 1

/* What a binary was built from and for: platform name and version, device
 * name, vendor and version, driver version, build options, and the full
 * source as compiled (common.cl in front). */
enum { CLB_KEY_PLATFORM, CLB_KEY_PLATFORM_VERSION, CLB_KEY_DEVICE, CLB_KEY_VENDOR,
       CLB_KEY_DEVICE_VERSION, CLB_KEY_DRIVER, CLB_KEY_OPTIONS, CLB_KEY_SOURCE, CLB_KEY_NFIELDS };
struct clb_cache_key {
    const char *field[CLB_KEY_NFIELDS];
    const char *what;          /* how messages name the program ("dslash.cl [-DRHS=4]") */
};

struct clb_bincache {
    char *dir;                 /* NULL: no place for it (no $XDG_CACHE_HOME, no $HOME) */
    int state;                 /* 0 not opened yet, 1 open, -1 off (unsafe or unusable) */
    int dirfd;
    pthread_mutex_t lock;
};

/* The cache directory: $XDG_CACHE_HOME/clbench where XDG_CACHE_HOME is an
 * absolute path, else $HOME/.cache/clbench (malloc'd); NULL when neither. */
char *clb_cache_path(void);
/* Prepare a cache (nothing is touched on disk until the first load). */
void clb_cache_init(struct clb_bincache *c);
void clb_cache_close(struct clb_bincache *c);
/* The entry of key: CLB_OK with *bin (malloc'd, *n bytes); CLB_SKIP when
 * there is none (silent) or it is refused (one warning line, entry removed). */
int clb_cache_load(struct clb_bincache *c, const struct clb_cache_key *k, unsigned char **bin,
                   size_t *n);
/* Keep a binary for key (atomically; a failure is one warning line and the
 * run goes on). */
void clb_cache_store(struct clb_bincache *c, const struct clb_cache_key *k,
                     const unsigned char *bin, size_t n);
/* The driver refused a loaded binary: one warning naming why, entry removed. */
void clb_cache_reject(struct clb_bincache *c, const struct clb_cache_key *k, const char *why);

/* `clbench cache`: the entries of dir (count, bytes), and removing them.
 * An unsafe directory is refused (CLB_EUSAGE with the reason). */
int clb_cache_stat(const char *dir, long *entries, double *bytes);
int clb_cache_clear(const char *dir, long *removed);

#endif
