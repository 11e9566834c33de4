/* The summary table: every row of this device's run, with the marks a user
 * must see before trusting a figure, then each workload's own lines.
 *   C  cache-resident: the working set fits the last-level cache
 *   !  above 100 % of the profile's peak bandwidth (a cache, or a wrong peak)
 *   ~  noisy: the slowest repetition took more than 1.25 x the fastest
 *   H  timed on the host clock: the device's events were not trusted (timer.c)
 *   X  impossible: above the profile's peak GFlop/s (measure.c); an error row
 * Parameters are never cut inside a key: a long list wraps onto the next
 * lines at its commas. */
#include "summary.h"

#include <stdlib.h>
#include <string.h>

#define PARAMS_WIDTH 24

static void cell(char *buf, size_t n, double v, const char *fmt)
{
    if (isnan(v))
        clb_strlcpy(buf, "-", n);
    else
        snprintf(buf, n, fmt, v);
}

/* The of_* ratios of a row's metrics ("of_copy=0.980 of_stream_copy=0.930"); "" if none. */
static void ratios(const struct clb_row *r, struct clb_buf *out)
{
    const char *p = r->metrics, *why;
    struct clb_metric m;
    while (clb_metric_next(&p, &m, &why) == 1)
        if (m.klen > 3 && strncmp(m.key, "of_", 3) == 0 && !isnan(m.num))
            clb_buf_printf(out, "%s%.*s=%.3f", out->len ? " " : "", (int)m.klen, m.key, m.num);
}

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

static void flags(const struct clb_row *r, char *f)
{
    unsigned m = clb_row_marks(r);
    int k = 0;
    if (m & CLB_MARK_CACHE)
        f[k++] = 'C';
    if (m & CLB_MARK_ABOVE_PEAK)
        f[k++] = '!';
    if (m & CLB_MARK_NOISY)
        f[k++] = '~';
    if (m & CLB_MARK_HOST_TIMER)
        f[k++] = 'H';
    if (m & CLB_MARK_IMPOSSIBLE)
        f[k++] = 'X';
    f[k] = 0;
}

/* The next piece of a parameter list that fits the width, cut at a comma. */
static size_t params_piece(const char *p, size_t width)
{
    size_t n = strlen(p);
    if (n <= width)
        return n;
    size_t cut = 0;
    for (size_t i = 0; i < n && i <= width; i++)
        if (p[i] == ',')
            cut = i + 1;
    if (cut == 0) /* one key longer than the column: whole */
        cut = strcspn(p, ",") + (p[strcspn(p, ",")] == ',');
    return cut;
}

void clb_summary_print(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                       const struct clb_workload **wls, int nwl, FILE *out)
{
    if (n == 0)
        return;
    int wk = 8, wn = 6, wt = 5, ws = 4;
    for (size_t i = 0; i < n; i++) {
        int a = (int)strlen(rows[i].workload), b = (int)strlen(rows[i].kernel),
            c = (int)strlen(rows[i].dtype), d = (int)strlen(rows[i].size);
        wk = a > wk ? a : wk;
        wn = b > wn ? b : wn;
        wt = c > wt ? c : wt;
        ws = d > ws ? d : ws;
    }
    int any_flag = 0;
    fprintf(out, "\n%-*s %-*s %-*s %-*s %-*s %9s %9s %9s %6s %9s %-4s %-8s %s\n", wk, "workload",
            wn, "kernel", wt, "dtype", ws, "size", PARAMS_WIDTH, "params", "GB/s", "best GB/s",
            "GFlop/s", "%peak", "model", "flag", "status", "ratios");
    for (size_t i = 0; i < n; i++) {
        const struct clb_row *r = &rows[i];
        char num[5][32], f[8];
        const double v[5] = {r->gbps, r->gbps_best, r->gflops, r->pct_peak_bw, r->model};
        for (int k = 0; k < 5; k++)
            cell(num[k], sizeof num[k], v[k], k == 3 ? "%.1f" : "%.2f");
        flags(r, f);
        any_flag |= f[0] != 0;
        struct clb_buf rat = {0};
        ratios(r, &rat);
        const char *p = r->params;
        size_t piece = params_piece(p, PARAMS_WIDTH);
        fprintf(out, "%-*s %-*s %-*s %-*s %-*.*s %9s %9s %9s %6s %9s %-4s %-8s %s\n", wk,
                r->workload, wn, r->kernel, wt, r->dtype, ws, r->size, PARAMS_WIDTH, (int)piece,
                p, num[0], num[1], num[2], num[3], num[4], f, r->status, clb_buf_str(&rat));
        clb_buf_free(&rat);
        for (p += piece; *p; p += piece) {
            piece = params_piece(p, PARAMS_WIDTH);
            fprintf(out, "%*s %.*s\n", wk + wn + wt + ws + 3, "", (int)piece, p);
        }
    }
    if (any_flag)
        fprintf(out, "flags: C cache-resident (working set < 4 x last-level cache), ! above "
                     "100%% of the peak bandwidth, ~ noisy (slowest run > %.2f x fastest), H timed "
                     "on the host clock (device events not trusted), X impossible (above the "
                     "peak GFlop/s)\n", CLB_NOISY_SPREAD);
    for (int w = 0; w < nwl; w++) {
        const struct clb_workload *wl = wls[w];
        if (!wl->summarize)
            continue;
        size_t first = n, k = 0;
        for (size_t i = 0; i < n; i++)
            if (strcmp(rows[i].workload, wl->name) == 0) {
                if (first == n)
                    first = i;
                k++;
            }
        if (k)
            wl->summarize(ctx, rows + first, k, out);
    }
}
