/* Charts drawn (include/clb_chart.h, struct clb_drawn: the private directory,
 * files named by a chart's number only, one gnuplot for all, each alone when
 * that fails) on the scripts and data that chart_gnuplot.c made; the figures
 * read back for a page (clb_chart_svgs) or put in their files, all or none
 * (clb_chart_files). */
#include "clb_chart.h"
#include "clb_text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define GNUPLOT_HINT "install it with 'apt-get install gnuplot-nox'"

/* CLB_ESYS with "<what> '<path>': <why>" (the path escaped). */
static int path_error(const char *what, const char *path, const char *why)
{
    struct clb_buf e = {0};
    clb_seterr("%s '%s': %s", what, cmp_esc_tmp(&e, path, 0), why);
    clb_buf_free(&e);
    return CLB_ESYS;
}

char *clb_gnuplot_find(void)
{
    const char *env = getenv("CLBENCH_GNUPLOT");
    const char *name = env && *env ? env : "gnuplot";
    struct clb_buf e = {0};
    if (strchr(name, '/')) {
        if (access(name, X_OK) == 0)
            return clb_strdup(name);
        clb_seterr("gnuplot not found at '%s' (CLBENCH_GNUPLOT): %s", cmp_esc_tmp(&e, name, 0),
                   GNUPLOT_HINT);
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
               GNUPLOT_HINT);
    clb_buf_free(&e);
    return NULL;
}

/* ---- the directory ----------------------------------------------------------- */

struct plotdir {
    char *path;
    int *ids;            /* cleanup registrations */
    size_t nids, capids;
    int maxfig;          /* the highest chart number whose files are guarded */
};

static void guard(struct plotdir *d, const char *path)
{
    int id = path ? clb_cleanup_path(path) : -1;
    if (id >= 0 && CLB_GROW(d->ids, d->nids, d->capids) == 0)
        d->ids[d->nids++] = id;
    else
        clb_cleanup_drop(id);
}

/* The path of a file of the directory (malloc'd). */
static char *in_dir(const struct plotdir *d, const char *name)
{
    return clb_asprintf("%s/%s", d->path, name);
}

static const char *const fig_ext[] = {"gp", "dat", "peak.dat", "err", "svg", "png"};
#define NFIG_EXT (sizeof fig_ext / sizeof *fig_ext)

/* Each file of chart 1..d->maxfig and all.gp with its error output: removed
 * by a signal (guard) or by dir_close (unlink). */
static void each_file(struct plotdir *d, void (*fn)(struct plotdir *, const char *))
{
    char name[48];
    for (int w = 1; w <= d->maxfig; w++)
        for (size_t k = 0; k < NFIG_EXT; k++) {
            snprintf(name, sizeof name, "fig%d.%s", w, fig_ext[k]);
            char *p = in_dir(d, name);
            fn(d, p);
            free(p);
        }
    for (int k = 0; k < 2; k++) {
        char *p = in_dir(d, k ? "all.err" : "all.gp");
        fn(d, p);
        free(p);
    }
}

static void remove_file(struct plotdir *d, const char *path)
{
    (void)d;
    if (path)
        unlink(path);
}

static int dir_open(struct plotdir *d, int nfig)
{
    memset(d, 0, sizeof *d);
    clb_cleanup_guard();
    const char *root = getenv("TMPDIR");
    struct clb_buf b = {0};
    clb_buf_printf(&b, "%s/clbench-plot-XXXXXX", root && *root ? root : "/tmp");
    if (b.oom || !mkdtemp(b.s)) {
        int rc = path_error("cannot create a temporary directory", clb_buf_str(&b),
                            strerror(errno));
        clb_buf_free(&b);
        return rc;
    }
    d->path = b.s;
    guard(d, d->path);
    d->maxfig = nfig;
    each_file(d, guard);
    return CLB_OK;
}

