/* The summary table: every row of this device's run, a block per workload,
 * each row on one line within the width a person reads (CLB_WIDTH, or the
 * terminal's), with its own figure in its own unit (GB/s, GFlop/s, a
 * latency's ns, a launch's us), the marks a user must see before trusting
 * it, then each workload's own lines, wrapped at words:
 *   C  cache-resident: the working set fits the last-level cache
 *   !  above 100 % of the profile's peak bandwidth (a cache, or a wrong peak)
 *   B  the same of a flop rate's counted bytes: it qualifies the bytes, and
 *      is not set as ! beside the rate
 *   ~  noisy: the slowest repetition took more than 1.25 x the fastest
 *   H  timed on the host clock: the device's events were not trusted (timer.c)
 *   X  impossible: above the profile's peak GFlop/s (measure.c); an error row
 * A block shows only the columns some of its rows fill; params last, those
 * at the workload's declared default left out (the results file has them
 * all); the legend names only the marks that occur, once. */
#define _GNU_SOURCE
#include "summary.h"
#include "core.h"

#include <stdlib.h>
#include <string.h>

unsigned clb_row_marks(const struct clb_row *r)
{
    unsigned m = 0;
    if (clb_row_flag(r, "cache_resident"))
        m |= CLB_MARK_CACHE;
    if (!isnan(r->pct_peak_bw) && r->pct_peak_bw > 100)
        m |= CLB_MARK_ABOVE_PEAK;
    if (!isnan(r->t_min_s) && r->t_min_s > 0 && r->t_max_s > CLB_NOISY_SPREAD * r->t_min_s)
        m |= CLB_MARK_NOISY;
    if (clb_row_flag(r, "timer_host"))
        m |= CLB_MARK_HOST_TIMER;
    if (clb_row_flag(r, "impossible"))
        m |= CLB_MARK_IMPOSSIBLE;
    return m;
}

/* The main unit of a row, as its workload counts it (GB/s when the count
 * cannot be made: a size or params the workload does not take). */
static enum clb_unit count_unit(const struct clb_workload *wl, const struct clb_row *r)
{
    struct clb_size size;
    char err[256];
    struct clb_kvlist kv = {0};
    struct clb_counts c = {0};
    int ok = wl->count && clb_parse_dims(r->size, wl->size_dims, &size, err, sizeof err) == 0 &&
             clb_params_parse(r->params, &kv) == CLB_OK;
    struct clb_query q = {r->kernel, r->dtype, &size, &kv, NULL};
    ok = ok && wl->count(&q, &c) == CLB_OK;
    clb_kvlist_free(&kv);
    return ok ? c.unit : CLB_UNIT_GBPS;
}

double clb_row_figure(const struct clb_workload *wl, const struct clb_row *r, const char **unit)
{
    if (wl && wl->figure.y_metric) {
        const struct clb_metric_def *d = clb_metric_def_of(wl->figure.y_metric);
        *unit = d && d->unit ? d->unit : wl->figure.y_unit ? wl->figure.y_unit : "";
        return clb_row_metric(r, wl->figure.y_metric);
    }
    if (wl && count_unit(wl, r) == CLB_UNIT_GFLOPS) {
        *unit = "GFlop/s";
        return r->gflops;
    }
    *unit = !wl && isnan(r->gbps) ? "GFlop/s" : "GB/s";
    return !wl && isnan(r->gbps) ? r->gflops : r->gbps;
}

/* A count as text: 2^k for a power of two, else the number. */
static void count_text(struct clb_buf *b, double n)
{
    int e;
    double m = frexp(n, &e);
    if (n >= 1024 && m == 0.5)
        clb_buf_printf(b, "2^%d", e - 1);
    else
        clb_buf_printf(b, "%.0f", n);
}

void clb_size_words(const struct clb_workload *wl, const char *size, struct clb_buf *out)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int plain = size[0] && size[0] != 'x' && !size[strspn(size, "0123456789x")];
    double n = plain && !strchr(size, 'x') ? strtod(size, NULL) : NAN;
    if (!wl || !plain) {
        clb_buf_printf(out, "%s", size);
    } else if (wl->size_in_bytes && !isnan(n)) {
        int u = 0;
        while (u < 4 && n >= 1024 && fmod(n, 1024) == 0)
            n /= 1024, u++;
        clb_buf_printf(out, "%.0f %s", n, unit[u]);
    } else if (!isnan(n)) {
        count_text(out, n);
        clb_buf_printf(out, " %s", wl->size_unit ? wl->size_unit : "elements");
    } else {
        clb_buf_printf(out, "%s %s", size,
                       wl->size_dims == 4 ? "lattice" : wl->size_unit ? wl->size_unit : "elements");
    }
}

