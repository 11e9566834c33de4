/* Every-rank mode (docs/SCALING.md): under MPI all ranks run the same
 * configurations in lockstep. Each step that can fail ends in an agreement
 * (an allreduce of the worst outcome) before any rank may block in the next
 * collective, so one rank's OpenCL error, failed validation or signal ends
 * the case (or the job) on every rank at once, never in a deadlock. Rank 0
 * writes every rank's row and one aggregate row per configuration: bytes
 * and flops summed, each repetition as long as the slowest rank's. */
#define _GNU_SOURCE
#include "comm.h"
#include "session.h"

#include <stdlib.h>
#include <string.h>

/* Worse outcomes are larger. */
static const int severity[] = {
    [CLB_OK] = 0, [CLB_SKIP] = 1, [CLB_FAIL] = 2, [CLB_ECL] = 3,
    [CLB_ESYS] = 4, [CLB_EUSAGE] = 5, [CLB_EINTR] = 6,
};
static const int from_severity[] = {CLB_OK, CLB_SKIP, CLB_FAIL, CLB_ECL, CLB_ESYS, CLB_EUSAGE,
                                    CLB_EINTR};

/* The message of the first rank whose outcome was the agreed one, with its
 * rank, host and device named, becomes everybody's message. */
static void take_message(struct session *s, int mine, int agreed)
{
    char *text = NULL;
    if (mine == agreed && agreed != CLB_OK)
        text = clb_asprintf("rank %d (%s, %s): %s", clb_comm()->rank, s->run->host,
                            s->dev.info.name, clb_lasterr());
    char **all = clb_comm_gather_text(text ? text : "");
    free(text);
    char *first = NULL;
    for (int i = 0; all && clb_comm()->rank == 0 && i < clb_comm()->size && !first; i++)
        if (all[i][0])
            first = clb_strdup(all[i]);
    clb_comm_free_texts(all);
    if (clb_comm()->rank == 0 && !first)
        first = clb_strdup("(no message)");
    clb_comm_bcast_text(&first, 0);
    if (first)
        clb_seterr("%s", first);
    free(first);
}

/* ---- the ranks tune alike ------------------------------------------------- */

/* A round: {probing, time, rank 0's value}, each the ranks' maximum. */
enum { R_PROBING, R_TIME, R_FROM0, R_N };

int clb_job_probe_time(double *t)
{
    if (!clb_comm_active())
        return CLB_OK;
    double v[R_N] = {1, *t, -INFINITY};
    int rc = clb_comm_probe_round(v, R_N);
    if (rc == CLB_OK)
        *t = v[R_TIME];
    return rc;
}

int clb_job_probe_decide(double *x)
{
    if (!clb_comm_active())
        return CLB_OK;
    double v[R_N] = {1, -INFINITY, clb_comm()->rank == 0 ? *x : -INFINITY};
    int rc = clb_comm_probe_round(v, R_N);
    if (rc == CLB_OK && v[R_FROM0] > -INFINITY) /* else rank 0 has left the step */
        *x = v[R_FROM0];
    return rc;
}

static int probe_drain(void)
{
    if (!clb_comm_active())
        return CLB_OK;
    for (;;) {
        double v[R_N] = {0, -INFINITY, -INFINITY};
        int rc = clb_comm_probe_round(v, R_N);
        if (rc || v[R_PROBING] == 0)
            return rc;
    }
}

/* The worst outcome of the ranks, and with a repetition's (rep) the slowest
 * rank's time *t and seconds *spent; an agreement outside a repetition ends
 * the probes' rounds first. */
static int agree(struct session *s, int rc, int rep, double *t, double *spent)
{
    if (!s->run->mpi)
        return rc;
    if (clb_signal && rc == CLB_OK)
        rc = CLB_EINTR;
    double v[3] = {severity[rc], rep && !isnan(*t) ? *t : 0, rep ? *spent : 0};
    if ((!rep && probe_drain() != CLB_OK) ||
        clb_comm_allreduce(v, rep ? 3 : 1, CLB_MAX) != CLB_OK) {
        clb_comm_abort(CLB_EXIT_ERROR); /* the job cannot agree on anything more */
        return CLB_ESYS;
    }
    if (rep) {
        *t = v[1];
        *spent = v[2];
    }
    int agreed = from_severity[(int)v[0]];
    if (agreed != CLB_OK && agreed != CLB_EINTR)
        take_message(s, rc, agreed);
    if (agreed == CLB_EINTR)
        clb_signal = clb_signal ? clb_signal : SIGINT; /* every rank stops */
    return agreed;
}

int clb_agree(struct session *s, int rc) { return agree(s, rc, 0, NULL, NULL); }

int clb_agree_rep(struct session *s, int rc, double *t, double *spent)
{
    return agree(s, rc, 1, t, spent);
}

/* One name for the job's devices (or hosts): the common one, else "N kinds". */
static const char *common(struct session *s, const char *mine, const char *what)
{
    char **all = clb_comm_gather_text(mine);
    char *name = NULL;
    if (all && clb_comm()->rank == 0) {
        int same = 1;
        for (int i = 1; i < clb_comm()->size; i++)
            same &= strcmp(all[i], all[0]) == 0;
        name = same ? clb_strdup(all[0]) : clb_asprintf("%d %s", clb_comm()->size, what);
    }
    clb_comm_free_texts(all);
    const char *kept = name ? clb_keep(s, name) : "";
    free(name);
    return kept;
}

/* A row's params without the keys that are each rank's own by design
 * (per_rank: a part of a split lattice). Items are comma-separated. */
