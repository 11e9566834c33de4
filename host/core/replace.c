/* A file written whole or not at all (clbench.h, clb_replace_open): every
 * output that replaces a file (a page, a figure, a rewritten results file, a
 * new results file's header, a cache entry) is written to a temporary file
 * beside it, synced, and renamed (or linked) into place, so a reader, a
 * crash or a full disk never meets half a file. */
#include "clbench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int clb_write_all(int fd, const void *p, size_t n)
{
    const char *b = p;
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        b += w;
        n -= (size_t)w;
    }
    return 0;
}

/* ".<base>.<pid>-<n>" beside path, the first n from 0 that is free: O_EXCL
 * and O_NOFOLLOW, so a file or a link planted at a name one can guess is
 * never written through, only stepped over. */
static int open_beside(struct clb_replace *r, const char *path, mode_t mode)
{
    const char *slash = strrchr(path, '/');
    int dl = slash ? (int)(slash - path + 1) : 0;
    for (int tries = 0; tries < 100; tries++) {
        free(r->tmp);
        r->tmp = clb_asprintf("%.*s.%s.%ld-%d", dl, path, path + dl, (long)getpid(), tries);
        if (!r->tmp)
            return -1;
        r->fd = openat(r->dirfd, r->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                       mode);
        if (r->fd >= 0 || errno != EEXIST)
            break;
    }
    if (r->fd >= 0)
        return 0;
    int e = errno;
    free(r->tmp);
    r->tmp = NULL;
    errno = e;
    return -1;
}

int clb_replace_open(int dirfd, const char *path, int mode, struct clb_replace *r)
{
    memset(r, 0, sizeof *r);
    r->dirfd = dirfd;
    r->guard = -1;
    struct stat st;
    int keep = mode < 0 && fstatat(dirfd, path, &st, 0) == 0;
    if (open_beside(r, path, mode < 0 ? 0666 : (mode_t)mode) != 0)
        return -1;
    if (keep)
        fchmod(r->fd, st.st_mode & 07777);
    if (dirfd == AT_FDCWD) /* removed if a signal ends the command */
        r->guard = clb_cleanup_path(r->tmp);
    return 0;
}

int clb_replace_done(struct clb_replace *r, const char *path, int keep, int how)
{
    int ok = keep && fsync(r->fd) == 0, e = errno;
    if (close(r->fd) != 0 && ok)
        ok = 0, e = errno;
    /* a link never replaces: a file another process made first stays */
    if (ok && !(how == CLB_REPLACE_NEW
                    ? linkat(r->dirfd, r->tmp, r->dirfd, path, 0) == 0 || errno == EEXIST
                    : renameat(r->dirfd, r->tmp, r->dirfd, path) == 0))
        ok = 0, e = errno;
    if (!ok || how == CLB_REPLACE_NEW)
        unlinkat(r->dirfd, r->tmp, 0);
    clb_cleanup_drop(r->guard);
    free(r->tmp);
    r->tmp = NULL;
    r->fd = -1;
    errno = e;
    return ok ? 0 : -1;
}
