/* Progress: one counter over the whole invocation, exact from the first line
 * (every group of every device is planned before the first case), and an
 * ETA from each workload's own measured rate, printed only where one can be
 * made: a rate carried from one workload to another printed "ETA 22m55s"
 * for a 7 s run (docs/MEASURING.md, "Progress, summary, exit status"). */
#define _GNU_SOURCE
#include "comm.h"
#include "session.h"
#include "summary.h"

#include <stdlib.h>
#include <string.h>

int clb_progress_plan(struct run *run, int slot, long cases, double work)
{
    struct progress *p = &run->progress;
    if (CLB_GROW(p->g, p->ng, p->cap))
        return CLB_ESYS;
    while (slot >= p->nslot) {
        if (CLB_GROW(p->rate, p->nslot, p->rate_cap))
            return CLB_ESYS;
        p->rate[p->nslot++] = (struct progress_rate){0};
    }
    p->g[p->ng++] = (struct progress_group){slot, cases, work > 0 ? work : 0};
    run->total += cases;
    return CLB_OK;
}

void clb_progress_free(struct progress *p)
{
    free(p->g);
    free(p->rate);
    memset(p, 0, sizeof *p);
}

void clb_progress_start(struct run *run)
{
    run->progress.cur = -1;
    run->progress.t_last = clb_now();
}

void clb_progress_next_group(struct run *run)
{
    struct progress *p = &run->progress;
    if (p->cur >= 0)
        p->rate[p->g[p->cur].slot].groups++;
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

/* A workload's estimate for group g: seconds a case takes and the set-up a
 * group not started yet adds; 0 when there is none yet. */
static int estimate(const struct progress_rate *r, const struct progress_group *g, double *per_case,
                    double *setup)
{
    if (r->nn > 0) {   /* steady cases: their rate; the first cases' excess is the set-up */
        double rate = r->workn > 0 ? r->secn / r->workn : NAN;
        *per_case = !isnan(rate) && g->work > 0 ? rate * g->work : r->secn / (double)r->nn;
        double first = r->n1 > 0 ? r->sec1 / (double)r->n1 : 0;
        double steady = !isnan(rate) && r->n1 > 0 ? rate * r->work1 / (double)r->n1
                                                  : r->secn / (double)r->nn;
        *setup = fmax(0, first - steady);
        return 1;
    }
    if (r->groups > 0 && r->n1 > 0) {   /* groups of one case each: that case, set-up and all */
        *per_case = r->work1 > 0 && g->work > 0 ? r->sec1 / r->work1 * g->work
                                                : r->sec1 / (double)r->n1;
        *setup = 0;
        return 1;
    }
    return 0;
}

/* Seconds left by the workloads' own estimates; NAN when no remaining
 * workload can be estimated yet; *partial set when some cannot (the figure
 * is then a lower bound). */
static double eta_left(const struct run *run, int *partial)
{
    const struct progress *p = &run->progress;
    double eta = 0;
    int known = 0;
    *partial = 0;
    for (int i = p->cur < 0 ? 0 : p->cur; i < p->ng; i++) {
        const struct progress_group *g = &p->g[i];
        long left = g->cases - (i == p->cur ? p->cur_done : 0);
        double per_case, setup;
        if (left <= 0)
            continue;
        if (!estimate(&p->rate[g->slot], g, &per_case, &setup)) {
            *partial = 1;
            continue;
        }
        eta += (double)left * per_case + (i == p->cur && p->cur_done ? 0 : setup);
        known = 1;
    }
    return known ? eta : NAN;
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
        struct progress_rate *r = &p->rate[g->slot];
        if (measured && p->cur_done == 0) {
            r->sec1 += now - p->t_last;
            r->work1 += g->work;
            r->n1++;
        } else if (measured) {
            r->secn += now - p->t_last;
            r->workn += g->work;
            r->nn++;
        }
        p->cur_done += cases;
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

/* The row's own figure, as the summary shows it (clb_row_figure): its
 * main unit's rate, or the workload's metric (latency: ns per load, with
 * its staircase's label; launch: us). */
static void print_figure(const struct clb_group *g, const struct clb_row *r, enum clb_unit unit)
{
    const struct clb_figure *f = &g->wl->figure;
    const char *u;
    double v = clb_row_figure(g->wl, r, &u);
    if (!f->y_metric && unit == CLB_UNIT_GFLOPS && !isnan(r->gflops))
        fprintf(stderr, ": %.1f GFlop/s", r->gflops);
    else if (!f->y_metric && !isnan(r->gbps))
        fprintf(stderr, ": %.2f GB/s", r->gbps);
    else if (!isnan(v))
        fprintf(stderr, ": %.4g %s", v, f->kind == CLB_FIGURE_STAIRS && f->y_label ? f->y_label : u);
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
    if (clb_verbosity_now() < 1)
        return;
    fprintf(stderr, "[%ld/%ld] %s %s %s %s%s%s", run->done, run->total, g->wl->name, kernel,
            g->dtype, g->size_text, params[0] ? " " : "", params);
    print_figure(g, r, unit);
    if (run->mpi)
        fprintf(stderr, " (%d ranks)", clb_comm()->size);
    int ok = strcmp(r->status, "ok") == 0;
    fprintf(stderr, " %s%s%s", r->status, !ok && r->detail[0] ? ": " : "", ok ? "" : r->detail);
    int partial;
    double eta = eta_left(run, &partial);
    if (run->total > run->done && isfinite(eta) && eta >= 1) {   /* "ETA 0s" says nothing */
        char text[32];
        fmt_duration(text, sizeof text, eta);
        fprintf(stderr, "  ETA %s%s", partial ? ">" : "", text);
    }
    fputc('\n', stderr);
}
