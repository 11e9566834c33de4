/* Measured ceilings (`clbench run|model ... --ceilings FILE`): the memory
 * bandwidth, the fp32 and fp64 compute peaks and the memory latency that a
 * device's own rows measured, to stand in for the profile's datasheet
 * figures. Which rows measure what is each workload's business (its
 * `ceilings` function); this module reads the file, picks the device, asks
 * every workload that offers ceilings, and keeps the best of each kind: the
 * highest bandwidth and GFlop/s, the lowest latency. */
#include "core.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CANDIDATES 64

const char *clb_ceiling_name(enum clb_ceiling_kind kind)
{
    switch (kind) {
    case CLB_CEIL_BW: return "memory bandwidth";
    case CLB_CEIL_TRIAD: return "triad bandwidth";
    case CLB_CEIL_SP: return "fp32 compute";
    case CLB_CEIL_DP: return "fp64 compute";
    case CLB_CEIL_LATENCY: return "memory latency";
    default: return "?";
    }
}

static const char *unit_of(enum clb_ceiling_kind kind)
{
    return kind == CLB_CEIL_LATENCY ? "ns" : kind == CLB_CEIL_SP || kind == CLB_CEIL_DP ? "GFlop/s"
                                                                                       : "GB/s";
}

static int candidate(const struct clb_row *r)
{
    if (strcmp(r->status, "ok"))
        return 0;
    const struct clb_workload *wl = clb_workload_find(r->workload);
    return wl && wl->ceilings;
}

/* The text built in b (malloc'd), or NULL with b freed when memory ran out. */
static char *buf_text(struct clb_buf *b)
{
    if (!b->oom)
        return b->s ? b->s : clb_strdup("");
    clb_buf_free(b);
    return NULL;
}

/* Does a device name contain one of the comma-separated parts of match
 * (clb_split drops their leading blanks)? */
static int matches(const char *device, const char *match)
{
    int n, hit = 0;
    char **parts = clb_split(match, &n);
    for (int i = 0; parts && i < n && !hit; i++) {
        const char *p = parts[i];
        size_t len = strlen(p);
        while (len && p[len - 1] == ' ')
            len--;
        char *t = clb_asprintf("%.*s", (int)len, p);
        hit = t && len && clb_stristr(device, t) != NULL;
        free(t);
    }
    free(parts);
    return hit;
}

/* The distinct device names of the candidate rows, "A; B" (malloc'd). */
static char *device_list(const char *const *names, int n)
{
    struct clb_buf b = {0};
    for (int i = 0; i < n; i++)
        clb_buf_printf(&b, "%s'%s'", i ? ", " : "", names[i]);
    if (!n)
        clb_buf_printf(&b, "none");
    return b.s;
}

char *clb_ceiling_workloads(void)
{
    struct clb_buf b = {0};
    for (const struct clb_workload *const *w = clb_workload_list(); *w; w++)
        if ((*w)->ceilings)
            clb_buf_printf(&b, "%s%s", b.len ? ", " : "", (*w)->name);
    return buf_text(&b);
}

/* Pick the device (see struct clb_ceil_pick). */
static int pick_device(const char *path, const struct clb_rowset *rows, const struct clb_ceil_pick *pk,
                       const char **device)
{
    const char **names = clb_xcalloc(rows->n + 1, sizeof *names);
    if (!names)
        return CLB_ESYS;
    int n = 0;
    for (size_t i = 0; i < rows->n; i++) {
        if (!candidate(&rows->v[i]))
            continue;
        int seen = 0;
        for (int k = 0; k < n && !seen; k++)
            seen = strcmp(names[k], rows->v[i].device) == 0;
        if (!seen)
            names[n++] = rows->v[i].device;
    }
    const char *chosen[2] = {NULL, NULL};
    int hits = 0;
    for (int k = 0; k < n; k++) {
        int take = pk->exact   ? strcmp(names[k], pk->exact) == 0
                   : pk->part  ? clb_stristr(names[k], pk->part) != NULL
                   : pk->match ? matches(names[k], pk->match)
                               : 1;
        if (take && hits < 2)
            chosen[hits] = names[k];
        hits += take;
    }
    char *list = device_list(names, n);
    int rc = CLB_OK;
    if (n == 0) {
        char *wls = clb_ceiling_workloads();
        clb_seterr("--ceilings %s: no ok rows of a workload that measures ceilings (%s)", path,
                   wls ? wls : "");
        free(wls);
        rc = CLB_EUSAGE;
    } else if (hits == 0) {
        if (pk->exact)
            clb_seterr("--ceilings %s: no measured rows of device '%s' (the file has %s): "
                       "ceilings apply to the device they were measured on", path, pk->exact,
                       list ? list : "");
        else if (pk->part)
            clb_seterr("--ceilings %s: no device matches --device '%s' (the file has %s)", path,
                       pk->part, list ? list : "");
        else
            clb_seterr("--ceilings %s: no rows of profile %s's device (match: %s; the file has "
                       "%s): ceilings apply to the device they were measured on (--device NAME "
                       "takes one anyway)", path, pk->profile ? pk->profile : "?", pk->match,
                       list ? list : "");
        rc = CLB_EUSAGE;
    } else if (hits > 1 && (pk->part || pk->match)) {
        rc = clb_eusage("--ceilings %s: %s matches several devices (%s): name one with --device",
                        path, pk->part ? "--device" : "the profile", list ? list : "");
    } else if (hits > 1) {
        rc = clb_eusage("--ceilings %s: the file holds rows of several devices (%s): name one with "
                        "--device", path, list ? list : "");
    }
    *device = chosen[0];
    free(list);
    free(names);
    return rc;
}