/* The letters of a row's marks; a flop rate's byte count above the peak is B. */
static void flags(const struct clb_row *r, const char *unit, char *f)
{
    unsigned m = clb_row_marks(r);   /* CLB_MARK_CACHE .. CLB_MARK_IMPOSSIBLE: bits 0 .. 4 */
    int k = 0;
    for (int i = 0; i < 5; i++)
        if (m & (1u << i))
            f[k++] = (1u << i) == CLB_MARK_ABOVE_PEAK && strcmp(unit, "GB/s") ? 'B' : "C!~HX"[i];
    f[k] = 0;
}

/* The ratio a block shows: to the workload's figure baseline (transpose's
 * copy), else to its first declared baseline; its metric key (of_...). */
static void ratio_key(const struct clb_workload *wl, char *key, size_t n, char *head, size_t hn)
{
    key[0] = head[0] = 0;
    if (!wl || !wl->baselines)
        return;
    if (wl->figure.baseline) {
        snprintf(key, n, "of_%s", wl->figure.baseline);
        snprintf(head, hn, "x %s", wl->figure.baseline);
        return;
    }
    size_t len = strcspn(wl->baselines, ",");
    snprintf(head, hn, "x %.*s", (int)len, wl->baselines);
    /* "stream/copy" -> of_stream_copy; "<this workload>/copy" -> of_copy */
    const char *slash = memchr(wl->baselines, '/', len);
    if (!slash)
        return;
    size_t wn = (size_t)(slash - wl->baselines);
    if (wn == strlen(wl->name) && !strncmp(wl->baselines, wl->name, wn))
        snprintf(key, n, "of_%.*s", (int)(len - wn - 1), slash + 1);
    else
        snprintf(key, n, "of_%.*s_%.*s", (int)wn, wl->baselines, (int)(len - wn - 1), slash + 1);
}

/* A row's params without those at the workload's declared default. */
static void shown_params(const struct clb_workload *wl, const char *params, struct clb_buf *out)
{
    for (const char *p = params; *p;) {
        size_t n = strcspn(p, ","), k = strcspn(p, "=,");
        int dflt = 0;
        for (const struct clb_param_def *d = wl ? wl->params : NULL; d && d->key && k < n; d++)
            dflt |= strlen(d->key) == k && !strncmp(d->key, p, k) && d->def[0] &&
                    strlen(d->def) == n - k - 1 && !strncmp(d->def, p + k + 1, n - k - 1);
        if (!dflt)
            clb_buf_printf(out, "%s%.*s", out->len ? "," : "", (int)n, p);
        p += n + (p[n] == ',');
    }
}

static void num(char *buf, size_t n, double v, int digits)
{
    if (isnan(v))
        clb_strlcpy(buf, "-", n);
    else
        snprintf(buf, n, "%.*f", digits, v);
}

/* A figure with about four significant digits. */
static void figure_text(char *buf, size_t n, double v)
{
    double a = fabs(v);
    num(buf, n, v, a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 3 : 4);
}

/* One block: the rows [0, n) of one workload. */
struct cell {
    char fig[32], pct[16], model[32], ratio[16], flags[8];
    struct clb_buf params;
};