static char *shared_params(const struct clb_workload *wl, const char *params)
{
    struct clb_buf b = {0};
    for (const char *p = params; *p;) {
        size_t len = strcspn(p, ","), kl = strcspn(p, "=,");
        char *key = clb_asprintf("%.*s", (int)kl, p);
        if (key && !clb_param_per_rank(wl, key))
            clb_buf_printf(&b, "%s%.*s", b.len ? "," : "", (int)len, p);
        free(key);
        p += len + (p[len] == ',');
    }
    if (b.oom || !b.s) {
        clb_buf_free(&b);
        return clb_strdup("");
    }
    return b.s;
}

/* Did every rank run the case with the same params (its tuning included,
 * its own part of a split problem not)? Rank 0 knows; the first difference
 * goes to the summary. */
static int alike(struct session *s, const struct clb_group *g, const struct clb_row *mine)
{
    char *shared = shared_params(g->wl, mine->params);
    char **all = clb_comm_gather_text(shared ? shared : "");
    free(shared);
    int same = 1, other = 0;
    for (int i = 1; all && clb_comm()->rank == 0 && i < clb_comm()->size && same; i++)
        if (strcmp(all[i], all[0]))
            same = 0, other = i;
    if (!same && !s->nunlike++)
        clb_buf_printf(&s->unlike, "%s %s %s %s: rank 0 %s, rank %d %s", mine->workload,
                       mine->kernel, mine->dtype, mine->size, all[0], other, all[other]);
    clb_comm_free_texts(all);
    return same;
}

int clb_aggregate_row(struct session *s, const struct clb_row *mine, struct clb_env *env,
                      struct clb_group *g, struct clb_case *c, const struct timed *tm,
                      struct clb_row *agg)
{
    *agg = *mine;
    /* an aggregate sums only ranks that ran one configuration: else none
     * (rank NULL: rows.c counts the outcome and writes no row) */
    agg->rank = alike(s, g, mine) ? "all" : NULL;
    agg->ranks = clb_comm()->size;
    agg->host = common(s, s->run->host, "hosts");
    agg->device = common(s, s->dev.info.name, "devices");
    /* bytes, flops and energy of the whole job */
    double sums[4] = {isnan(mine->bytes) ? 0 : mine->bytes, isnan(mine->flops) ? 0 : mine->flops,
                      isnan(tm->joules) ? 0 : tm->joules, isnan(tm->joules) ? 1 : 0};
    if (clb_comm_allreduce(sums, 4, CLB_SUM))
        return CLB_ESYS;
    if (!isnan(mine->bytes)) {
        agg->bytes = sums[0];
        agg->flops = mine->flops > 0 || sums[1] > 0 ? sums[1] : mine->flops;
        clb_fill_figures(s, agg, env, g, c, tm->agg, tm->n, &s->agg);
        if (sums[3] == 0 && s->energy) { /* every rank read its energy */
            agg->energy_j = sums[2];
            agg->avg_power_w = tm->wall > 0 ? sums[2] / tm->wall : NAN;
            agg->power_source = clb_energy_source(s->energy);
        }
    }
    agg->detail = clb_keep(s, clb_buf_str(&c->detail));
    agg->metrics = clb_keep(s, clb_buf_str(&c->metrics));
    return CLB_OK;
}

int clb_share_plan(struct run *run, char **plan_text)
{
    if (!run->mpi)
        return CLB_OK;
    return clb_comm_bcast_text(plan_text, 0);
}

int clb_print_ranks(struct session *s)
{
    if (!s->run->mpi)
        return CLB_OK;
    const struct clb_devinfo *di = &s->dev.info;
    char *mine = clb_asprintf("rank %d: %s, device %d '%s' (%s)", clb_comm()->rank, s->run->host,
                              di->index, di->name,
                              di->pci_bus_id[0] ? di->pci_bus_id : di->platform_name);
    char **all = clb_comm_gather_text(mine ? mine : "");
    free(mine);
    if (!all)
        return CLB_ESYS;
    if (clb_comm()->rank == 0) {
        /* ranks sharing a device are allowed, with a warning: they compete */
        for (int i = 0; i < clb_comm()->size; i++) {
            int shared = 0;
            const char *dev_i = strchr(all[i], ':'); /* host and device, without the rank */
            for (int j = 0; j < clb_comm()->size && dev_i; j++)
                shared |= j != i && strchr(all[j], ':') && !strcmp(strchr(all[j], ':'), dev_i);
            fprintf(stderr, "%s%s\n", all[i], shared ? "  (shared with another rank: they compete)" : "");
        }
    }
    clb_comm_free_texts(all);
    return CLB_OK;
}

/* Exit statuses from the best to the worst: success, "nothing measured", a
 * usage error, an error, a validation failure. An end past them all (the
 * output lost, a timeout, a signal: above CLB_EXIT_NOTHING) wins over any. */
static const int exit_rank[] = {[CLB_EXIT_OK] = 0, [CLB_EXIT_NOTHING] = 1, [CLB_EXIT_USAGE] = 2,
                                [CLB_EXIT_ERROR] = 3, [CLB_EXIT_FAILED] = 4};

int clb_worse_status(int a, int b)
{
    if (a > CLB_EXIT_NOTHING || b > CLB_EXIT_NOTHING)
        return a > CLB_EXIT_NOTHING ? a : b;
    return exit_rank[a] >= exit_rank[b] ? a : b;
}

int clb_agree_status(int status)
{
    if (!clb_comm_active())
        return status;
    int end = status > CLB_EXIT_NOTHING;
    double v[2] = {end ? 0 : exit_rank[status], end ? status : 0};
    clb_comm_allreduce(v, 2, CLB_MAX);
    for (int i = 0; v[1] == 0 && i <= CLB_EXIT_NOTHING; i++)
        if (exit_rank[i] == (int)v[0])
            return i;
    return v[1] > 0 ? (int)v[1] : status;
}
