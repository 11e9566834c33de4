/* clbench compare --plot: one figure per workload, drawn by gnuplot run as a
 * subprocess on data and a script written to a temporary directory. Each
 * figure is written under a temporary name beside its destination and renamed
 * only when every figure succeeded, so a failure leaves no partial file. */
#include "clb_compare.h"
#include "clbench.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define INSTALL_HINT "install it with 'apt-get install gnuplot-nox'"

/* A gnuplot single-quoted string: a quote is written twice. */
static void gp_str(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        if (*s != '\n')
            fputc(*s, f);
    }
    fputc('\'', f);
}

/* The gnuplot to run: $CLBENCH_GNUPLOT, else gnuplot on PATH. NULL and an
 * error message when it cannot be found. */
static const char *find_gnuplot(char *buf, size_t n)
{
    const char *env = getenv("CLBENCH_GNUPLOT");
    const char *name = env && *env ? env : "gnuplot";
    if (strchr(name, '/')) {
        if (access(name, X_OK) == 0)
            return name;
        clb_seterr("gnuplot not found at '%s' (CLBENCH_GNUPLOT): %s; no plot written", name,
                   INSTALL_HINT);
        return NULL;
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t len = strcspn(path, ":");
        snprintf(buf, n, "%.*s/%s", (int)len, path, name);
        if (len && access(buf, X_OK) == 0)
            return buf;
        path += len + (path[len] == ':');
    }
    clb_seterr("'%s' is not on PATH: %s to draw plots; no plot written", name, INSTALL_HINT);
    return NULL;
}

/* ---- one figure ------------------------------------------------------- */

struct fig {
    const struct cmp_table *t;
    const char *workload;
    int *lines, nlines;     /* indices of the workload's lines */
    int *cols, ncols;       /* columns with a figure for it */
    int svg;
    const char *dir;        /* temporary directory for data and script */
    const char *out;        /* the (temporary) figure file */
};

static int ncat_sizes(const struct fig *g)
{
    int n = 0;
    for (int i = 0; i < g->nlines; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= !strcmp(g->t->lines[g->lines[j]].size, g->t->lines[g->lines[i]].size);
        n += !seen;
    }
    return n;
}

/* The x axis of a sweep: 1 = a swept parameter, 2 = the size, 0 = bars. */
static int sweep_kind(const struct fig *g)
{
    int param = 0, allnum = 1;
    for (int i = 0; i < g->nlines; i++) {
        const struct cmp_line *l = &g->t->lines[g->lines[i]];
        if (l->sweep_key[0] && !isnan(l->sweep_num))
            param = 1;
        allnum &= !isnan(l->size_num);
    }
    if (param)
        return 1;
    return allnum && ncat_sizes(g) >= 3 ? 2 : 0;
}

static const char *sweep_key(const struct fig *g)
{
    for (int i = 0; i < g->nlines; i++)
        if (g->t->lines[g->lines[i]].sweep_key[0])
            return g->t->lines[g->lines[i]].sweep_key;
    return "parameter";
}

/* Values of very different magnitudes (an H100 beside a 2-core CPU) are
 * only readable on a log scale: switch to one above a ratio of 20. */
static void yscale(const struct fig *g, FILE *s)
{
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < g->nlines; i++)
        for (int c = 0; c < g->ncols; c++) {
            double v = cmp_value(g->t, g->lines[i], g->cols[c]);
            if (v > 0) {
                lo = fmin(lo, v);
                hi = fmax(hi, v);
            }
        }
    if (hi > 0 && hi >= 20 * lo)
        fprintf(s, "set logscale y 10\nset yrange [%.6g:*]\n", pow(10, floor(log10(lo))));
}

static const char *ylabel(const struct cmp_table *t, char *buf, size_t n)
{
    if (t->ref >= 0)
        snprintf(buf, n, "%s relative to %s", cmp_metric_name(t->metric), t->cols[t->ref].label);
    else if (t->metric == CMP_GBPS)
        snprintf(buf, n, "bandwidth, median time (GB/s)");
    else if (t->metric == CMP_GBPS_BEST)
        snprintf(buf, n, "bandwidth, best time (GB/s)");
    else
        snprintf(buf, n, "%s", cmp_metric_unit(t->metric));
    return buf;
}

/* The terminal goes last, just before "plot": its height grows with the
 * legend (one line per entry below the graph) so that the graph keeps its room. */
