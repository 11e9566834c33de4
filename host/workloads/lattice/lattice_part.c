/* dslash, cg: the parameters of the split, the agreements around its
 * collective steps, the halo model of a case and the halo figures of its
 * timed repetitions (lattice_wl.h, "scaling="). */
#include "lattice_wl.h"

#include <stdlib.h>
#include <string.h>

/* ---- parameters ----------------------------------------------------------------- */

int lat_param_part(struct clb_env *env, const char *wl, struct lat_part *pt)
{
    if (lat_scaling_of(clb_param(env, "scaling")) < 0)
        return clb_eusage("%s: parameter scaling: '%s' is not strong or weak", wl,
                          clb_param(env, "scaling"));
    int rc;
    pt->bus[0] = pt->bus[1] = NAN;
    if (clb_param(env, "bus_gbps")[0]) {
        if ((rc = clb_param_real(env, "bus_gbps", 0, 1e6, &pt->bus[0])))
            return rc;
        pt->bus[1] = pt->bus[0];
    }
    const char *x = clb_param(env, "exchange");
    pt->policy = -1;
    for (int k = 0; k < LAT_XC_N; k++)
        if (!strcmp(x, lat_xc_names[k]))
            pt->policy = k;
    if (pt->policy < 0)
        return clb_eusage("%s: parameter exchange: '%s' (known: pipe, bulk, shm)", wl, x);
    long kib;
    if ((rc = clb_param_int(env, "chunk", 1, 1L << 22, &kib)))
        return rc;
    pt->chunk = (size_t)kib * 1024;
    return CLB_OK;
}

/* ---- agreements ------------------------------------------------------------------- */

/* Has any rank failed (bad)? Every rank calls it; CLB_ESYS when the
 * allreduce fails. */
static int any_failed(int bad, int *any)
{
    double v = bad != 0;
    int e = clb_comm_allreduce(&v, 1, CLB_MAX);
    *any = e || v > 0;
    return e;
}

/* Has every rank *rc == CLB_OK? Else 0 with *rc this rank's error, or the
 * allreduce's. Every rank calls it. */
static int all_ok(int *rc)
{
    int any, e = any_failed(*rc != CLB_OK, &any);
    if (any)
        *rc = *rc ? *rc : e;
    return !any;
}

int lat_agree_setup(struct lat_part *pt, int *rc)
{
    if (!pt->scaling)
        return *rc == CLB_OK;
    if (!all_ok(rc))
        return 0;
    struct lat_halo *h = &pt->halo;
    if (pt->policy != LAT_XC_SHM) {
        if (clb_comm()->devices <= 1)
            return 1;
        /* every rank set up: the node path's buffers are shared in each process */
        *rc = lat_halo_share(h);
        return all_ok(rc);
    }
    /* every rank set up: the shared window is every rank's together */
    size_t n = h->pin_bytes ? h->pin_bytes : 2 * h->es;
    void *mine = NULL;
    *rc = clb_comm_shm_open(2 * n, &h->win, &mine);
    if (*rc == CLB_OK) {
        h->wseg = mine;
        memset(h->wseg, 0, 2 * n);
    }
    return all_ok(rc);
}

int lat_probe_case(struct lat_part *pt, int rhs, int rc)
{
    int any, e = any_failed(rc != CLB_OK, &any);
    pt->mid_s = NAN;
    if (rc)
        return rc;
    if (e)
        return e;
    if (any) {
        clb_seterr("set-up failed on another rank");
        return CLB_SKIP; /* the job's agreement names the rank that failed */
    }
    int rc2 = lat_halo_probe(&pt->halo, rhs, 5, &pt->mid_s);
    pt->node[0] = pt->node[1] = NAN;
    if (clb_comm()->devices > 1) { /* every rank: the measurement is collective */
        int e2 = lat_halo_bus_both(&pt->halo, rhs, pt->node);
        rc2 = rc2 ? rc2 : e2;
    }
    return rc2;
}

/* ---- the model of a case -------------------------------------------------------- */

/* The notes of a part: "ranks=2 grid=1x1x1x2 part=8x8x8x4@0,0,0,4/8x8x8x8
 * halo_dirs=t sites_interior=0 sites_boundary=1024 exchange=pipe chunk_kib=2048". */
