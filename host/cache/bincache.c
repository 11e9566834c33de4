/* The program-binary cache on disk (include/clb_cache.h says what it
 * promises). An entry, <hash of the key>.bin:
 *
 *   "CLBENCH-PROGRAM-BINARY\n"       magic
 *   u32 format, u32 number of key fields
 *   per key field: u64 length, its bytes          (the whole key, source included)
 *   u64 binary length, u64 FNV-1a 64 of the binary, the binary
 *
 * in host byte order, ending exactly at the end of the file. The hash only
 * names the file: an entry is used when every byte of its key matches, so a
 * collision or a planted file can only be refused, never loaded. */
#define _GNU_SOURCE
#include "clb_cache.h"
#include "clbench.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char magic[] = "CLBENCH-PROGRAM-BINARY\n";
#define MAGIC_LEN (sizeof magic - 1)
/* The largest entry read back: a driver's binary of one program is a few
 * MiB at most (PoCL's bundle of a large program); a file beyond this is not
 * one of ours. */
#define MAX_ENTRY ((size_t)256 << 20)

static const char *const field_name[CLB_KEY_NFIELDS] = {
    "platform", "platform version", "device", "vendor", "device version", "driver version",
    "build options", "source"};

static void entry_name(const struct clb_cache_key *k, char *out, size_t n)
{
    uint32_t fmt = CLB_CACHE_FORMAT;
    uint64_t h = clb_fnv1a(CLB_FNV_START, &fmt, sizeof fmt);
    for (int i = 0; i < CLB_KEY_NFIELDS; i++) {
        uint64_t len = strlen(k->field[i]);
        h = clb_fnv1a(clb_fnv1a(h, &len, sizeof len), k->field[i], (size_t)len);
    }
    snprintf(out, n, "%016llx.bin", (unsigned long long)h);
}

/* Does s start with an entry's name, "<16 hex digits>.bin"? */
static int entry_at(const char *s)
{
    return strspn(s, "0123456789abcdef") == 16 && strncmp(s + 16, ".bin", 4) == 0;
}

/* Is a name one of the cache's files: an entry, or a temporary one
 * (".<entry>.<pid>-<n>": clb_replace_open; ".tmp-...": an older clbench's)? */
static int cache_file(const char *name)
{
    size_t n = strlen(name);
    if (name[0] == '.')
        return strncmp(name, ".tmp-", 5) == 0 || (n > 22 && name[21] == '.' && entry_at(name + 1));
    return n == 20 && entry_at(name);
}

char *clb_cache_path(void)
{
    const char *x = getenv("XDG_CACHE_HOME");
    if (x && x[0] == '/') /* the XDG rule: a relative path is invalid and ignored */
        return clb_asprintf("%s/clbench", x);
    const char *h = getenv("HOME");
    return h && h[0] == '/' ? clb_asprintf("%s/.cache/clbench", h) : NULL;
}

/* ---- the directory ------------------------------------------------------- */

/* mkdir -m 0700 of dir's parent and of dir itself, where missing. */
static void make_dirs(const char *dir)
{
    char *parent = clb_strdup(dir);
    char *slash = parent ? strrchr(parent, '/') : NULL;
    if (slash && slash != parent) {
        *slash = 0;
        mkdir(parent, 0700);
    }
    free(parent);
    mkdir(dir, 0700);
}

/* Open dir and check that it is a directory (not a link to one) that this
 * user owns and nobody else may write: a descriptor, or -1 with the reason
 * (CLB_SKIP-like: errno ENOENT when it does not exist). */
static int open_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        struct stat ls;
        if (lstat(dir, &ls) == 0 && S_ISLNK(ls.st_mode))
            clb_seterr("it is a symbolic link");
        else
            clb_seterr("%s", strerror(e));
        errno = e;
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0)
        clb_seterr("%s", strerror(errno));
    else if (st.st_uid != geteuid())
        clb_seterr("it is owned by uid %u, not by you (uid %u)", (unsigned)st.st_uid,
                   (unsigned)geteuid());
    else if (st.st_mode & (S_IWGRP | S_IWOTH))
        clb_seterr("others may write to it (mode %03o)", (unsigned)(st.st_mode & 0777));
    else
        return fd;
    close(fd);
    errno = EPERM;
    return -1;
}

void clb_cache_init(struct clb_bincache *c)
{
    memset(c, 0, sizeof *c);
    c->dirfd = -1;
    pthread_mutex_init(&c->lock, NULL);
}