static void terminal(const struct fig *g, FILE *s, int entries)
{
    int h = 540 + 19 * entries;
    if (h > 1600)
        h = 1600;
    if (g->svg)
        fprintf(s, "set terminal svg size 960,%d dynamic noenhanced font 'Sans,12' "
                   "background rgb 'white'\n", h);
    else
        fprintf(s, "set terminal pngcairo size 960,%d noenhanced font 'Sans,11' "
                   "background rgb 'white'\n", h);
    fprintf(s, "set output ");
    gp_str(s, g->out);
    fputc('\n', s);
}

static void preamble(const struct fig *g, FILE *s, const char *what)
{
    char buf[640];
    fprintf(s, "set encoding utf8");
    fprintf(s, "\nset datafile separator tab\nset datafile missing 'NaN'\n");
    snprintf(buf, sizeof buf, "%s: %s", g->workload, what);
    fprintf(s, "set title ");
    gp_str(s, buf);
    fprintf(s, "\nset ylabel ");
    gp_str(s, ylabel(g->t, buf, sizeof buf));
    fprintf(s, "\nset grid ytics\nset key outside below left Left reverse maxcols 1\n"
               "set yrange [0:*]\n");
}

/* Peak bandwidth lines: each device's in its colour, where known. */
static int npeaks(const struct fig *g)
{
    const struct cmp_table *t = g->t;
    if (t->ref >= 0 || t->metric == CMP_GFLOPS)
        return 0;
    if (t->metric == CMP_PCT_PEAK)
        return 1;
    int n = 0;
    for (int c = 0; c < g->ncols; c++)
        n += !isnan(t->cols[g->cols[c]].peak_gbs);
    return n;
}

static void peaks(const struct fig *g, FILE *s)
{
    const struct cmp_table *t = g->t;
    if (t->ref >= 0)
        return;
    if (t->metric == CMP_PCT_PEAK) {
        fprintf(s, ", 100 with lines dt 2 lw 2 lc rgb 'black' title 'peak bandwidth'");
        return;
    }
    if (t->metric == CMP_GFLOPS)
        return;
    for (int c = 0; c < g->ncols; c++) {
        const struct cmp_col *col = &t->cols[g->cols[c]];
        if (isnan(col->peak_gbs))
            continue;
        char title[512];
        snprintf(title, sizeof title, "%s peak %.0f GB/s", col->label, col->peak_gbs);
        fprintf(s, ", %.6g with lines dt 2 lw 1.5 lc %d title ", col->peak_gbs, c + 1);
        gp_str(s, title);
    }
}

static void bar_label(const struct fig *g, const struct cmp_line *l, char *buf, size_t n)
{
    snprintf(buf, n, "%s %s", l->kernel, l->dtype);
    if (ncat_sizes(g) > 1)
        clb_appendf(buf, n, " %s", l->size);
    if (l->sweep[0])
        clb_appendf(buf, n, " %s", l->sweep);
    for (char *p = buf; *p; p++)
        if (*p == '\t' || *p == '"')
            *p = '\'';
}

/* Grouped bars: one group per kernel (and type), one bar per device. */
static int write_bars(const struct fig *g, FILE *s, FILE *d, const char *data)
{
    for (int i = 0; i < g->nlines; i++) {
        char label[320];
        bar_label(g, &g->t->lines[g->lines[i]], label, sizeof label);
        fprintf(d, "\"%s\"", label);
        for (int c = 0; c < g->ncols; c++) {
            double v = cmp_value(g->t, g->lines[i], g->cols[c]);
            fprintf(d, isnan(v) ? "\tNaN" : "\t%.6g", v);
        }
        fputc('\n', d);
    }
    fprintf(s, "set style data histograms\nset style histogram clustered gap 1\n"
               "set style fill solid 0.85 border -1\nset boxwidth 0.9\n"
               "set xtics rotate by -30 nomirror\nset xlabel 'kernel'\n");
    terminal(g, s, g->ncols + npeaks(g));
    fprintf(s, "plot ");
    for (int c = 0; c < g->ncols; c++) {
        fprintf(s, "%s", c ? ", " : "");
        gp_str(s, data);
        fprintf(s, " using %d%s lc %d title ", c + 2, c ? "" : ":xtic(1)", c + 1);
        gp_str(s, g->t->cols[g->cols[c]].label);
    }
    peaks(g, s);
    fputc('\n', s);
    return 0;
}