static void note_part(struct clb_case *c, const struct lat_decomp *p, const struct lat_halo *h)
{
    char dirs[8] = "";
    for (int mu = 3; mu >= 1; mu--)
        if (p->dec[mu])
            clb_appendf(dirs, sizeof dirs, "%s%c", dirs[0] ? "," : "", "xyzt"[mu]);
    clb_case_note(c, "ranks=%d grid=1x%dx%dx%d part=%dx%dx%dx%d@%d,%d,%d,%d/%dx%dx%dx%d "
                  "halo_dirs=%s sites_interior=%zu sites_boundary=%zu exchange=%s chunk_kib=%zu",
                  p->size, p->P[1], p->P[2], p->P[3], p->L[0], p->L[1], p->L[2], p->L[3], p->O[0],
                  p->O[1], p->O[2], p->O[3], p->G[0], p->G[1], p->G[2], p->G[3], dirs,
                  h->in.sites, h->bd.sites, lat_xc_names[h->policy], h->chunk / 1024);
    /* the path of each halo this rank receives: "halo_paths=zb:node,zf:mpi" */
    char paths[64] = "";
    int seen[LAT_PATH_N] = {0};
    for (int mu = 3; mu >= 1; mu--)
        for (int side = 0; side < 2 && p->dec[mu]; side++) {
            int k = lat_halo_path(h, p->nb[mu][side]);
            seen[k] = 1;
            clb_appendf(paths, sizeof paths, "%s%c%c:%s", paths[0] ? "," : "", "xyzt"[mu],
                        "bf"[side], lat_path_names[k]);
        }
    char all[32] = "";
    for (int k = 0; k < LAT_PATH_N; k++)
        if (seen[k])
            clb_appendf(all, sizeof all, "%s%s", all[0] ? "+" : "", lat_path_names[k]);
    if (paths[0]) {
        clb_case_note(c, "halo_paths=%s", paths);
        clb_case_metric_token(c, "halo_path", all);
    }
    if (h->btl[0] && p->size > 1) {
        clb_case_note(c, "mpi_transport=%s single_copy=%s", h->btl, h->copy);
        clb_case_metric_token(c, "mpi_btl", h->btl);
        clb_case_metric_token(c, "mpi_single_copy", h->copy);
    }
}