void clb_cache_close(struct clb_bincache *c)
{
    if (c->dirfd >= 0)
        close(c->dirfd);
    free(c->dir);
    pthread_mutex_destroy(&c->lock);
    memset(c, 0, sizeof *c);
    c->dirfd = -1;
}

/* The directory, opened at the first use: 0, or -1 when the cache is off
 * for this run (said once). */
static int ensure_open(struct clb_bincache *c)
{
    pthread_mutex_lock(&c->lock);
    if (c->state == 0) {
        c->state = -1;
        if (!c->dir && !(c->dir = clb_cache_path()))
            clb_debug("program cache: neither XDG_CACHE_HOME nor HOME is set: not used\n");
        if (c->dir) {
            make_dirs(c->dir);
            if ((c->dirfd = open_dir(c->dir)) >= 0)
                c->state = 1;
            else
                clb_print_error("warning: program cache %s: %s; not used this run (programs are "
                                "built from source)", c->dir, clb_lasterr());
        }
    }
    int rc = c->state == 1 ? 0 : -1;
    pthread_mutex_unlock(&c->lock);
    return rc;
}

/* ---- entries ------------------------------------------------------------- */

static void refuse(struct clb_bincache *c, const char *name, const struct clb_cache_key *k,
                   const char *why)
{
    clb_print_error("warning: program cache %s/%s (%s): %s; rebuilt from source", c->dir, name,
                    k->what ? k->what : "a program", why);
    unlinkat(c->dirfd, name, 0);
}

/* Read a whole entry file: NULL, or why it is refused. */
static const char *read_entry(int fd, unsigned char **data, size_t *len, char *buf, size_t n)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return strerror(errno);
    if (!S_ISREG(st.st_mode))
        return "not a regular file";
    if (st.st_uid != geteuid()) {
        snprintf(buf, n, "owned by uid %u, not by you", (unsigned)st.st_uid);
        return buf;
    }
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return "others may write to it";
    if ((uintmax_t)st.st_size > MAX_ENTRY)
        return "larger than any entry clbench writes";
    *len = (size_t)st.st_size;
    *data = malloc(*len ? *len : 1);
    if (!*data)
        return CLB_OOM;
    size_t got = 0;
    ssize_t r = 1;
    while (got < *len && (r = read(fd, *data + got, *len - got)) > 0)
        got += (size_t)r;
    return got == *len ? NULL : r < 0 ? strerror(errno) : "truncated while read";
}

/* Take u bytes at *pos into out; 0 when the entry ends first. */
static int take(const unsigned char *p, size_t len, size_t *pos, void *out, size_t u)
{
    if (len - *pos < u)
        return 0;
    memcpy(out, p + *pos, u);
    *pos += u;
    return 1;
}

/* Check an entry against the key: NULL and the binary's place, or why not. */
static const char *parse_entry(const unsigned char *p, size_t len, const struct clb_cache_key *k,
                               size_t *off, size_t *n, char *buf, size_t bn)
{
    size_t pos = MAGIC_LEN;
    uint32_t fmt, nf;
    if (len < MAGIC_LEN || memcmp(p, magic, MAGIC_LEN))
        return "not a clbench cache entry";
    if (!take(p, len, &pos, &fmt, 4) || !take(p, len, &pos, &nf, 4))
        return "truncated";
    if (fmt != CLB_CACHE_FORMAT || nf != CLB_KEY_NFIELDS)
        return "written in another cache format";
    for (int i = 0; i < CLB_KEY_NFIELDS; i++) {
        uint64_t fl;
        size_t want = strlen(k->field[i]);
        if (!take(p, len, &pos, &fl, 8) || fl > len - pos)
            return "truncated";
        if (fl != want || memcmp(p + pos, k->field[i], want)) {
            snprintf(buf, bn, "built for another %s", field_name[i]);
            return buf;
        }
        pos += (size_t)fl;
    }
    uint64_t bl, sum;
    if (!take(p, len, &pos, &bl, 8) || !take(p, len, &pos, &sum, 8) || bl > len - pos)
        return "truncated";
    if (bl != len - pos)
        return "longer than its header says";
    if (bl == 0)
        return "an empty binary";
    if (clb_fnv1a(CLB_FNV_START, p + pos, (size_t)bl) != sum)
        return "its binary does not match its checksum (damaged)";
    *off = pos;
    *n = (size_t)bl;
    return NULL;
}