/* The swept values after the first (the x axis): "ilp=2 local=256". */
static const char *sweep_rest(const char *sweep)
{
    const char *sp = strchr(sweep, ' ');
    return sp ? sp + 1 : "";
}

/* Lines: one per device and kernel (type, size), x the swept value. */
static int write_lines(const struct fig *g, FILE *s, FILE *d, const char *data, int kind)
{
    const struct cmp_table *t = g->t;
    double xmin = INFINITY, xmax = -INFINITY;
    int block = 0, pow2 = 1;   /* vec=1,2,4,8: spaced evenly on a log2 axis */
    char plot[1 << 16] = "";
    const char *xkey = "";
    /* series = (column, kernel, dtype, size unless the size is the x axis) */
    char *done = calloc((size_t)g->nlines, 1);
    if (!done) {
        clb_seterr("out of host memory");
        return -1;
    }
    for (int c = 0; c < g->ncols; c++) {
        memset(done, 0, (size_t)g->nlines);
        for (int i = 0; i < g->nlines; i++) {
            if (done[i])
                continue;
            const struct cmp_line *a = &t->lines[g->lines[i]];
            int npoints = 0;
            for (int j = i; j < g->nlines; j++) {
                const struct cmp_line *b = &t->lines[g->lines[j]];
                if (done[j] || strcmp(a->kernel, b->kernel) || strcmp(a->dtype, b->dtype) ||
                    (kind == 1 && strcmp(a->size, b->size)) ||
                    strcmp(kind == 1 ? sweep_rest(a->sweep) : a->sweep,
                           kind == 1 ? sweep_rest(b->sweep) : b->sweep))
                    continue;
                done[j] = 1;
                double x = kind == 1 ? b->sweep_num : b->size_num;
                double y = cmp_value(t, g->lines[j], g->cols[c]);
                if (isnan(x) || isnan(y))
                    continue;
                if (kind == 1)
                    xkey = b->sweep_key;
                pow2 &= x >= 1 && x == floor(x) && ((long long)x & ((long long)x - 1)) == 0;
                xmin = fmin(xmin, x);
                xmax = fmax(xmax, x);
                fprintf(d, "%.10g\t%.6g\n", x, y);
                npoints++;
            }
            if (!npoints)
                continue;
            fprintf(d, "\n\n");
            char title[512];
            snprintf(title, sizeof title, "%s: %s %s", t->cols[g->cols[c]].label, a->kernel,
                     a->dtype);
            if (kind == 1 && ncat_sizes(g) > 1)
                clb_appendf(title, sizeof title, " %s", a->size);
            const char *rest = kind == 1 ? sweep_rest(a->sweep) : a->sweep;
            if (*rest)
                clb_appendf(title, sizeof title, " %s", rest);
            FILE *m = fmemopen(plot + strlen(plot), sizeof plot - strlen(plot), "w");
            if (m) {
                fprintf(m, "%s", block ? ", " : "");
                gp_str(m, data);
                /* colour = device; with one device, colour = series */
                fprintf(m, " index %d using 1:2 with linespoints lw 2 lc %d dt %d pt %d title ",
                        block, g->ncols > 1 ? c + 1 : block + 1, 1 + block % 5, 1 + block % 13);
                gp_str(m, title);
                fclose(m);
            }
            block++;
        }
    }
    free(done);
    if (!block) {
        clb_seterr("%s: nothing to plot", g->workload);
        return -1;
    }
    if (xmin > 0 && (xmax >= 16 * xmin || (pow2 && xmax >= 4 * xmin)))
        fprintf(s, "set logscale x 2\n");
    else if (xmax - xmin <= 16 && xmin == floor(xmin) && xmax == floor(xmax))
        fprintf(s, "set xtics 1\n");   /* rhs 1..5, partitions: whole numbers */
    fprintf(s, "set offsets graph 0.03, graph 0.03, 0, 0\n");
    if (pow2 && xmax >= 65536 && xmax >= 4 * xmin)
        fprintf(s, "set format x '2^%%L'\n");   /* 2^22, not 4.1943e+06 */
    else if (xmax >= 1e5)
        fprintf(s, "set format x '%%.3s%%c'\n");
    fprintf(s, "set xlabel ");
    char xl[96];
    snprintf(xl, sizeof xl, "%s", kind == 1 ? xkey : "problem size (elements)");
    gp_str(s, xl);
    fputc('\n', s);
    terminal(g, s, block + npeaks(g));
    fprintf(s, "plot %s", plot);
    peaks(g, s);
    fputc('\n', s);
    return 0;
}