int lat_halo_model(struct lat_part *pt, struct clb_case *c, int rhs, double *chain)
{
    const struct lat_halo *h = &pt->halo;
    double gbps[2] = {pt->bus[0], pt->bus[1]};
    int measured = isnan(gbps[0]);
    int rc = measured ? lat_halo_bus(&pt->halo, rhs, gbps) : CLB_OK;
    if (rc)
        return rc;
    size_t bytes = lat_halo_bytes(h, rhs);
    /* the message step: a rate (the data), a latency (shm's zero-byte notes)
     * or nothing (one rank, pipe or shm) */
    int notes = h->policy == LAT_XC_SHM, have = !isnan(pt->mid_s);
    double mid_gbps = have && !notes && pt->mid_s > 0 ? (double)bytes / pt->mid_s / 1e9
                                                      : INFINITY;
    size_t by[LAT_PATH_N];
    lat_halo_path_bytes(h, rhs, by);
    if (by[LAT_PATH_NODE] && !notes) /* the notes of the node path: no data */
        mid_gbps = have && pt->mid_s > 0 && by[LAT_PATH_MPI]
                       ? (double)by[LAT_PATH_MPI] / pt->mid_s / 1e9 : INFINITY;
    struct clb_sc_chain ch = {(double)bytes, (double)pt->chunk, gbps[0], mid_gbps,
                              gbps[1], have && notes ? pt->mid_s : 0,
                              h->policy != LAT_XC_BULK};
    if (by[LAT_PATH_NODE]) {
        /* the node path: the bus both ways at once with every device on it,
         * no message but the notes; beside it the messages to other
         * processes (their own chain), the slower of the two */
        struct clb_sc_chain nd = {(double)by[LAT_PATH_NODE], (double)pt->chunk, pt->node[0],
                                  INFINITY, pt->node[1], by[LAT_PATH_MPI] || !have ? 0
                                                                               : pt->mid_s, 1};
        ch.bytes = (double)by[LAT_PATH_MPI];
        double a = clb_sc_chain_seconds(&nd), b = ch.bytes > 0 ? clb_sc_chain_seconds(&ch) : 0;
        *chain = a > b ? a : b;
    } else {
        *chain = clb_sc_chain_seconds(&ch);
    }
    note_part(c, &pt->dc, h);
    /* one rank's bulk chain copies its slabs instead of sending them */
    const char *rate = pt->dc.size > 1 ? "mpi_gbps" : "copy_gbps";
    char mid[64] = "no message step";
    if (have && (notes || (by[LAT_PATH_NODE] && !by[LAT_PATH_MPI])))
        snprintf(mid, sizeof mid, "%s_notes_us=%.4g (measured)", notes ? "mpi" : "node",
                 1e6 * pt->mid_s);
    else if (have)
        snprintf(mid, sizeof mid, "%s=%.4g (measured)", rate, mid_gbps);
    clb_case_note(c, "halo_bytes=%zu bus_d2h_gbps=%.3g bus_h2d_gbps=%.3g (%s) %s "
                  "halo_chain_model_ms=%.4g (per exchange, after the pack kernel)", bytes,
                  gbps[0], gbps[1], measured ? "measured" : "bus_gbps", mid,
                  1e3 * *chain);
    clb_case_metric_token(c, "halo_chain", lat_xc_names[h->policy]);
    clb_case_metric(c, "chunk_kib", (double)(pt->chunk / 1024));
    clb_case_metric(c, "halo_bytes", (double)bytes);
    clb_case_metric(c, "bus_d2h_gbps", gbps[0]);
    clb_case_metric(c, "bus_h2d_gbps", gbps[1]);
    if (by[LAT_PATH_NODE]) {
        clb_case_note(c, "node_d2h_gbps=%.3g node_h2d_gbps=%.3g (measured: both ways at once, "
                      "every device together)", pt->node[0], pt->node[1]);
        clb_case_metric(c, "node_d2h_gbps", pt->node[0]);
        clb_case_metric(c, "node_h2d_gbps", pt->node[1]);
        if (have && !by[LAT_PATH_MPI])
            clb_case_metric(c, "node_notes_us", 1e6 * pt->mid_s);
    }
    if (have && !notes && pt->dc.size > 1 && by[LAT_PATH_MPI])
        clb_case_metric(c, "mpi_gbps", mid_gbps);
    if (have && !notes && pt->dc.size == 1)
        clb_case_metric(c, "copy_gbps", mid_gbps);
    if (have && notes)
        clb_case_metric(c, "mpi_notes_us", 1e6 * pt->mid_s);
    clb_case_metric(c, "halo_chain_model_ms", 1e3 * *chain);
    return CLB_OK;
}

/* ---- the figures of the timed repetitions ----------------------------------------- */

int lat_log_add(struct lat_log *l, const struct lat_xtimes *x, double red, double t, double nx,
                const char *wl)
{
    if (l->n == l->cap) {
        /* every series grows together; one that did not keeps its entries and
         * cap stays, so the next call tries again */
        int cap = l->cap ? 2 * l->cap : 64;
        for (int k = 0; k < LAT_LOG_N; k++) {
            double *a = realloc(l->v[k], (size_t)cap * sizeof *a);
            if (!a)
                return clb_err(CLB_ESYS, "%s: " CLB_OOM, wl);
            l->v[k] = a;
        }
        l->cap = cap;
    }
    double v[LAT_LOG_N] = {x->halo, x->gap, t > 0 ? x->gap / t : NAN, red, x->pack, x->in,
                           x->bd, t, nx};
    for (int k = 0; k < LAT_LOG_N; k++)
        l->v[k][l->n] = v[k];
    l->n++;
    return CLB_OK;
}

/* The median of series k (NAN when empty). */
static double log_median(const struct lat_log *l, int k)
{
    struct clb_stats st;
    if (l->n <= 0)
        return NAN;
    clb_stats_compute(l->v[k], (size_t)l->n, &st);
    return st.median;
}

void lat_log_free(struct lat_log *l)
{
    for (int k = 0; k < LAT_LOG_N; k++)
        free(l->v[k]);
}