static void dir_close(struct plotdir *d)
{
    if (d->path) {
        each_file(d, remove_file);
        rmdir(d->path);
    }
    for (size_t i = 0; i < d->nids; i++)
        clb_cleanup_drop(d->ids[i]);
    free(d->ids);
    free(d->path);
    memset(d, 0, sizeof *d);
}

/* Write a file of the directory (a name of its own: never one that exists). */
static int put(struct plotdir *d, const char *name, const struct clb_buf *b)
{
    char *p = in_dir(d, name);
    if (!p)
        return clb_oom();
    int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    int rc = fd >= 0 && !b->oom && clb_write_all(fd, clb_buf_str(b), b->len) == 0 ? CLB_OK
                                                                               : CLB_ESYS;
    if (fd >= 0 && close(fd) != 0)
        rc = CLB_ESYS;
    int err = errno;
    free(p);
    return rc ? path_error("cannot write to the temporary directory", d->path, strerror(err))
              : CLB_OK;
}

/* A chart's script and data as fig<index>.gp, .dat and .peak.dat. */
static int put_text(struct plotdir *d, int index, const struct clb_chart_text *t)
{
    const struct clb_buf *b[3] = {&t->script, &t->data, &t->peaks};
    int rc = CLB_OK;
    for (int k = 0; k < 3 && !rc; k++) {
        char name[48];
        snprintf(name, sizeof name, "fig%d.%s", index, fig_ext[k]);
        rc = put(d, name, b[k]);
    }
    return rc;
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
    const char *pick[3] = {0}, *last[3] = {0};
    int np = 0, nl = 0;
    for (char *line = text.s; line && *line;) {
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
        int cut = e.len > 300;   /* a display cap: the whole output is in no file we keep */
        clb_buf_printf(out, "%s%.*s%s", i ? " | " : "", cut ? 297 : (int)e.len, clb_buf_str(&e),
                       cut ? "..." : "");
    }
    clb_buf_free(&e);
    clb_buf_free(&text);
}

/* Fork gnuplot on `script` in the directory, its error output into `err`;
 * wait for it (killed and reaped by a signal meanwhile). */
static int spawn(const char *gp, const char *dir, const char *script, const char *err, int *st)
{
    pid_t pid = fork();
    if (pid < 0)
        return clb_err(CLB_ESYS, "cannot start gnuplot: %s", strerror(errno));
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
            return clb_err(CLB_ESYS, "waiting for gnuplot: %s", strerror(errno));
        }
    clb_cleanup_drop(child);
    return CLB_OK;
}

/* Run gnuplot on `script` (a file name in the directory, its working
 * directory). CLB_OK when it exits 0; else CLB_ESYS with "gnuplot failed to
 * draw '<what>': <its error lines>" (escaped, one line). */
static int run(const char *gp, const struct plotdir *d, const char *script, const char *what)
{
    /* the error file: the script's name with .err for .gp */
    size_t n = strlen(script);
    char *err = clb_asprintf("%.*s.err", (int)(n - 3), script);
    char *errpath = err ? in_dir(d, err) : NULL;
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

/* ---- drawing ------------------------------------------------------------------- */

static void set_why(struct clb_drawn *d, int rc, const char *why)
{
    if (!d->why) {
        d->why = clb_strdup(why);
        d->rc = rc;
    }
}

static int svg_name(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    return n > 4 && !strcmp(name + n - 4, ".svg");
}

/* Write every chart's script and data, and all.gp that loads each in turn
 * (gnuplot's settings reset between); how many were made in *made. */
static int write_charts(struct plotdir *dir, struct clb_drawn *d, size_t n, int mem,
                        size_t *made)
{
    struct clb_buf all = {0};
    int rc = CLB_OK;
    *made = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        struct clb_chart_text t;
        struct clb_chart_out o = {mem || svg_name(d[i].name), (int)i + 1};
        rc = clb_chart_gnuplot(d[i].c, &o, &t);
        if (rc == CLB_EUSAGE) {
            set_why(&d[i], rc, clb_lasterr());
            rc = CLB_OK;
            continue;
        }
        if (!rc)
            rc = put_text(dir, (int)i + 1, &t);
        clb_chart_text_free(&t);
        clb_buf_printf(&all, "reset\nload 'fig%zu.gp'\n", i + 1);
        (*made)++;
    }
    clb_buf_printf(&all, "unset output\n");
    if (!rc && *made > 1)
        rc = put(dir, "all.gp", &all);
    clb_buf_free(&all);
    return rc;
}