static int better(enum clb_ceiling_kind kind, double v, double than)
{
    return kind == CLB_CEIL_LATENCY ? v < than : v > than;
}

int clb_ceilings_measure(const struct clb_row *const *rows, size_t n, struct clb_ceiling_set *out)
{
    memset(out, 0, sizeof *out);
    struct clb_row *mine = clb_xcalloc(n + 1, sizeof *mine);
    struct clb_ceiling *cand = clb_xcalloc(MAX_CANDIDATES, sizeof *cand);
    if (!mine || !cand) {
        free(mine);
        free(cand);
        return CLB_ESYS;
    }
    for (const struct clb_workload *const *w = clb_workload_list(); *w; w++) {
        if (!(*w)->ceilings)
            continue;
        size_t m = 0, unfit = 0;
        for (size_t i = 0; i < n; i++)
            if (strcmp(rows[i]->workload, (*w)->name) == 0 && strcmp(rows[i]->status, "ok") == 0 &&
                !clb_row_is_sum(rows[i])) {
                if (clb_row_fits(*w, rows[i]))
                    mine[m++] = *rows[i];
                else
                    unfit++;
            }
        if (unfit) {
            char *where = clb_asprintf("of '%s'", rows[0]->device);
            clb_warn_unfit(*w, unfit, where ? where : "", "ceilings");
            free(where);
        }
        if (!m)
            continue;
        int k = (*w)->ceilings(mine, m, cand, MAX_CANDIDATES);
        for (int i = 0; i < k && i < MAX_CANDIDATES; i++) {
            enum clb_ceiling_kind kind = cand[i].kind;
            if (kind >= CLB_NCEILINGS || !(cand[i].value > 0) || !isfinite(cand[i].value) ||
                !cand[i].row)
                continue;
            if (out->have[kind] && !better(kind, cand[i].value, out->c[kind].value))
                continue;
            out->c[kind] = cand[i];
            out->row[kind] = *cand[i].row;
            out->c[kind].row = &out->row[kind];
            out->have[kind] = 1;
        }
    }
    free(mine);
    free(cand);
    return CLB_OK;
}

int clb_ceilings_load(const char *path, const struct clb_ceil_pick *pick, struct clb_ceilings *out)
{
    memset(out, 0, sizeof *out);
    out->file = clb_strdup(path);
    if (!out->file)
        return CLB_ESYS;
    int rc = clb_results_read(path, &out->rows);
    if (rc) {
        clb_seterr("--ceilings: %s", clb_lasterr());
        return rc;
    }
    if ((rc = pick_device(path, &out->rows, pick, &out->device)))
        return rc;
    const struct clb_row **mine = clb_xcalloc(out->rows.n + 1, sizeof *mine);
    struct clb_ceiling_set *set = clb_xcalloc(1, sizeof *set);
    size_t n = 0;
    for (size_t i = 0; mine && i < out->rows.n; i++)
        if (strcmp(out->rows.v[i].device, out->device) == 0)
            mine[n++] = &out->rows.v[i];
    rc = mine && set ? clb_ceilings_measure(mine, n, set) : CLB_ESYS;
    for (int k = 0; rc == CLB_OK && k < CLB_NCEILINGS; k++) {
        if (!(out->have[k] = set->have[k]))
            continue;
        out->c[k] = set->c[k];
        out->row[k] = set->row[k];
        out->c[k].row = &out->row[k];
    }
    free(mine);
    free(set);
    return rc;
}

char *clb_ceiling_missing(const struct clb_ceilings *c, enum clb_ceiling_kind kind)
{
    struct clb_buf b = {0}, from = {0};
    const char *first = NULL;
    for (const struct clb_workload *const *w = clb_workload_list(); *w; w++) {
        if (!(*w)->ceilings || !((*w)->ceiling_kinds >> kind & 1u))
            continue;
        first = first ? first : (*w)->name;
        clb_buf_printf(&from, "%s%s: %s", from.len ? "; " : "", (*w)->name,
                       (*w)->ceiling_rows ? (*w)->ceiling_rows : "its rows");
    }
    clb_buf_printf(&b, "--ceilings %s: no row of '%s' there measures its %s (%s)", c->file,
                   c->device ? c->device : "?", clb_ceiling_name(kind),
                   from.len ? clb_buf_str(&from) : "no workload measures it");
    if (first)
        clb_buf_printf(&b, "; run `clbench run %s` at default sizes on it", first);
    clb_buf_free(&from);
    return buf_text(&b);
}

char *clb_ceiling_origin(const struct clb_ceilings *c, enum clb_ceiling_kind kind)
{
    if (kind >= CLB_NCEILINGS || !c->have[kind])
        return NULL;
    const struct clb_ceiling *x = &c->c[kind];
    struct clb_buf b = {0};
    clb_buf_printf(&b, "measured: %s %.6g %s", x->what, x->value, unit_of(kind));
    if (kind == CLB_CEIL_LATENCY && !isnan(x->cycles))
        clb_buf_printf(&b, " = %.6g cycles at %.6g MHz", x->cycles, x->clock_mhz);
    if (x->note[0])
        clb_buf_printf(&b, " (%s)", x->note);
    clb_buf_printf(&b, ", run %s, file %s", x->row->run_id, c->file);
    return buf_text(&b);
}

void clb_ceilings_free(struct clb_ceilings *c)
{
    free(c->file);
    clb_rowset_free(&c->rows);
    memset(c, 0, sizeof *c);
}
