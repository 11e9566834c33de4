/* Progress: one counter over the whole invocation, exact from the first line
 * (every group of every device is planned before the first case), and an
 * ETA from each workload's own estimate (docs/MEASURING.md, "Progress").
 *
 * A group's work is its device footprint in bytes (its count). Once a
 * workload has finished cases on a device, a case of one of its groups is
 * expected to take that workload's seconds per byte of work times the
 * group's work: its own rate, from its first cases. A workload that has not
 * started yet takes the run's seconds per byte so far, but at least the
 * mean case of the cheapest workload measured (launch overheads, the
 * read-back and the check do not shrink with the size). */
#define _GNU_SOURCE
#include "comm.h"
#include "session.h"

#include <stdlib.h>
#include <string.h>

int clb_progress_plan(struct run *run, int slot, long cases, double work)
{
    struct progress *p = &run->progress;
    if (clb_grow((void **)&p->g, (size_t)p->ng, &p->cap, sizeof *p->g, 16))
        return CLB_ESYS;
    if (slot >= p->nslot) {
        int n = slot + 1;
        double *sec = realloc(p->sec, (size_t)n * sizeof *sec);
        if (sec)
            p->sec = sec;
        double *work_done = sec ? realloc(p->work, (size_t)n * sizeof *work_done) : NULL;
        if (work_done)
            p->work = work_done;
        long *cnt = work_done ? realloc(p->n, (size_t)n * sizeof *cnt) : NULL;
        if (!cnt)
            return CLB_ESYS;
        p->n = cnt;
        for (int k = p->nslot; k < n; k++)
            p->sec[k] = p->work[k] = 0, p->n[k] = 0;
        p->nslot = n;
    }
    p->g[p->ng++] = (struct progress_group){slot, cases, work > 0 ? work : 0};
    run->total += cases;
    return CLB_OK;
}

void clb_progress_free(struct progress *p)
{
    free(p->g);
    free(p->sec);
    free(p->work);
    free(p->n);
    memset(p, 0, sizeof *p);
}

void clb_progress_start(struct run *run)
{
    run->progress.cur = -1;
    run->t0 = run->progress.t_last = clb_now();
}

void clb_progress_next_group(struct run *run)
{
    struct progress *p = &run->progress;
    if (p->cur + 1 < p->ng)
        p->cur++;
    p->cur_done = 0;
    p->t_last = clb_now();
}

/* Set-up added another number of cases than the plan said (a workload's
 * plan() that does not match its setup(): the total moves, which the
 * progress test catches). */
void clb_progress_recount(struct run *run, const char *what, long cases)
{
    struct progress *p = &run->progress;
    if (p->cur < 0 || p->g[p->cur].cases == cases)
        return;
    clb_debug("progress: %s planned %ld configurations, its set-up added %ld\n", what,
              p->g[p->cur].cases, cases);
    run->total += cases - p->g[p->cur].cases;
    p->g[p->cur].cases = cases;
}

/* Seconds a case of group g is expected to take (see the top of the file). */
static double case_seconds(const struct progress *p, const struct progress_group *g)
{
    int k = g->slot;
    if (p->n[k] > 0)
        return p->work[k] > 0 && g->work > 0 ? p->sec[k] / p->work[k] * g->work
                                             : p->sec[k] / (double)p->n[k];
    double sec = 0, work = 0, cheapest = INFINITY;
    long n = 0;
    for (int j = 0; j < p->nslot; j++)
        if (p->n[j] > 0) {
            sec += p->sec[j];
            work += p->work[j];
            n += p->n[j];
            cheapest = fmin(cheapest, p->sec[j] / (double)p->n[j]);
        }
    if (n == 0)
        return NAN;
    if (!(work > 0) || !(g->work > 0))
        return sec / (double)n;
    return fmax(cheapest, sec / work * g->work);
}

double clb_progress_eta(const struct run *run)
{
    const struct progress *p = &run->progress;
    if (p->cur < 0)
        return NAN;
    double eta = 0;
    for (int i = p->cur; i < p->ng; i++) {
        long left = p->g[i].cases - (i == p->cur ? p->cur_done : 0);
        if (left > 0)
            eta += (double)left * case_seconds(p, &p->g[i]);
    }
    return eta;
}

/* `cases` configurations of the running group are done: one measured case
 * (its wall time since the last one counts toward its workload's rate), or
 * the rest of the group as one row (skipped, or an error before any case:
 * not a rate). */
static void advance(struct run *run, long cases, int measured)
{
    struct progress *p = &run->progress;
    double now = clb_now();
    run->done += cases;
    if (p->cur >= 0) {
        const struct progress_group *g = &p->g[p->cur];
        p->cur_done += cases;
        if (measured) {
            p->sec[g->slot] += now - p->t_last;
            p->work[g->slot] += g->work;
            p->n[g->slot]++;
        }
    }
    p->t_last = now;
}

static void fmt_duration(char *buf, size_t n, double s)
{
    if (s < 60)
        snprintf(buf, n, "%.0fs", s);
    else if (s < 3600)
        snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)s % 60);
    else
        snprintf(buf, n, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
}

/* The row's figure in its main unit; a row without a rate shows the
 * workload's own figure (the y of its staircase: latency's ns per load). */
static void print_figure(const struct clb_group *g, const struct clb_row *r, enum clb_unit unit)
{
    const struct clb_figure *f = &g->wl->figure;
    if (!isnan(r->gflops) && unit == CLB_UNIT_GFLOPS)
        fprintf(stderr, ": %.1f GFlop/s", r->gflops);
    else if (!isnan(r->gbps))
        fprintf(stderr, ": %.2f GB/s", r->gbps);
    else if (f->kind == CLB_FIGURE_STAIRS && f->y_metric && !isnan(clb_row_metric(r, f->y_metric)))
        fprintf(stderr, ": %.4g %s", clb_row_metric(r, f->y_metric), f->y_label);
}

/* "[37/253] transpose best float 8192x8192 best=64x4v4: 2831.20 GB/s ok  ETA 1m40s".
 * A group row stands for every planned case of its group that is left.
 * Under MPI, rank 0 shows the job's figures. */
void clb_progress(struct session *s, const struct clb_group *g, const char *kernel,
                  const char *params, const struct clb_row *r, enum clb_unit unit, int group_row)
{
    struct run *run = s->run;
    const struct progress *p = &run->progress;
    long cases = 1;
    if (group_row && p->cur >= 0 && p->g[p->cur].cases - p->cur_done > 1)
        cases = p->g[p->cur].cases - p->cur_done;
    advance(run, cases, !group_row);
    if (run->done > run->total)
        run->total = run->done;
    if (clb_verbosity < 1)
        return;
    fprintf(stderr, "[%ld/%ld] %s %s %s %s%s%s", run->done, run->total, g->wl->name, kernel,
            g->dtype, g->size_text, params[0] ? " " : "", params);
    print_figure(g, r, unit);
    if (run->mpi)
        fprintf(stderr, " (%d ranks)", clb_comm()->size);
    int ok = strcmp(r->status, "ok") == 0;
    fprintf(stderr, " %s%s%s", r->status, !ok && r->detail[0] ? ": " : "", ok ? "" : r->detail);
    double eta = clb_progress_eta(run);
    if (run->total > run->done && isfinite(eta)) {
        char text[32];
        fmt_duration(text, sizeof text, eta);
        fprintf(stderr, "  ETA %s", text);
    }
    fputc('\n', stderr);
}
