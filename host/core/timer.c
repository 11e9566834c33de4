/* Is the device's event timer to be trusted? Some drivers answer every
 * profiling query with constants (Mesa Rusticl 22.3 on llvmpipe), and a
 * figure computed from them is not a measurement. The checks at device open
 * (the launch overhead; a long kernel's events against the host clock) and
 * after every case's timed runs (clb_timer_check), and why "far below the
 * wall" counts only for long runs: docs/MEASURING.md "Timers". An untrusted
 * timer makes every later kernel of the run timed on the host clock, said in
 * each row. */
#include "timer.h"
#include "clb_stats.h"
#include "clb_workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PROBE_TARGET_S 0.005   /* the long kernel's wall */
#define PROBE_BUDGET_S 3.0     /* the most time spent growing it */
/* 2 warm-up + LAUNCH_RUNS + GROW_LAUNCHES + PROBE_RUNS launches in all:
 * tests/fault/rel_lib.sh's TIMER_LAUNCHES counts them */
#define PROBE_RUNS 3           /* runs of the long kernel; the best agreement counts */
#define GROW_LAUNCHES 6        /* launches that grow it (x64 at most each) */
#define LAUNCH_RUNS 15         /* empty launches for the overhead */
#define SPIN_STEPS 8192        /* steps a work-item (timer.cl) */
#define SPIN_MAX_ITEMS ((size_t)1 << 28)
#define ABOVE_FACTOR 1.02      /* events may exceed the wall by 2 % + resolution + ABOVE_SLACK_S */
#define ABOVE_SLACK_S 10e-6
#define PROBE_BELOW 0.1        /* a long kernel's events >= a tenth of its wall minus the overhead */
#define CASE_BELOW 1e-3        /* a long case's events >= 1/1000 of its wall minus the overheads */
#define CASE_LONG_S 1e-3       /* a case is long when its median run takes this long ... */
#define CASE_LONG_LAUNCHES 20  /* ... and this many launch overheads */
/* ... and only events that read next to nothing: a run of the 2-core CI
 * machine under load once took 132 ms of host wall for a kernel whose
 * healthy events read 123 us (1/1000): a stall of the host, not a false
 * timer. Rusticl's read 1 ns a run. */
#define CASE_TINY_S 1e-6

/* One launch of `items` spin work-items of `steps` steps each: its events
 * and its host wall between two clFinish. */
static int spin(struct clb_device *d, cl_kernel k, cl_mem out, size_t items, cl_uint steps,
                double *ev, double *wall)
{
    int rc = clb_args(k, sizeof out, &out, sizeof steps, &steps, (size_t)0);
    if (rc)
        return rc;
    CLB_CHECK(clFinish(d->queue), "clFinish");
    cl_event e;
    /* work-groups of one: every device runs them, and one launch shape is
     * compiled once (PoCL compiles a kernel for each) */
    size_t one = 1;
    double t0 = clb_now();
    if ((rc = clb_launch(d, k, 1, &items, &one, &e)))
        return rc;
    cl_int err = clFinish(d->queue);
    *wall = clb_now() - t0;
    if (err != CL_SUCCESS) {
        clReleaseEvent(e);
        CLB_CHECK(err, "clFinish");
    }
    /* the event is complete: read it without a wait (a fixed count of
     * clWaitForEvents calls, see long_runs) */
    cl_ulong start = 0, end = 0;
    err = clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    clReleaseEvent(e);
    CLB_CHECK(err, "clGetEventProfilingInfo");
    *ev = end > start ? (double)(end - start) * 1e-9 : 0.0;
    return rc;
}

/* The median host wall of an empty launch (the first two warm up: PoCL
 * compiles a kernel for its launch shape at the first launch). */
static int launch_overhead(struct clb_device *d, cl_kernel k, cl_mem out)
{
    double w[LAUNCH_RUNS], ev;
    for (int i = -2; i < LAUNCH_RUNS; i++) {
        int rc = spin(d, k, out, 1, 0, &ev, &w[i < 0 ? 0 : i]);
        if (rc)
            return rc;
    }
    d->launch_s = clb_median(w, LAUNCH_RUNS); /* odd: the middle run */
    return CLB_OK;
}

/* Grow the work-item count until one launch takes PROBE_TARGET_S and five
 * launch overheads (or the budget is spent), then time PROBE_RUNS launches.
 * Always GROW_LAUNCHES launches to grow, whatever the device's speed: the
 * fault-injection tests aim at the Nth call of a function, and the check's
 * share of the calls must not depend on timing. */
static int long_runs(struct clb_device *d, cl_kernel k, cl_mem out, double *ev, double *wall)
{
    double t0 = clb_now(), e, w = 0;
    double target = fmax(PROBE_TARGET_S, 5 * d->launch_s);
    size_t items = 16;
    for (int i = 0; i < GROW_LAUNCHES; i++) {
        int rc = spin(d, k, out, items, SPIN_STEPS, &e, &w);
        if (rc)
            return rc;
        if (w >= target || clb_now() - t0 > PROBE_BUDGET_S)
            continue;
        double f = w > 0 ? 1.25 * target / w : 64;
        f = f < 2 ? 2 : f > 64 ? 64 : f;
        items = (size_t)fmin((double)items * f, (double)SPIN_MAX_ITEMS);
    }
    for (int i = 0; i < PROBE_RUNS; i++) {
        int rc = spin(d, k, out, items, SPIN_STEPS, &ev[i], &wall[i]);
        if (rc)
            return rc;
    }
    return CLB_OK;
}