static void block(const struct clb_workload *wl, const struct clb_row *rows, size_t n, FILE *out,
                  unsigned *seen)
{
    struct cell *c = calloc(n + 1, sizeof *c);
    if (!c)
        return;
    char key[64], head[64];
    ratio_key(wl, key, sizeof key, head, sizeof head);
    const char *unit = "", *u;
    int mixed = 0, w[4] = {8, 6, 5, 4}, any_pct = 0, any_model = 0, any_ratio = 0, any_flag = 0;
    int wf = 6, wp = 5, wm = 5, wr = (int)strlen(head), wfl = 4, ws = 6;
    for (size_t i = 0; i < n; i++) {
        const struct clb_row *r = &rows[i];
        double v = clb_row_figure(wl, r, &u);
        if (!strcmp(r->status, "ok")) {   /* a row without a figure has no unit to show */
            mixed |= unit[0] && strcmp(u, unit);
            unit = u;
        }
        figure_text(c[i].fig, sizeof c[i].fig, v);
        num(c[i].pct, sizeof c[i].pct, r->pct_peak_bw, 1);
        figure_text(c[i].model, sizeof c[i].model, r->model);
        num(c[i].ratio, sizeof c[i].ratio, key[0] ? clb_row_metric(r, key) : NAN, 3);
        flags(r, u, c[i].flags);
        for (const char *f = c[i].flags; *f; f++)
            *seen |= 1u << (strchr("C!B~HX", *f) - "C!B~HX");
        shown_params(wl, r->params, &c[i].params);
        any_pct |= !isnan(r->pct_peak_bw);
        any_model |= !isnan(r->model);
        any_ratio |= key[0] && !isnan(clb_row_metric(r, key));
        any_flag |= c[i].flags[0] != 0;
        const char *t[4] = {r->workload, r->kernel, r->dtype, r->size};
        for (int k = 0; k < 4; k++)
            w[k] = (int)strlen(t[k]) > w[k] ? (int)strlen(t[k]) : w[k];
        wf = (int)strlen(c[i].fig) > wf ? (int)strlen(c[i].fig) : wf;
        wm = (int)strlen(c[i].model) > wm ? (int)strlen(c[i].model) : wm;
        ws = (int)strlen(r->status) > ws ? (int)strlen(r->status) : ws;
    }
    const char *fighead = mixed ? "figure" : unit;
    wf = (int)strlen(fighead) > wf ? (int)strlen(fighead) : wf;
    fprintf(out, "\n%-*s %-*s %-*s %-*s %*s%s", w[0], "workload", w[1], "kernel", w[2], "dtype",
            w[3], "size", wf, fighead, mixed ? " unit   " : "");
    if (any_pct)
        fprintf(out, " %*s", wp + 1, "%peak");
    if (any_model)
        fprintf(out, " %*s", wm, "model");
    if (any_ratio)
        fprintf(out, " %*s", wr, head);
    fprintf(out, " %-*s %-*s params\n", any_flag ? wfl : 0, any_flag ? "flag" : "", ws, "status");
    for (size_t i = 0; i < n; i++) {
        const struct clb_row *r = &rows[i];
        clb_row_figure(wl, r, &u);
        fprintf(out, "%-*s %-*s %-*s %-*s %*s", w[0], r->workload, w[1], r->kernel, w[2],
                r->dtype, w[3], r->size, wf, c[i].fig);
        if (mixed)
            fprintf(out, " %-7s", strcmp(r->status, "ok") ? "" : u);
        if (any_pct)
            fprintf(out, " %*s", wp + 1, c[i].pct);
        if (any_model)
            fprintf(out, " %*s", wm, c[i].model);
        if (any_ratio)
            fprintf(out, " %*s", wr, c[i].ratio);
        fprintf(out, " %-*s %-*s %s\n", any_flag ? wfl : 0, c[i].flags, ws, r->status,
                clb_buf_str(&c[i].params));
        clb_buf_free(&c[i].params);
    }
    free(c);
}

/* The marks that occurred, once, wrapped. */
static void legend(unsigned seen, FILE *out)
{
    static const char *const words[] = {
        "C cache-resident (working set < 4 x the last-level cache)",
        "! above 100 % of the peak bandwidth",
        "B a flop rate whose counted bytes exceed the peak bandwidth (a cache served part of "
        "them)",
        "~ noisy (slowest run > 1.25 x fastest)",
        "H timed on the host clock (device events not trusted)",
        "X impossible (above the peak GFlop/s)"};
    struct clb_buf b = {0};
    for (int k = 0; k < 6; k++)
        if (seen & (1u << k))
            clb_buf_printf(&b, "%s%s", b.len ? ", " : "flags: ", words[k]);
    if (b.len)
        clb_wrap(out, 0, 7, clb_buf_str(&b));
    clb_buf_free(&b);
}

/* A workload's own lines, wrapped at words to the width (each further line
 * indented two past the line's own indent). */
static void own_lines(const struct clb_summary_ctx *ctx, const struct clb_workload *wl,
                      const struct clb_row *rows, size_t n, FILE *out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        wl->summarize(ctx, rows, n, out);
        return;
    }
    wl->summarize(ctx, rows, n, mem);
    fclose(mem);
    for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        int ind = (int)strspn(line, " ");
        if (!line[ind])
            fputc('\n', out);
        else if ((int)strlen(line) <= clb_out_width(out))
            fprintf(out, "%s\n", line);
        else {
            fprintf(out, "%*s", ind, "");
            clb_wrap(out, ind, ind + 2, line + ind);
        }
    }
    free(text);
}

void clb_summary_print(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                       const struct clb_workload **wls, int nwl, FILE *out)
{
    unsigned seen = 0;
    for (size_t a = 0; a < n;) {   /* a block per workload (its rows are contiguous) */
        size_t b = a;
        while (b < n && !strcmp(rows[b].workload, rows[a].workload))
            b++;
        block(clb_workload_find(rows[a].workload), rows + a, b - a, out, &seen);
        a = b;
    }
    legend(seen, out);
    for (int w = 0; w < nwl; w++) {
        const struct clb_workload *wl = wls[w];
        if (!wl->summarize)
            continue;
        size_t a = 0, b;
        while (a < n && strcmp(rows[a].workload, wl->name))
            a++;
        for (b = a; b < n && !strcmp(rows[b].workload, wl->name); b++)
            ;
        if (b > a)
            own_lines(ctx, wl, rows + a, b - a, out);
    }
}
