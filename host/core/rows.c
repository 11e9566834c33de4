/* Rows of a run: their common fields, the results file, and the ratios to
 * baselines that the core writes for every workload. */
#define _GNU_SOURCE
#include "comm.h"
#include "session.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *clb_keep(struct session *s, const char *text)
{
    const char *p = clb_arena_intern(&s->arena, text, strlen(text));
    return p ? p : "";
}

void clb_base_row(struct session *s, struct clb_row *r, const struct clb_group *g)
{
    clb_row_init(r);
    time_t now = time(NULL);
    struct tm tm;
    char ts[32];
    gmtime_r(&now, &tm);
    strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
    r->run_id = s->run_id;
    r->timestamp = clb_keep(s, ts);
    r->host = s->run->host;
    r->platform = s->dev.info.platform_name;
    r->device = s->dev.info.name;
    r->device_type = s->dev.info.type_name;
    r->driver = s->dev.info.driver;
    r->profile = s->profile->id;
    r->workload = g->wl->name;
    r->dtype = g->dtype;
    r->size = g->size_text;
    r->clbench_version = CLB_VERSION;
    r->ranks = clb_comm()->size;
    char rank[24];
    snprintf(rank, sizeof rank, "%d", clb_comm()->rank);
    r->rank = clb_keep(s, rank);
}

const char *clb_status_name(int rc)
{
    switch (rc) {
    case CLB_OK: return "ok";
    case CLB_FAIL: return "failed";
    case CLB_SKIP: return "skipped";
    default: return "error";
    }
}

static int rows_add(struct rows *l, const struct clb_row *r)
{
    if (CLB_GROW(l->v, l->n, l->cap))
        return CLB_ESYS;
    l->v[l->n++] = *r;
    return CLB_OK;
}

/* Remember the first error (else the first validation failure) for the
 * closing message on stderr: with -q it is the only place the reason shows. */
static void note_bad(struct session *s, const struct clb_row *r)
{
    int err = strcmp(r->status, "error") == 0;
    if (!err && strcmp(r->status, "failed") != 0)
        return;
    if (s->first_bad.len && !(err && !s->nerror))
        return;
    clb_buf_free(&s->first_bad);
    clb_buf_printf(&s->first_bad, "%s %s %s %s: %s", r->workload, r->kernel, r->dtype, r->size,
                   r->detail);
}

static void count_status(struct session *s, const struct clb_row *r)
{
    if (strcmp(r->status, "ok") == 0) s->nok++;
    else if (strcmp(r->status, "failed") == 0) s->nfailed++;
    else if (strcmp(r->status, "skipped") == 0) s->nskip++;
    else s->nerror++;
}

int clb_emit(struct session *s, struct clb_row *r, const struct clb_row *agg)
{
    int rc = rows_add(&s->rows, r);
    if (rc)
        return rc;
    if (!s->run->mpi) {
        note_bad(s, r);
        count_status(s, r);
        return clb_writer_put(&s->out, r);
    }
    char *line = s->out.format == CLB_FORMAT_JSON ? clb_row_json(r) : clb_row_format(r, CLB_SCHEMA);
    char **all = clb_comm_gather_text(line ? line : "");
    free(line);
    if (!all)
        return CLB_ESYS;
    if (clb_comm()->rank == 0) {
        for (int i = 0; !rc && i < clb_comm()->size; i++)
            rc = clb_writer_put_text(&s->out, all[i]);
        if (!rc && agg) {
            note_bad(s, agg);
            count_status(s, agg);
            if (agg->rank) /* NULL: the ranks ran different params, no aggregate */
                rc = rows_add(&s->agg, agg);
            if (!rc && agg->rank)
                rc = clb_writer_put(&s->out, agg);
        }
    }
    clb_comm_free_texts(all);
    return rc;
}

/* ---- baselines -------------------------------------------------------- */

/* The baseline's figure for a row: a kernel of this workload is looked up in
 * the same group (type and size); a kernel of another workload is the best
 * ok row of this run with the same type, else with any type. */
static double baseline_gbps(const struct rows *rows, const struct clb_group *g, const char *bwl,
                            const char *bk)
{
    int same = strcmp(bwl, g->wl->name) == 0;
    double best = 0, any = 0;
    for (size_t i = 0; i < rows->n; i++) {
        const struct clb_row *r = &rows->v[i];
        if (strcmp(r->workload, bwl) || strcmp(r->kernel, bk) || strcmp(r->status, "ok") ||
            isnan(r->gbps))
            continue;
        int same_type = strcmp(r->dtype, g->dtype) == 0;
        if (same && (!same_type || strcmp(r->size, g->size_text)))
            continue;
        if (same_type && r->gbps > best)
            best = r->gbps;
        if (r->gbps > any)
            any = r->gbps;
    }
    return best > 0 ? best : any;
}

void clb_note_ratios(struct session *s, const struct clb_group *g, struct clb_case *c,
                     double gbps, const struct rows *from)
{
    (void)s;
    const char *list = g->wl->baselines;
    if (!list || isnan(gbps) || c->counts.host_bound || c->counts.compute_bound)
        return;
    int n;
    char **bl = clb_split(list, &n);
    for (int i = 0; bl && i < n; i++) {
        char *slash = strchr(bl[i], '/');
        if (!slash)
            continue;
        *slash = 0;
        const char *bwl = bl[i], *bk = slash + 1;
        int same = strcmp(bwl, g->wl->name) == 0;
        if (same && strcmp(bk, c->kernel) == 0)
            continue; /* the baseline itself */
        double base = baseline_gbps(from, g, bwl, bk);
        if (base > 0) {
            char key[CLB_METRIC_MAX + 1];
            if (same)
                snprintf(key, sizeof key, "of_%s", bk);
            else
                snprintf(key, sizeof key, "of_%s_%s", bwl, bk);
            clb_case_note(c, "%s=%.3f", key, gbps / base);
            clb_case_metric(c, key, gbps / base);
        }
    }
    free(bl);
}