/* The rules every check shares: zero, below the resolution, above the wall. */
static int basic_rules(const struct clb_device *d, double ev, double wall, struct clb_buf *why)
{
    double res = d->info.timer_res_s;
    if (!(ev > 0)) {
        clb_buf_printf(why, "an event read %.3g ns for a run the host clock timed at %.3g us",
                       ev * 1e9, wall * 1e6);
        return 1;
    }
    if (res > 0 && ev < res) {
        clb_buf_printf(why, "an event read %.3g ns, below the timer's resolution (%.3g ns)",
                       ev * 1e9, res * 1e9);
        return 1;
    }
    if (ev > ABOVE_FACTOR * wall + res + ABOVE_SLACK_S) {
        clb_buf_printf(why, "events read %.4g us for a run the host clock timed at %.4g us "
                       "(it cannot take longer)", ev * 1e6, wall * 1e6);
        return 1;
    }
    return 0;
}

/* The long kernel: the run that agrees best decides (a loaded host delays a
 * clFinish's return, never the device's own clock). The "far below" rule
 * needs runs long beside the launch overhead: a kernel the budget could not
 * make long is judged by the other rules only. */
static int probe_verdict(const struct clb_device *d, const double *ev, const double *wall,
                         struct clb_buf *why)
{
    int best = 0;
    double best_ratio = -1, w[PROBE_RUNS];
    for (int i = 0; i < PROBE_RUNS; i++) {
        if (basic_rules(d, ev[i], wall[i], why))
            return 1;
        double ratio = ev[i] / fmax(wall[i] - d->launch_s, 1e-9);
        if (ratio > best_ratio) {
            best_ratio = ratio;
            best = i;
        }
        w[i] = wall[i];
    }
    double med = clb_median(w, PROBE_RUNS); /* odd: the middle run */
    if (med - d->launch_s >= CASE_LONG_S && best_ratio < PROBE_BELOW) {
        clb_buf_printf(why, "events read %.4g us for a kernel the host clock timed at %.4g us "
                       "(launch overhead %.3g us)", ev[best] * 1e6, wall[best] * 1e6,
                       d->launch_s * 1e6);
        return 1;
    }
    return 0;
}

int clb_timer_probe(struct clb_device *d)
{
    cl_kernel k = NULL;
    cl_mem out = NULL;
    int rc = clb_core_kernel(d, "timer", "spin", &k);
    if (!rc)
        rc = clb_buffer(d, CL_MEM_WRITE_ONLY, sizeof(cl_uint), &out);
    double ev[PROBE_RUNS], wall[PROBE_RUNS];
    if (!rc)
        rc = launch_overhead(d, k, out);
    if (!rc)
        rc = long_runs(d, k, out, ev, wall);
    clb_release_kernels(&k, 1);
    clb_release_mems(&out, 1);
    if (rc)
        return rc;
    struct clb_buf why = {0};
    if (probe_verdict(d, ev, wall, &why))
        clb_timer_distrust(d, clb_buf_str(&why));
    else
        clb_debug("timer: events %.4g ms for a kernel the host clock timed at %.4g ms "
                  "(launch overhead %.3g us, resolution %.3g ns): trusted\n", ev[0] * 1e3,
                  wall[0] * 1e3, d->launch_s * 1e6, d->info.timer_res_s * 1e9);
    clb_buf_free(&why);
    return CLB_OK;
}

int clb_timer_check(const struct clb_device *d, const double *ev, const double *wall, int n,
                    struct clb_buf *why)
{
    double sev = 0, swall = 0;
    for (int i = 0; i < n; i++) {
        if (basic_rules(d, ev[i], wall[i], why))
            return 1;
        sev += ev[i];
        swall += wall[i];
    }
    if (n < 1 || isnan(d->launch_s))
        return 0;
    double *w = malloc((size_t)n * sizeof *w);
    if (!w)
        return 0; /* the per-run rules held; the long-run rule needs the median */
    memcpy(w, wall, (size_t)n * sizeof *w);
    clb_sort_doubles(w, (size_t)n);
    double med = w[n / 2];
    free(w);
    double busy = swall - n * d->launch_s;
    int tiny = sev < CASE_BELOW * busy && sev < n * CASE_TINY_S;
    if (med >= CASE_LONG_S && med >= CASE_LONG_LAUNCHES * d->launch_s && tiny) {
        clb_buf_printf(why, "events read %.4g us for %d runs the host clock timed at %.4g us",
                       sev * 1e6, n, swall * 1e6);
        return 1;
    }
    return 0;
}

void clb_timer_distrust(struct clb_device *d, const char *why)
{
    if (d->timer_host)
        return;
    d->timer_host = 1;
    free(d->timer_why);
    d->timer_why = clb_strdup(why);
}

void clb_timer_note(const struct clb_device *d, struct clb_buf *detail)
{
    clb_buf_printf(detail, "%stimer=host (%s); host clock between two clFinish", detail->len ? "; " : "",
                   d->timer_why ? d->timer_why : "device events not trusted");
    if (!isnan(d->launch_s))
        clb_buf_printf(detail, ", launch overhead %.3g us a launch included", d->launch_s * 1e6);
}