/* Draw d[0..n) in dir (SVG for a page, else as each file's name says): one
 * gnuplot for all, else each alone; d[i].why for one not drawn. */
static int draw(const char *gp, struct plotdir *dir, struct clb_drawn *d, size_t n, int mem)
{
    size_t made;
    int rc = write_charts(dir, d, n, mem, &made);
    if (rc || !made || (made > 1 && run(gp, dir, "all.gp", "the charts") == CLB_OK))
        return rc;
    for (size_t i = 0; i < n; i++) {
        char script[48];
        snprintf(script, sizeof script, "fig%zu.gp", i + 1);
        if (!d[i].why && run(gp, dir, script, d[i].name ? d[i].name : script) != CLB_OK)
            set_why(&d[i], CLB_ESYS, clb_lasterr());
    }
    return CLB_OK;
}

/* The file gnuplot drew for chart i (malloc'd path), NULL with d->why when
 * it wrote none. */
static char *drawn_path(const struct plotdir *dir, struct clb_drawn *d, size_t i, int svg)
{
    char name[48];
    snprintf(name, sizeof name, "fig%zu.%s", i + 1, svg ? "svg" : "png");
    char *p = in_dir(dir, name);
    struct stat sb;
    if (p && stat(p, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0)
        return p;
    free(p);
    struct clb_buf e = {0};
    clb_seterr("gnuplot failed to draw '%s': it wrote no figure",
               cmp_esc_tmp(&e, d->name ? d->name : name, 0));
    clb_buf_free(&e);
    set_why(d, CLB_ESYS, clb_lasterr());
    return NULL;
}

#define SVG_MAX ((size_t)64 << 20)   /* a figure larger than this is not read */

int clb_chart_svgs(const char *gp, struct clb_drawn *d, size_t n)
{
    struct plotdir dir;
    int rc = dir_open(&dir, (int)n);
    if (!rc)
        rc = draw(gp, &dir, d, n, 1);
    for (size_t i = 0; !rc && i < n; i++) {
        char *p = d[i].why ? NULL : drawn_path(&dir, &d[i], i, 1);
        d[i].svg = p ? clb_read_regular(p, "figure", SVG_MAX) : NULL;
        d[i].len = d[i].svg ? strlen(d[i].svg) : 0;
        if (p && !(d[i].svg && strstr(d[i].svg, "</svg>")))   /* one gnuplot did not finish */
            set_why(&d[i], CLB_ESYS, d[i].svg ? "gnuplot drew no complete figure" : clb_lasterr());
        if (d[i].why) {
            free(d[i].svg);
            d[i].svg = NULL;
        }
        free(p);
    }
    dir_close(&dir);
    return rc;
}

void clb_drawn_free(struct clb_drawn *d, size_t n)
{
    for (size_t i = 0; d && i < n; i++) {
        free(d[i].svg);
        free(d[i].why);
    }
}

/* ---- into files ------------------------------------------------------------------ */

/* Copy what gnuplot drew into the temporary file beside the destination. */
static int copy_out(const char *from, int out, const char *final)
{
    int in = open(from, O_RDONLY | O_CLOEXEC);
    int rc = in >= 0 ? CLB_OK : CLB_ESYS;
    char buf[1 << 16];
    for (ssize_t k; rc == CLB_OK && (k = read(in, buf, sizeof buf)) != 0;) {
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 || clb_write_all(out, buf, (size_t)k) != 0)
            rc = CLB_ESYS;
    }
    int err = errno;
    if (in >= 0)
        close(in);
    return rc ? path_error("cannot write", final, strerror(err)) : CLB_OK;
}

