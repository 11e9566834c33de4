/* gnuplot run as a subprocess in a private temporary directory on the
 * scripts and data that chart_gnuplot.c made (include/clb_chart.h). Files
 * there are named by a figure's index only (fig1.gp, fig1.dat,
 * fig1.peak.dat, fig1.svg): no path is built from the text of a results
 * file. A signal removes the directory and ends gnuplot (host/core/cleanup.c). */
#include "clb_chart.h"
#include "clb_text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char *clb_gnuplot_find(void)
{
    const char *env = getenv("CLBENCH_GNUPLOT");
    const char *name = env && *env ? env : "gnuplot";
    struct clb_buf e = {0};
    if (strchr(name, '/')) {
        if (access(name, X_OK) == 0)
            return clb_strdup(name);
        clb_seterr("gnuplot not found at '%s' (CLBENCH_GNUPLOT): %s", cmp_esc_tmp(&e, name, 0),
                   CLB_GNUPLOT_HINT);
        clb_buf_free(&e);
        return NULL;
    }
    const char *path = getenv("PATH");
    struct clb_buf b = {0};
    while (path && *path) {
        size_t len = strcspn(path, ":");
        b.len = 0;
        clb_buf_printf(&b, "%.*s/%s", (int)len, path, name);
        if (len && !b.oom && access(b.s, X_OK) == 0)
            return b.s;
        path += len + (path[len] == ':');
    }
    clb_buf_free(&b);
    clb_seterr("'%s' is not on PATH: %s to draw plots", cmp_esc_tmp(&e, name, 0),
               CLB_GNUPLOT_HINT);
    clb_buf_free(&e);
    return NULL;
}

/* ---- the directory ----------------------------------------------------------- */

void clb_plotdir_guard(struct clb_plotdir *d, const char *path)
{
    int id = clb_cleanup_path(path);
    if (id >= 0 && CLB_GROW(d->ids, d->nids, d->capids) == 0)
        d->ids[d->nids++] = id;
    else
        clb_cleanup_drop(id);
}

int clb_plotdir_open(struct clb_plotdir *d)
{
    memset(d, 0, sizeof *d);
    clb_cleanup_guard();
    const char *root = getenv("TMPDIR");
    struct clb_buf b = {0};
    clb_buf_printf(&b, "%s/clbench-plot-XXXXXX", root && *root ? root : "/tmp");
    if (b.oom || !mkdtemp(b.s)) {
        struct clb_buf e = {0};
        clb_seterr("cannot create a temporary directory '%s': %s",
                   cmp_esc_tmp(&e, clb_buf_str(&b), 0), strerror(errno));
        clb_buf_free(&e);
        clb_buf_free(&b);
        return CLB_ESYS;
    }
    d->path = b.s;
    clb_plotdir_guard(d, d->path);
    return CLB_OK;
}

char *clb_plotdir_path(const struct clb_plotdir *d, int index, const char *ext)
{
    return clb_asprintf("%s/fig%d.%s", d->path, index, ext);
}

static const char *const fig_ext[] = {"gp", "dat", "peak.dat", "err", "svg", "png"};
#define NFIG_EXT (sizeof fig_ext / sizeof *fig_ext)

void clb_plotdir_close(struct clb_plotdir *d)
{
    if (d->path) {
        for (int w = 1; w <= d->maxfig; w++)
            for (size_t k = 0; k < NFIG_EXT; k++) {
                char *p = clb_plotdir_path(d, w, fig_ext[k]);
                if (p)
                    unlink(p);
                free(p);
            }
        char *all = clb_asprintf("%s/all.gp", d->path), *err = clb_asprintf("%s/all.err", d->path);
        if (all)
            unlink(all);
        if (err)
            unlink(err);
        free(all);
        free(err);
        rmdir(d->path);
    }
    for (size_t i = 0; i < d->nids; i++)
        clb_cleanup_drop(d->ids[i]);
    free(d->ids);
    free(d->path);
    memset(d, 0, sizeof *d);
}