/* The model's figures beside the measured ones (medians med[LAT_LOG_*]). */
static void model_figures(struct clb_case *c, const double *med, double chain)
{
    double nx = med[LAT_LOG_NX] > 0 ? med[LAT_LOG_NX] : 1;
    double pack = isnan(med[LAT_LOG_PACK]) ? 0 : med[LAT_LOG_PACK];
    struct clb_sc_app app = {0, med[LAT_LOG_IN] / nx, pack / nx, chain, nx};
    /* no interior time (a timer that cannot tell): no exposed time either */
    double exp_model = isnan(app.in) ? NAN : nx * clb_sc_exposed(&app), t = med[LAT_LOG_T];
    app.rest = t - pack - med[LAT_LOG_GAP];
    double eff = app.rest / t, eff_model = clb_sc_efficiency(&app);
    clb_case_note(c, "halo_model_ms=%.4g halo_exposed_model_ms=%.4g eff=%.3f eff_model=%.3f",
                  1e3 * (pack + nx * chain), 1e3 * exp_model, eff, eff_model);
    clb_case_metric(c, "halo_model_ms", 1e3 * (pack + nx * chain));
    clb_case_metric(c, "halo_exposed_model_ms", 1e3 * exp_model);
    clb_case_metric(c, "eff", eff);
    clb_case_metric(c, "eff_model", eff_model);
}

int lat_verify_halo(struct clb_case *c, const struct lat_log *l, double chain, int rc)
{
    double med[LAT_LOG_N];
    for (int k = 0; k < LAT_LOG_N; k++)
        med[k] = log_median(l, k);
    int ks[4] = {LAT_LOG_HAL, LAT_LOG_GAP, LAT_LOG_FRAC, LAT_LOG_RED};
    double mx[4];
    for (int i = 0; i < 4; i++)
        mx[i] = isnan(med[ks[i]]) ? 0 : med[ks[i]];
    int e = clb_comm_allreduce(mx, 4, CLB_MAX); /* every rank, whatever its check found */
    for (int i = 0; i < 4; i++) /* a figure no timer told here is none (not the peers') */
        if (isnan(med[ks[i]]))
            mx[i] = NAN;
    if (isnan(med[LAT_LOG_HAL]))
        return rc ? rc : e;
    clb_case_note(c, "halo_ms=%.4g halo_exposed_ms=%.4g halo_exposed_frac=%.3f "
                  "halo_ms_max=%.4g halo_exposed_ms_max=%.4g halo_exposed_frac_max=%.3f "
                  "pack_ms=%.4g interior_ms=%.4g boundary_ms=%.4g exchanges=%.0f",
                  1e3 * med[LAT_LOG_HAL], 1e3 * med[LAT_LOG_GAP], med[LAT_LOG_FRAC], 1e3 * mx[0],
                  1e3 * mx[1], mx[2], 1e3 * med[LAT_LOG_PACK], 1e3 * med[LAT_LOG_IN],
                  1e3 * med[LAT_LOG_BD], med[LAT_LOG_NX]);
    clb_case_metric(c, "halo_ms", 1e3 * med[LAT_LOG_HAL]);
    clb_case_metric(c, "halo_exposed_ms", 1e3 * med[LAT_LOG_GAP]);
    clb_case_metric(c, "halo_exposed_frac", med[LAT_LOG_FRAC]);
    clb_case_metric(c, "halo_ms_max", 1e3 * mx[0]);
    clb_case_metric(c, "halo_exposed_ms_max", 1e3 * mx[1]);
    clb_case_metric(c, "halo_exposed_frac_max", mx[2]);
    clb_case_metric(c, "pack_ms", 1e3 * med[LAT_LOG_PACK]);
    clb_case_metric(c, "interior_ms", 1e3 * med[LAT_LOG_IN]);
    clb_case_metric(c, "boundary_ms", 1e3 * med[LAT_LOG_BD]);
    clb_case_metric(c, "exchanges", med[LAT_LOG_NX]);
    if (!isnan(med[LAT_LOG_RED]))
        clb_case_metric(c, "reduce_ms_max", 1e3 * mx[3]);
    model_figures(c, med, chain);
    return rc ? rc : e;
}