int clb_cache_load(struct clb_bincache *c, const struct clb_cache_key *k, unsigned char **bin,
                   size_t *n)
{
    *bin = NULL;
    *n = 0;
    if (ensure_open(c))
        return CLB_SKIP;
    char name[32], buf[96];
    entry_name(k, name, sizeof name);
    int fd = openat(c->dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno != ENOENT)
            refuse(c, name, k, errno == ELOOP ? "a symbolic link" : strerror(errno));
        return CLB_SKIP;
    }
    unsigned char *data = NULL;
    size_t len = 0, off = 0;
    const char *why = read_entry(fd, &data, &len, buf, sizeof buf);
    close(fd);
    if (!why)
        why = parse_entry(data, len, k, &off, n, buf, sizeof buf);
    if (why) {
        free(data);
        refuse(c, name, k, why);
        return CLB_SKIP;
    }
    memmove(data, data + off, *n);
    *bin = data;
    return CLB_OK;
}

void clb_cache_reject(struct clb_bincache *c, const struct clb_cache_key *k, const char *why)
{
    char name[32];
    entry_name(k, name, sizeof name);
    if (c->state == 1)
        refuse(c, name, k, why);
}

/* The entry as bytes: header, key, binary (malloc'd; NULL when too large). */
static unsigned char *make_entry(const struct clb_cache_key *k, const unsigned char *bin,
                                 size_t n, size_t *len)
{
    int ovf = 0;
    size_t total = clb_addz(MAGIC_LEN + 8 + 16, n, &ovf);
    for (int i = 0; i < CLB_KEY_NFIELDS; i++)
        total = clb_addz(total, clb_addz(8, strlen(k->field[i]), &ovf), &ovf);
    unsigned char *p = ovf || total > MAX_ENTRY ? NULL : malloc(total);
    if (!p)
        return NULL;
    uint32_t head[2] = {CLB_CACHE_FORMAT, CLB_KEY_NFIELDS};
    memcpy(p, magic, MAGIC_LEN);
    memcpy(p + MAGIC_LEN, head, 8);
    size_t pos = MAGIC_LEN + 8;
    for (int i = 0; i < CLB_KEY_NFIELDS; i++) {
        uint64_t fl = strlen(k->field[i]);
        memcpy(p + pos, &fl, 8);
        memcpy(p + pos + 8, k->field[i], (size_t)fl);
        pos += 8 + (size_t)fl;
    }
    uint64_t tail[2] = {n, clb_fnv1a(CLB_FNV_START, bin, n)};
    memcpy(p + pos, tail, 16);
    memcpy(p + pos + 16, bin, n);
    *len = total;
    return p;
}

void clb_cache_store(struct clb_bincache *c, const struct clb_cache_key *k,
                     const unsigned char *bin, size_t n)
{
    if (!n || ensure_open(c))
        return;
    size_t len;
    unsigned char *e = make_entry(k, bin, n, &len);
    char name[32];
    entry_name(k, name, sizeof name);
    struct clb_replace t;
    int ok = e && clb_replace_open(c->dirfd, name, 0600, &t) == 0 &&
             clb_replace_done(&t, name, clb_write_all(t.fd, e, len) == 0, CLB_REPLACE) == 0;
    if (!ok)
        clb_print_error("warning: program cache %s: cannot keep %s: %s", c->dir,
                        k->what ? k->what : "a program",
                        e ? strerror(errno) : "too large or out of host memory");
    free(e);
}

/* ---- `clbench cache` ------------------------------------------------------ */

/* Visit the cache's files of dir: their sizes, removing them when asked. */
static int each_file(const char *dir, int remove, long *count, double *bytes)
{
    *count = 0;
    *bytes = 0;
    int fd = open_dir(dir);
    if (fd < 0) {
        if (errno == ENOENT)
            return CLB_OK; /* nothing cached yet */
        return clb_eusage("program cache %s: %s: not touched", dir, clb_lasterr());
    }
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return clb_err(CLB_ESYS, "program cache %s: %s", dir, strerror(errno));
    }
    int rc = CLB_OK;
    for (struct dirent *de; rc == CLB_OK && (de = readdir(d));) {
        struct stat st;
        if (!cache_file(de->d_name) || fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (remove && unlinkat(fd, de->d_name, 0) != 0) {
            rc = clb_err(CLB_ESYS, "program cache %s/%s: cannot remove: %s", dir, de->d_name,
                                   strerror(errno));
            break;
        }
        ++*count;
        *bytes += (double)st.st_size;
    }
    closedir(d);
    return rc;
}

int clb_cache_stat(const char *dir, long *entries, double *bytes)
{
    return each_file(dir, 0, entries, bytes);
}

int clb_cache_clear(const char *dir, long *removed)
{
    double bytes;
    return each_file(dir, 1, removed, &bytes);
}