/* Each drawn figure into a temporary file beside its destination. */
static int beside(const struct plotdir *dir, struct clb_drawn *d, size_t n,
                  struct clb_replace *tmp)
{
    for (size_t i = 0; i < n; i++) {
        char *p = drawn_path(dir, &d[i], i, svg_name(d[i].name));
        if (!p)
            return CLB_ESYS;
        int rc = clb_output_ok(d[i].name, "--plot", "the figure");
        if (!rc && clb_replace_open(AT_FDCWD, d[i].name, 0666, &tmp[i]) != 0)
            rc = path_error("cannot write beside", d[i].name, strerror(errno));
        if (!rc)
            rc = copy_out(p, tmp[i].fd, d[i].name);
        free(p);
        if (rc)
            return rc;
    }
    return CLB_OK;
}

/* Rename every figure into place (keep), or remove every temporary file. */
static int put_in_place(struct clb_drawn *d, size_t n, struct clb_replace *tmp, int keep)
{
    int rc = CLB_OK;
    for (size_t i = 0; i < n; i++)   /* each in place, or removed: the first failure said */
        if (tmp[i].tmp && clb_replace_done(&tmp[i], d[i].name, keep && !rc, CLB_REPLACE) != 0 &&
            keep && !rc)
            rc = path_error("cannot write", d[i].name, strerror(errno));
    return rc;
}

int clb_chart_path_check(const char *out, int *svg)
{
    size_t n = strlen(out);
    const char *base = strrchr(out, '/');
    struct cmp_esc_args a = {0};
    int rc = CLB_OK;
    *svg = svg_name(out);
    if ((!*svg && !(n > 4 && !strcmp(out + n - 4, ".png"))) || strlen(base ? base + 1 : out) <= 4) {
        rc = clb_eusage("--plot '%s': the file name must end in .svg or .png",
                        cmp_esc_arg(&a, out, 0));
    } else if (clb_output_ok(out, "--plot", "the figure")) {
        rc = CLB_EUSAGE;
    } else {   /* its directory: "." when none, "/" for /x.svg */
        size_t dl = base ? (base == out ? 1 : (size_t)(base - out)) : 0;
        char *dir = dl ? clb_asprintf("%.*s", (int)dl, out) : clb_strdup(".");
        if (!dir)
            rc = CLB_ESYS;
        else if (access(dir, W_OK) != 0) {
            int err = errno;
            rc = clb_eusage("--plot '%s': cannot write to directory '%s': %s",
                            cmp_esc_arg(&a, out, 0), cmp_esc_arg(&a, dir, 0), strerror(err));
        }
        free(dir);
    }
    cmp_esc_args_free(&a);
    return rc;
}

int clb_chart_files(struct clb_drawn *d, size_t n)
{
    char *gp = clb_gnuplot_find();
    if (!gp)
        return clb_err(CLB_ESYS, "%s; no plot written", clb_lasterr());
    /* from here a signal removes what the plot made and ends gnuplot */
    struct plotdir dir;
    struct clb_replace *tmp = calloc(n + 1, sizeof *tmp);
    int rc = tmp ? dir_open(&dir, (int)n) : clb_oom();
    if (!rc)
        rc = draw(gp, &dir, d, n, 0);
    for (size_t i = 0; !rc && i < n; i++)
        if (d[i].why) {   /* the first not drawn says why */
            clb_seterr("%s", d[i].why);
            rc = d[i].rc;
        }
    if (!rc)
        rc = beside(&dir, d, n, tmp);
    if (tmp) {
        int r = put_in_place(d, n, tmp, !rc);
        rc = rc ? rc : r;
        dir_close(&dir);
    }
    free(tmp);
    free(gp);
    return rc;
}