/* Run gnuplot on a script; its first error line goes into the message. */
static int run_gnuplot(const char *gp, const char *script, const char *errpath, const char *out,
                       const char *final)
{
    pid_t pid = fork();
    if (pid < 0) {
        clb_seterr("cannot start gnuplot: %s", strerror(errno));
        return CLB_ESYS;
    }
    if (pid == 0) {
        FILE *e = freopen(errpath, "w", stderr);
        (void)e;
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execl(gp, gp, script, (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            clb_seterr("waiting for gnuplot: %s", strerror(errno));
            return CLB_ESYS;
        }
    struct stat sb;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && stat(out, &sb) == 0 && sb.st_size > 0)
        return CLB_OK;
    char line[256] = "";
    FILE *e = fopen(errpath, "r");
    if (e) {
        while (fgets(line, sizeof line, e))
            if (strstr(line, "rror") || strstr(line, "arning"))
                break;
        fclose(e);
    }
    line[strcspn(line, "\n")] = 0;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127 && !line[0])
        snprintf(line, sizeof line, "could not execute '%.200s'", gp);
    clb_seterr("gnuplot failed to draw '%s'%s%s", final, line[0] ? ": " : "", line);
    return CLB_ESYS;
}

static int draw(const struct fig *g, const char *gp, const char *tmpout, const char *final)
{
    char script[4096], data[4096], err[4096];
    /* A temporary directory name never comes near 4 KiB; checking keeps the
     * compiler's truncation analysis quiet and the paths honest. */
    if (snprintf(script, sizeof script, "%s/%s.gp", g->dir, g->workload) >= (int)sizeof script ||
        snprintf(data, sizeof data, "%s/%s.dat", g->dir, g->workload) >= (int)sizeof data ||
        snprintf(err, sizeof err, "%s/%s.err", g->dir, g->workload) >= (int)sizeof err) {
        clb_seterr("temporary path under '%s' is too long", g->dir);
        return CLB_ESYS;
    }
    struct fig gg = *g;
    gg.out = tmpout;
    g = &gg;
    FILE *s = fopen(script, "w"), *d = fopen(data, "w");
    if (!s || !d) {
        clb_seterr("cannot write to the temporary directory '%s': %s", g->dir, strerror(errno));
        if (s)
            fclose(s);
        if (d)
            fclose(d);
        return CLB_ESYS;
    }
    int kind = sweep_kind(g);
    char what[96];
    snprintf(what, sizeof what, "%s by %s",
             g->t->ref >= 0 ? "relative performance" : cmp_metric_unit(g->t->metric),
             kind == 1 ? sweep_key(g) : kind == 2 ? "problem size" : "kernel");
    preamble(g, s, what);
    yscale(g, s);
    int bad = kind ? write_lines(g, s, d, data, kind) : write_bars(g, s, d, data);
    int werr = ferror(s) || ferror(d);
    werr |= fclose(s) != 0;
    werr |= fclose(d) != 0;
    if (bad)
        return CLB_ESYS;
    if (werr) {
        clb_seterr("cannot write to the temporary directory '%s'", g->dir);
        return CLB_ESYS;
    }
    return run_gnuplot(gp, script, err, tmpout, final);
}

/* ---- all figures ------------------------------------------------------ */

/* OUT.svg for one workload; OUT-<workload>.svg for each of several. */
static void out_name(const char *out, const char *wl, int several, char *buf, size_t n)
{
    if (!several) {
        snprintf(buf, n, "%s", out);
        return;
    }
    const char *dot = strrchr(out, '.');
    snprintf(buf, n, "%.*s-%s%s", (int)(dot - out), out, wl, dot);
}

