/* The summary table: every row of this run, then each workload's lines. */
#include "summary.h"

#include <string.h>

static void cell(char *buf, size_t n, double v, const char *fmt)
{
    if (isnan(v))
        clb_strlcpy(buf, "-", n);
    else
        snprintf(buf, n, fmt, v);
}

void clb_summary_print(const struct clb_row *rows, size_t n, const struct clb_workload **wls,
                       int nwl, FILE *out)
{
    if (n == 0)
        return;
    fprintf(out, "\n%-10s %-16s %-8s %-14s %-18s %10s %10s %9s %7s %10s  %s\n", "workload",
            "kernel", "dtype", "size", "params", "GB/s", "best GB/s", "GFlop/s", "%peak", "model",
            "status");
    for (size_t i = 0; i < n; i++) {
        const struct clb_row *r = &rows[i];
        char num[5][32];
        const double v[5] = {r->gbps, r->gbps_best, r->gflops, r->pct_peak_bw, r->model};
        for (int k = 0; k < 5; k++)
            cell(num[k], sizeof num[k], v[k], k == 3 ? "%.1f" : "%.2f");
        fprintf(out, "%-10s %-16s %-8s %-14s %-18s %10s %10s %9s %7s %10s  %s\n", r->workload,
                r->kernel, r->dtype, r->size, r->params, num[0], num[1], num[2], num[3], num[4],
                r->status);
    }
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
            wl->summarize(rows + first, k, out);
    }
}