static int write_file(struct clb_plotdir *d, int index, const char *ext, const struct clb_buf *b)
{
    char *p = clb_plotdir_path(d, index, ext);
    if (!p)
        return CLB_ESYS;
    int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    int rc = CLB_OK;
    size_t done = 0;
    const char *s = clb_buf_str(b);
    while (fd >= 0 && done < b->len) {
        ssize_t k = write(fd, s + done, b->len - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        done += (size_t)k;
    }
    if (fd < 0 || done < b->len || close(fd) != 0) {
        clb_seterr("cannot write to the temporary directory '%s': %s", d->path, strerror(errno));
        rc = CLB_ESYS;
    }
    free(p);
    return rc;
}

int clb_plotdir_write(struct clb_plotdir *d, int index, const struct clb_chart_text *t)
{
    if (index > d->maxfig) {
        for (int w = d->maxfig + 1; w <= index; w++)
            for (size_t k = 0; k < NFIG_EXT; k++) {
                char *p = clb_plotdir_path(d, w, fig_ext[k]);
                if (p)
                    clb_plotdir_guard(d, p);
                free(p);
            }
        d->maxfig = index;
    }
    int rc = write_file(d, index, "gp", &t->script);
    if (!rc)
        rc = write_file(d, index, "dat", &t->data);
    if (!rc)
        rc = write_file(d, index, "peak.dat", &t->peaks);
    return rc;
}

char *clb_plotdir_read(const struct clb_plotdir *d, int index, const char *ext, size_t max,
                       size_t *len)
{
    char *p = clb_plotdir_path(d, index, ext);
    if (!p)
        return NULL;
    char *text = clb_read_regular(p, "figure", max);
    free(p);
    *len = text ? strlen(text) : 0;
    if (text && !*len) {
        clb_seterr("gnuplot wrote an empty figure %d", index);
        free(text);
        return NULL;
    }
    return text;
}

/* ---- gnuplot ---------------------------------------------------------------- */

/* The lines of gnuplot's error output worth showing: those naming a line of
 * the script or an error, at most the last three; else the last three lines
 * with text. Joined by " | ", escaped: one line. */
static void error_lines(const char *errpath, struct clb_buf *out)
{
    int fd = open(errpath, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat sb;
    off_t from = fstat(fd, &sb) == 0 && sb.st_size > 65536 ? sb.st_size - 65536 : 0;
    struct clb_buf text = {0};
    char buf[8192];
    if (lseek(fd, from, SEEK_SET) >= 0)
        for (ssize_t k; (k = read(fd, buf, sizeof buf)) > 0;)
            clb_buf_add(&text, buf, (size_t)k);
    close(fd);
    /* split into lines (in place), pick the wanted ones */
    char *s = text.s;
    const char *pick[3] = {0}, *last[3] = {0};
    int np = 0, nl = 0;
    for (char *line = s; line && *line;) {
        char *nlp = strchr(line, '\n');
        if (nlp)
            *nlp = 0;
        const char *p = line;
        while (*p == ' ' || *p == '\t' || *p == '^' || *p == '\r')
            p++;
        if (*p) {
            if (strstr(line, "\" line ") || strstr(line, "rror") || strstr(line, "arning")) {
                if (np == 3)
                    memmove(pick, pick + 1, 2 * sizeof *pick), np = 2;
                pick[np++] = p;
            }
            if (nl == 3)
                memmove(last, last + 1, 2 * sizeof *last), nl = 2;
            last[nl++] = p;
        }
        line = nlp ? nlp + 1 : NULL;
    }
    const char **v = np ? pick : last;
    int n = np ? np : nl;
    struct clb_buf e = {0};
    for (int i = 0; i < n; i++) {
        cmp_esc_tmp(&e, v[i], 0);
        if (e.len > 300) {   /* a display cap: the whole output is in no file we keep */
            e.len = 297;
            e.s[e.len] = 0;
            clb_buf_add(&e, "...", 3);
        }
        clb_buf_printf(out, "%s%s", i ? " | " : "", clb_buf_str(&e));
    }
    clb_buf_free(&e);
    clb_buf_free(&text);
}

/* Fork gnuplot on `script` in the directory, its error output into `err`;
 * wait for it (killed and reaped by a signal meanwhile). */
static int spawn(const char *gp, const char *dir, const char *script, const char *err, int *st)
{
    pid_t pid = fork();
    if (pid < 0) {
        clb_seterr("cannot start gnuplot: %s", strerror(errno));
        return CLB_ESYS;
    }
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(126);
        int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int null = open("/dev/null", O_RDWR);
        if (fd < 0 || null < 0 || dup2(fd, 2) < 0 || dup2(null, 1) < 0 || dup2(null, 0) < 0)
            _exit(126);
        execl(gp, gp, script, (char *)NULL);
        _exit(127);
    }
    int child = clb_cleanup_child(pid);
    while (waitpid(pid, st, 0) < 0)
        if (errno != EINTR) {
            clb_cleanup_drop(child);
            clb_seterr("waiting for gnuplot: %s", strerror(errno));
            return CLB_ESYS;
        }
    clb_cleanup_drop(child);
    return CLB_OK;
}

int clb_gnuplot_run(const char *gp, const struct clb_plotdir *d, const char *script,
                    const char *what)
{
    /* the error file: the script's name with .err for .gp */
    size_t n = strlen(script);
    char *err = clb_asprintf("%.*s.err", (int)(n > 3 && !strcmp(script + n - 3, ".gp") ? n - 3 : n),
                             script);
    char *errpath = err ? clb_asprintf("%s/%s", d->path, err) : NULL;
    int st = 0, rc = errpath ? spawn(gp, d->path, script, err, &st) : CLB_ESYS;
    if (rc == CLB_OK && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
        struct clb_buf why = {0}, e = {0};
        error_lines(errpath, &why);
        if (!why.len && WIFSIGNALED(st))
            clb_buf_printf(&why, "gnuplot was killed by signal %d", WTERMSIG(st));
        else if (!why.len && WIFEXITED(st) && WEXITSTATUS(st) >= 126)
            clb_buf_printf(&why, "could not execute '%s'", cmp_esc_tmp(&e, gp, 0));
        else if (!why.len)
            clb_buf_printf(&why, "gnuplot exited with status %d", WEXITSTATUS(st));
        clb_seterr("gnuplot failed to draw '%s': %s", cmp_esc_tmp(&e, what, 0),
                   clb_buf_str(&why));
        clb_buf_free(&why);
        clb_buf_free(&e);
        rc = CLB_ESYS;
    }
    free(err);
    free(errpath);
    return rc;
}