static int collect(struct fig *g, const struct cmp_table *t, const char *wl)
{
    g->nlines = g->ncols = 0;
    g->workload = wl;
    for (int i = 0; i < t->nlines; i++) {
        int any = 0;   /* a line of failed or skipped rows only has nothing to draw */
        for (int c = 0; c < t->ncols; c++)
            any |= !isnan(cmp_value(t, i, c));
        if (any && !strcmp(t->lines[i].workload, wl))
            g->lines[g->nlines++] = i;
    }
    for (int c = 0; c < t->ncols; c++) {
        int any = 0;
        for (int i = 0; i < g->nlines; i++)
            any |= !isnan(cmp_value(t, g->lines[i], c));
        if (any)
            g->cols[g->ncols++] = c;
    }
    if (!g->ncols) {
        clb_seterr("%s: no figure to plot for %s", wl,
                   t->ref >= 0 ? "--relative-to's column" : "any device");
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

static void remove_dir(const char *dir, const struct cmp_table *t)
{
    char p[4096];
    const char *ext[] = {"gp", "dat", "err"};
    for (int i = 0; i < t->nlines; i++)
        for (int k = 0; k < 3; k++) {
            if (snprintf(p, sizeof p, "%s/%s.%s", dir, t->lines[i].workload, ext[k]) < (int)sizeof p)
                unlink(p);
        }
    rmdir(dir);
}

int cmp_plot_check(const char *out, int *svg)
{
    size_t n = strlen(out);
    *svg = n > 4 && !strcmp(out + n - 4, ".svg");
    if (!*svg && !(n > 4 && !strcmp(out + n - 4, ".png"))) {
        clb_seterr("--plot '%s': the file name must end in .svg or .png", out);
        return CLB_EUSAGE;
    }
    const char *slash = strrchr(out, '/');
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - out) + (slash == out) : 1,
             slash ? out : ".");
    if (access(dir, W_OK) != 0) {
        clb_seterr("--plot '%s': cannot write to directory '%s': %s", out, dir, strerror(errno));
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

int cmp_plot(const struct cmp_table *t, const char *out)
{
    int svg, rc;
    if ((rc = cmp_plot_check(out, &svg)))
        return rc;
    char gpbuf[4096];
    const char *gp = find_gnuplot(gpbuf, sizeof gpbuf);
    if (!gp)
        return CLB_ESYS;
    /* the workloads, in table order */
    const char *wls[t->nlines];
    int nwl = 0;
    for (int i = 0; i < t->nlines; i++) {
        int seen = 0;
        for (int w = 0; w < nwl; w++)
            seen |= !strcmp(wls[w], t->lines[i].workload);
        if (!seen)
            wls[nwl++] = t->lines[i].workload;
    }
    const char *tmproot = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/clbench-plot-XXXXXX", tmproot && *tmproot ? tmproot : "/tmp");
    if (!mkdtemp(dir)) {
        clb_seterr("cannot create a temporary directory '%s': %s", dir, strerror(errno));
        return CLB_ESYS;
    }
    int lines[t->nlines], cols[t->ncols];
    char (*tmp)[4200] = calloc((size_t)nwl, sizeof *tmp);
    char (*fin)[4200] = calloc((size_t)nwl, sizeof *fin);
    struct fig g = {.t = t, .lines = lines, .cols = cols, .svg = svg, .dir = dir};
    int made = 0;
    rc = tmp && fin ? CLB_OK : CLB_ESYS;
    if (rc)
        clb_seterr("out of host memory");
    for (int w = 0; w < nwl && !rc; w++) {
        out_name(out, wls[w], nwl > 1, fin[w], sizeof fin[w]);
        const char *slash = strrchr(fin[w], '/');
        snprintf(tmp[w], sizeof tmp[w], "%.*s.%s.XXXXXX", slash ? (int)(slash - fin[w] + 1) : 0,
                 fin[w], slash ? slash + 1 : fin[w]);
        int fd = mkstemp(tmp[w]);
        if (fd < 0) {
            clb_seterr("cannot create '%s': %s", tmp[w], strerror(errno));
            rc = CLB_ESYS;
            break;
        }
        /* mkstemp makes the file private; a figure is an ordinary file */
        mode_t mask = umask(0);
        umask(mask);
        if (fchmod(fd, 0666 & ~mask) != 0)
            clb_debug("cannot set the mode of '%s'\n", tmp[w]);
        close(fd);
        made = w + 1;
        if (!(rc = collect(&g, t, wls[w])))
            rc = draw(&g, gp, tmp[w], fin[w]);
    }
    for (int w = 0; w < made; w++) {
        if (!rc && rename(tmp[w], fin[w]) != 0) {
            clb_seterr("cannot rename '%s' to '%s': %s", tmp[w], fin[w], strerror(errno));
            rc = CLB_ESYS;
        }
        if (rc)
            unlink(tmp[w]);
        else
            clb_info("plot: %s\n", fin[w]);
    }
    remove_dir(dir, t);
    free(tmp);
    free(fin);
    return rc;
}
