/* cg: the HISQ talk's conjugate gradient inverter [Wagner15, slides 19-20, 37-45]
 * (cg.h, docs/workloads/cg.md) for 1..8 right-hand sides solved together. A
 * timed repetition is one whole solve from x = 0 with the iteration counts
 * found by a first, converging solve in set-up (or iters=N); the row's params
 * carry the counts, from which count() gives the flops and bytes. Validation:
 * the true residual |b - A x| / |b| of every rhs in float64 on the host
 * (cg_ref.c). Device side: cg_dev.c. scaling=: docs/SCALING.md. */
#include "clb_workload.h"
#include "clb_fit.h"
#include "cg_dev.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const kernel_names[] = {"reg", "cache", "regcache"};
/* A solve passes when every rhs's true residual |b - Ax|/|b| is at most
 * TRUE_RES_FACTOR x its target, the target being the larger of tol and the
 * drift allowance eps x iterations (eps: the type's machine epsilon): the
 * recursive residual, which stops the solve, drifts from the true one by
 * rounding errors that pile up with the iterations. docs/workloads/cg.md
 * gives the drift measured: at most 0.45 eps x iterations. */
#define TRUE_RES_FACTOR 10.0
#define EPS_FLOAT 1.1920928955078125e-07
#define EPS_DOUBLE 2.220446049250313e-16

static const struct clb_param_def params[] = {
    {"rhs", "", "right-hand sides solved together, 1..8, a list or range (default 1,4; "
                "--quick 1,3)", CLB_ROLE_CASE},
    {"links", "compressed",
     "long-link storage: full (72 B in fp32) or compressed (56 B: two rows + det), or both",
     CLB_ROLE_CASE},
    {"kernels", "reg",
     "the operator's kernel (the dslash workload's shapes): reg (rhs accumulators in registers), "
     "cache (one work-item per site and rhs) or regcache (k rhs per work-item, rhs/k work-items "
     "per site), or a list", CLB_ROLE_CASE},
    {"k", "", "regcache: rhs per work-item, a list; a case for each k that divides rhs, 1 < k < "
              "rhs (default: every such k)", CLB_ROLE_TUNING},
    {"mass", "", "the mass m in A = m^2 - D_eo D_oe, > 0 (default 1; --quick 4); the "
                 "iterations grow as 1/m: about 110/m to 1e-6, 215/m to 1e-12", CLB_ROLE_CASE},
    {"tol", "", "relative residual |r|/|b| a solve reaches (default 1e-6 in float, 1e-12 in "
                "double)", CLB_ROLE_CASE},
    {"maxiter", "2000", "iteration limit of the converging solve", CLB_ROLE_CASE},
    {"iters", "", "fixed iteration counts, no convergence test: N (every rhs) or n0:n1:... (one "
                  "per rhs, as the rows' params give them) (default: solve to tol once in set-up, "
                  "then time solves of that many)", CLB_ROLE_TUNING},
    {"local", "", "work-group size along the sites, a power of two (default 128 on GPUs, 64 on "
                  "CPUs)", CLB_ROLE_TUNING},
    LAT_PART_PARAMS,
    {0, 0, 0, 0}};

/* ---- counts ------------------------------------------------------------- */

/* The solver's vector fields (b, x, r, p, ap on the even sites, t on the
 * odd ones). */
enum { NFIELDS = 6 };

/* "N" or "n0:n1:..." (counts in lo..hi, at most CG_MAX_RHS) into v: their
 * number, 0 when text is no such list. */
static int iter_counts(const char *text, long lo, long hi, long *v)
{
    int n = 0;
    for (const char *p = text;;) {
        char *end;
        long x = strtol(p, &end, 10);
        if (end == p || x < lo || x > hi || n == CG_MAX_RHS || (*end && *end != ':'))
            return 0;
        v[n++] = x;
        if (!*end)
            return n;
        p = end + 1;
    }
}

/* "N" (every rhs N) or "n0:n1:..." (one count per rhs) into iters; the
 * largest and the sum. */
static int parse_iters(const char *v, int rhs, long *iters, long *most, long *sum)
{
    int n = iter_counts(v, 0, 100000000, iters);
    for (int r = n == 1 ? 1 : rhs; r < rhs; r++)
        iters[r] = iters[0];
    if (n != 1 && n != rhs)
        return clb_eusage("iters=%s is not one iteration count or one per right-hand side (%d) "
                          "joined by ':'", v, rhs);
    *most = *sum = 0;
    for (int r = 0; r < rhs; r++) {
        *most = iters[r] > *most ? iters[r] : *most;
        *sum += iters[r];
    }
    return CLB_OK;
}

/* The group: fat, full and compressed long links and the six vector fields
 * for the largest rhs of --param rhs (CG_MAX_RHS when not given). A case:
 * the solve of its params (rhs, links, iters) by the counts of
 * dslash_model.c; its footprint is the fat links, its long links and its
 * vectors. */
static int count(const struct clb_query *q, struct clb_counts *out)
{
    struct lat_qsize z;
    int rc = lat_count_start(q, "cg", &z);
    if (rc)
        return rc;
    if (!q->kernel)
        return lat_count_group(q, &z, CG_MAX_RHS, NFIELDS, out);
    if (strcmp(q->kernel, "reg") && strcmp(q->kernel, "cache") && strcmp(q->kernel, "regcache"))
        return clb_eusage("unknown cg kernel '%s' (known: reg, cache, regcache)", q->kernel);
    long rhs;
    int comp;
    if ((rc = lat_query_rhs(q, CG_MAX_RHS, &rhs)) || (rc = lat_query_links(q, &comp)))
        return rc;
    long iters[CG_MAX_RHS], most, sum;
    rc = parse_iters(clb_query_param(q, "iters", "1"), (int)rhs, iters, &most, &sum);
    if (rc)
        return rc;
    /* whole numbers below 2^53 per site (lattice.h) */
    return lat_count_case(q, &z, comp, NFIELDS, rhs,
                          clb_cg_bytes_site((double)most, (double)sum, (int)rhs, comp, z.es),
                          clb_cg_flops_site((double)sum, (int)rhs), out);
}

/* ---- parameters ----------------------------------------------------------- */

struct choice {
    long rhs[16], ks[16];
    int nrhs, nks;
    unsigned links, kernels;
};

/* The cases at rhs: each kernel of kernels= in order, regcache once per k of
 * k= that fits rhs (lat_regcache_ks); into kinds and ks, their number.
 * set-up adds them, plan counts them. */
static int kernel_cases(const struct choice *ch, int rhs, int kinds[2 + LAT_MAX_RHS],
                        int ks[2 + LAT_MAX_RHS])
{
    int n = 0, v[LAT_MAX_RHS];
    for (int kind = CG_REG; kind <= CG_REGCACHE; kind++) {
        if (!(ch->kernels & (1u << kind)))
            continue;
        int m = kind == CG_REGCACHE ? lat_regcache_ks(ch->ks, ch->nks, rhs, v) : (v[0] = 0, 1);
        for (int i = 0; i < m; i++, n++) {
            kinds[n] = kind;
            ks[n] = v[i];
        }
    }
    return n;
}

/* iters=N (every rhs N iterations) or n0:n1:... (one count per rhs; then
 * every rhs of --param rhs must have as many). */
static int read_fixed(struct clb_env *env, struct cg_state *s, const struct choice *ch)
{
    const char *v = clb_param(env, "iters");
    s->nfixed = 0;
    if (!v[0])
        return CLB_OK;
    if (!(s->nfixed = iter_counts(v, 1, 1000000, s->fixed)))
        return clb_eusage("cg: parameter iters: '%s' is not an iteration count in 1..1000000 or "
                          "one per right-hand side joined by ':' (e.g. 50 or 50:40:45)", v);
    for (int i = 0; i < ch->nrhs && s->nfixed > 1; i++)
        if (ch->rhs[i] != s->nfixed)
            return clb_eusage("cg: parameter iters: '%s' gives %d counts, one per right-hand side, "
                              "but rhs=%ld is asked for", v, s->nfixed, ch->rhs[i]);
    return CLB_OK;
}

static int read_params(struct clb_env *env, struct cg_state *s, struct choice *ch)
{
    /* rhs= absent: the talk's comparison, 1 and 4 right-hand sides (a full
     * sweep takes --param rhs=1..8; a solve is hundreds of operator
     * applications) */
    const long def[] = {1, 4}, quick[] = {1, 3};
    ch->nks = 0; /* k= absent: every k (lat_regcache_ks) */
    int rc = lat_param_rhs(env, CG_MAX_RHS, env->quick ? quick : def, 2, ch->rhs, &ch->nrhs);
    if (rc || (rc = clb_param_names(env, "links", "full,compressed", 0, &ch->links)) ||
        (rc = clb_param_names(env, "kernels", "reg,cache,regcache", 0, &ch->kernels)) ||
        (clb_param(env, "k")[0] &&
         (rc = clb_param_ints(env, "k", 1, CG_MAX_RHS, ch->ks, 16, &ch->nks))) ||
        (rc = clb_param_int(env, "maxiter", 1, 1000000, &s->maxiter)))
        return rc;
    s->mass = env->quick ? 4 : 1;
    if (clb_param(env, "mass")[0] && (rc = clb_param_real(env, "mass", 0, 1e6, &s->mass)))
        return rc;
    /* below the type's epsilon a target means nothing (the true residual of
     * fp32 CG stalls near 1e-6 .. 1e-5 anyway: docs/workloads/cg.md) */
    double floor = s->dbl ? 1e-15 : 1e-7;
    s->tol = s->dbl ? 1e-12 : 1e-6;
    if (clb_param(env, "tol")[0] && (rc = clb_param_real(env, "tol", 0, 1, &s->tol)))
        return rc;
    if (s->tol < floor)
        return clb_eusage("cg: parameter tol: %g is below %s precision (%g)", s->tol,
                          s->dbl ? "double" : "float", floor);
    if ((rc = read_fixed(env, s, ch)))
        return rc;
    if ((rc = lat_param_part(env, "cg", &s->part)))
        return rc;
    long local = strcmp(env->info->type_name, "gpu") == 0 ? 128 : 64;
    if (clb_param(env, "local")[0] && (rc = clb_param_int(env, "local", 1, 1L << 20, &local)))
        return rc;
    if (local & (local - 1))
        return clb_eusage("cg: parameter local: %ld is not a power of two (the tree sums need one)",
                          local);
    s->local = (size_t)local;
    return CLB_OK;
}

/* ---- setup ---------------------------------------------------------------- */

static void iters_text(const struct cg_case *cc, char *out, size_t n)
{
    int same = 1;
    for (int r = 1; r < cc->rhs; r++)
        same &= cc->iters[r] == cc->iters[0];
    out[0] = 0;
    for (int r = 0; r < (same ? 1 : cc->rhs); r++)
        clb_appendf(out, n, "%s%d", r ? ":" : "", cc->iters[r]);
}

/* kind with its k (regcache; ignored otherwise) at rhs with links comp. */
static int add_case(struct clb_env *env, struct clb_group *g, int kind, int k, int rhs, int comp)
{
    struct cg_state *s = g->state;
    /* per: rhs per work-item, the build's -DRHS */
    int per = kind == CG_CACHE ? 1 : kind == CG_REGCACHE ? k : rhs;
    struct cg_case cc = {.rhs = rhs, .comp = comp, .kind = kind, .per = per};
    char links[32];
    snprintf(links, sizeof links, "%s", comp ? "compressed" : "full");
    if (kind == CG_REGCACHE) /* the row's params: links=...,k=K */
        clb_appendf(links, sizeof links, ",k=%d", k);
    struct clb_case *c;
    int rc = cg_dev_shape(env, s, g->dtype, &cc);
    if (s->part.scaling) {
        /* the set-up solve is every rank's: all solve, or all skip, or all stop
         * (a rank with an error returns it, the others add no more cases) */
        double v = rc == CLB_OK ? 0 : rc == CLB_SKIP ? 1 : 2;
        int e = clb_comm_allreduce(&v, 1, CLB_MAX);
        if (e)
            return e;
        if (v == 2)
            return rc == CLB_SKIP ? CLB_OK : rc;
        if (v == 1 && rc == CLB_OK)
            rc = clb_err(CLB_SKIP, "cg: another rank cannot shape this case");
        /* the message step on its own (every rank: all of them shaped it) */
        if (rc == CLB_OK && (rc = lat_probe_case(&s->part, rhs, rc)))
            return rc;
    }
    char sc[160];
    lat_part_params(&s->part, sc, sizeof sc);
    if (rc == CLB_SKIP) {
        char *why = clb_strdup(clb_lasterr());
        rc = clb_case_add(g, &c, kernel_names[kind], "rhs=%d,links=%s%s", rhs, links, sc);
        if (rc == CLB_OK)
            clb_case_skip(c, "%s", why ? why : "cannot be shaped");
        free(why);
        return rc;
    }
    if (rc)
        return rc;
    if (s->nfixed) {
        for (int r = 0; r < rhs; r++) {
            cc.iters[r] = (int)s->fixed[s->nfixed == 1 ? 0 : r];
            cc.niter = cc.iters[r] > cc.niter ? cc.iters[r] : cc.niter;
        }
    } else if ((rc = cg_dev_solve(env, s, &cc, 1, NULL, NULL, NULL))) {
        return rc;
    }
    char it[16 * CG_MAX_RHS];
    iters_text(&cc, it, sizeof it);
    /* the operator's work-group below the asked local: the kernels allow less */
    struct clb_fit fit = {.what = "local"};
    snprintf(fit.asked, sizeof fit.asked, "%zu", s->local);
    snprintf(fit.got, sizeof fit.got, "%zu", cc.lop[0]);
    clb_fit_record(env, &fit, "the operator's compiled kernels (and local memory) allow no more");
    if (fit.reduced) /* what ran: the fitted work-group */
        clb_appendf(sc, sizeof sc, ",local=%zu", cc.lop[0]);
    if ((rc = clb_case_add(g, &c, kernel_names[kind], "rhs=%d,links=%s,iters=%s%s", rhs, links,
                           it, sc)))
        return rc;
    clb_fit_note(c, &fit);
    double ai = lat_case_model(env, c);
    clb_case_note(c, "ai=%.3f mass=%g tol=%.0e %s", ai, s->mass, s->tol,
                  s->nfixed ? "fixed_iters" : "solved_in_setup");
    /* one iteration with every rhs iterating, by the model (dslash_model.c) */
    int sum = 0;
    for (int r = 0; r < rhs; r++)
        sum += cc.iters[r];
    double vh = (double)s->geom.vh;
    /* two operator applications (and halo exchanges) per iteration: what
     * `clbench model scaling` divides a solve by */
    clb_case_metric(c, "op_applications", 2.0 * cc.niter);
    clb_case_note(c, "applications=%d rhs_iterations=%d iter_bytes=%.0f iter_flops=%.0f",
                  cc.niter, sum, vh * clb_cg_bytes_site(1, rhs, 0, comp, s->es),
                  vh * clb_cg_flops_site(rhs, 0));
    if (cc.unconverged)
        clb_case_note(c, "%d rhs reached maxiter=%ld in the set-up solve", cc.unconverged,
                      s->maxiter);
    /* scaling=: the split, the halo bytes of one exchange (two per iteration:
     * the inputs of D_oe and D_eo) and its model */
    if (s->part.scaling && (rc = lat_halo_model(&s->part, c, cc.rhs, &cc.halo_model)))
        return rc;
    if (s->part.scaling)
        clb_case_note(c, "exchanges=%d per solve", 2 * cc.niter);
    *(struct cg_case *)c->data = cc;
    c->dims = 2;
    memcpy(c->local, cc.lop, sizeof cc.lop);
    memcpy(c->global, cc.gop, sizeof cc.gop);
    return CLB_OK;
}

/* Everything of set-up before the cases. */
static int setup_group(struct clb_env *env, struct clb_group *g, struct cg_state *s,
                       struct choice *ch)
{
    int rc = read_params(env, s, ch);
    if (rc || (rc = lat_setup_lattice(env, g, "cg", ch->rhs, ch->nrhs, &s->geom, &s->maxrhs,
                                      &s->part)))
        return rc;
    return cg_dev_alloc(env, s);
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct cg_state *s = g->state;
    s->dbl = clb_dtype_is_double(g->dtype);
    s->es = s->dbl ? 8 : 4;
    struct choice ch;
    int rc = setup_group(env, g, s, &ch);
    if (!lat_agree_setup(&s->part, &rc)) /* the solves are collective */
        return rc;
    if (s->part.scaling && (rc = cg_dev_sum_bb(s)))
        return rc;
    int kinds[2 + LAT_MAX_RHS], ks[2 + LAT_MAX_RHS];
    for (int comp = 0; comp < 2; comp++)
        for (int r = 0; r < ch.nrhs && (ch.links & (1u << comp)); r++) {
            int n = kernel_cases(&ch, (int)ch.rhs[r], kinds, ks);
            for (int i = 0; i < n && rc == CLB_OK; i++)
                rc = lat_agree_case("cg", s->part.scaling,
                                    add_case(env, g, kinds[i], ks[i], (int)ch.rhs[r], comp));
        }
    return rc;
}

/* Every field the solve writes is poisoned: a kernel that leaves x (or any
 * intermediate) unwritten cannot pass on an earlier case's solution. */
static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    (void)c;
    struct cg_state *s = g->state;
    s->hlog.n = 0;
    size_t vecb = cg_vec_len(&s->geom, s->maxrhs) * 2 * s->es;
    cl_mem bufs[] = {s->dx, s->dr, s->dp, s->dap, s->dt};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) {
        int rc = clb_poison(env->dev, bufs[i], vecb);
        if (rc)
            return rc;
    }
    return clb_poison(env->dev, s->dscal, 4 * (size_t)s->maxrhs * s->es);
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *smp)
{
    struct cg_state *s = g->state;
    if (!s->part.scaling)
        return cg_dev_solve(env, s, c->data, 0, NULL, &smp->first, &smp->last);
    /* scaling=: the whole distributed solve by the host clock (events cannot span MPI) */
    double t0 = clb_now();
    int rc = cg_dev_solve(env, s, c->data, 0, NULL, NULL, NULL);
    smp->seconds = clb_now() - t0;
    if (rc)
        return rc;
    return lat_log_add(&s->hlog, &s->solve_x, s->solve_reduce, smp->seconds,
                       s->solve_exchanges, "cg");
}

/* ---- verify --------------------------------------------------------------- */

/* Fixed mode: the residual a float64 CG reaches in the same iterations (the
 * host solve of every rhs, once per group). */
static int reference_residuals(struct cg_state *s, const struct cg_op *op)
{
    if (s->have_ref)
        return CLB_OK;
    size_t len = 2 * cg_vec_len(&s->geom, s->maxrhs);
    double *b64 = clb_xmalloc(len * sizeof *b64), *x64 = clb_xmalloc(len * sizeof *x64);
    int iters[CG_MAX_RHS], limit[CG_MAX_RHS], most = 0, rc = CLB_ESYS;
    for (int r = 0; r < s->maxrhs; r++) {
        limit[r] = (int)s->fixed[s->nfixed == 1 ? 0 : r];
        most = limit[r] > most ? limit[r] : most;
    }
    double bad = !b64 || !x64; /* scaling=: the host solve is every rank's */
    if (op->dist && clb_comm_allreduce(&bad, 1, CLB_MAX))
        bad = 1;
    if (!bad) {
        cg_to_f64(s->dbl, s->b, b64, len);
        rc = cg_host_solve(op, s->maxrhs, b64, x64, 0, most, limit, iters, s->ref_res);
    } else {
        clb_seterr("cg: " CLB_OOM " for the reference solve (this or another rank)");
    }
    free(b64);
    free(x64);
    s->have_ref = rc == CLB_OK;
    return rc;
}

/* The true residual |b - A x| / |b| of every rhs, from the solution read
 * back and the host's float64 operator, against the target: the larger of
 * tol and eps x the rhs's iterations (a solve to tol), and in fixed mode also
 * of what a float64 CG reaches in as many iterations; the device's own
 * residuals play no part. */
static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct cg_state *s = g->state;
    const struct cg_case *cc = c->data;
    int rhs = cc->rhs, rc;
    /* scaling=: every rank reaches the collective checks below, whatever its read gave */
    int own = clb_read(env->dev, s->dx, s->x, cg_vec_len(&s->geom, rhs) * 2 * s->es);
    if (own && !s->part.scaling)
        return own;
    struct cg_op op = {.g = &s->geom, .dbl = s->dbl, .fat = s->lk.fat, .lng = s->lk.full,
                       .m2 = s->mass * s->mass, .dist = s->part.scaling ? &s->part.dc : NULL,
                       .ext = &s->part.ge, .off = s->part.off};
    double rel[CG_MAX_RHS];
    if ((rc = cg_true_residual(&op, rhs, s->dbl, s->b, s->x, rel)))
        return rc;
    if (s->nfixed && (rc = reference_residuals(s, &op)))
        return rc;
    int packed = CLB_OK;
    if (s->part.scaling) {
        /* the last exchange of a solve sends t (D_oe p), which stays on the device */
        packed = lat_halo_check_pack(env, &s->part.halo, s->dt, rhs, c);
        if ((rc = lat_verify_halo(c, &s->hlog, cc->halo_model,
                                  packed == CLB_FAIL ? CLB_OK : packed)))
            return rc;
        if (own)
            return own;
    }
    /* per rhs: the true residual, and the device's recursive one at the end
     * of the set-up solve (solve to tol) or the float64 CG's (fixed mode) */
    struct clb_buf tr = {0}, other = {0};
    int bad = -1;
    double limit = 0;
    for (int r = 0; r < rhs; r++) {
        double target = s->tol, drift = (s->dbl ? EPS_DOUBLE : EPS_FLOAT) * cc->iters[r];
        if (drift > target)
            target = drift;
        if (s->nfixed && s->ref_res[r] > target)
            target = s->ref_res[r];
        clb_buf_printf(&tr, "%s%.2e", r ? ":" : "", rel[r]);
        clb_buf_printf(&other, "%s%.2e", r ? ":" : "", s->nfixed ? s->ref_res[r] : cc->rec_res[r]);
        if (!(rel[r] <= TRUE_RES_FACTOR * target) && bad < 0) {
            bad = r;
            limit = target;
        }
    }
    clb_case_note(c, "true_res=%s %s=%s", clb_buf_str(&tr), s->nfixed ? "fp64_cg_res" : "rec_res",
                  clb_buf_str(&other));
    clb_buf_free(&tr);
    clb_buf_free(&other);
    int fail = bad >= 0;
    if (fail)
        clb_case_note(c, "rhs %d: true residual |b - Ax|/|b| = %.2e above %.0f x %.1e (the "
                      "largest of tol, eps x %d iterations%s)", bad, rel[bad], TRUE_RES_FACTOR,
                      limit, cc->iters[bad], s->nfixed ? " and the float64 CG's residual" : "");
    if (cc->comp && lat_check_rebuild(c, s->dbl, s->lk.rebuild_err))
        fail = 1;
    return fail || packed == CLB_FAIL ? CLB_FAIL : CLB_OK;
}

/* ---- after the timed runs ---------------------------------------------------- */

/* The time per iteration, and one more solve with every launch timed: the
 * D_oe kernel's own Dslash rate inside the solve, the solve's rate over it
 * (of_dslash), and where the solve's time goes. */
static int measured(struct clb_env *env, struct clb_group *g, struct clb_case *c,
                    const struct clb_measure *m)
{
    struct cg_state *s = g->state;
    struct cg_case *cc = c->data;
    if (cc->niter > 0) {
        clb_case_note(c, "t_iter_us=%.2f", 1e6 * m->t.median / cc->niter);
        clb_case_metric(c, "t_iter_us", 1e6 * m->t.median / cc->niter);
    }
    if (clb_timer_untrusted(env)) { /* kernel by kernel only device timestamps can say */
        clb_case_note(c, "no per-kernel profile: it needs the device's event timestamps, which "
                      "are not trusted here");
        return CLB_OK;
    }
    struct cg_profile p;
    int rc = cg_dev_solve(env, s, cc, 0, &p, NULL, NULL);
    if (rc != CLB_OK) {
        clb_case_note(c, "profiled solve failed");
        return rc;
    }
    if (!(p.t[CGP_DOE] > 0) || !(p.wall > 0))
        return CLB_OK;
    double dgf = p.doe_flops / p.t[CGP_DOE] / 1e9;
    double busy = 0;
    for (int k = 0; k < CGP_N; k++)
        busy += p.t[k];
    /* both rates from the one profiled solve: noise between solves (a shared
     * CPU) stays out of the ratio */
    double solve = c->counts.flops / p.wall / 1e9;
    clb_case_note(c, "dslash_gflops=%.2f of_dslash=%.3f", dgf, solve / dgf);
    clb_case_metric(c, "dslash_gflops", dgf);
    clb_case_metric(c, "of_dslash", solve / dgf);
    clb_case_note(c, "time: D_oe %.0f%% apply %.0f%% vectors %.0f%% reductions %.0f%% gaps %.0f%%",
                  100 * p.t[CGP_DOE] / p.wall, 100 * p.t[CGP_APPLY] / p.wall,
                  100 * (p.t[CGP_UPD_R] + p.t[CGP_UPD_XP] + p.t[CGP_INIT]) / p.wall,
                  100 * p.t[CGP_REDUCE] / p.wall,
                  busy < p.wall ? 100 * (p.wall - busy) / p.wall : 0.0);
    if (s->part.scaling) /* the gaps hold the halo waits, the read-backs and the allreduces */
        clb_case_note(c, "of which halo waits %.0f%%", 100 * p.gap / p.wall);
    return CLB_OK;
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    struct cg_state *s = g->state;
    cg_dev_free(env, s);
    lat_log_free(&s->hlog);
}

/* ---- summary ------------------------------------------------------------------ */

/* Per (kernel, type, size, links): the solver's GFlop/s at each rhs, its
 * D_oe kernel's Dslash rate and of_dslash (both from the profiled solve),
 * and the speed-up over the same solver at 1 rhs (the talk: "multiple rhs
 * ... can easily speedup solver by 2.5"). */
static void summarize(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                      FILE *out)
{
    (void)ctx;
    lat_summarize_halo("cg", rows, n, out);
    int header = 0;
    for (size_t i = 0; i < n; i++) {
        char li[32], ri[8];
        clb_params_value(rows[i].params, "links", li, sizeof li);
        clb_params_value(rows[i].params, "rhs", ri, sizeof ri);
        if (strcmp(rows[i].status, "ok") || strcmp(ri, "1"))
            continue;
        for (size_t j = 0; j < n; j++) {
            char lj[32], rj[8], it[128];
            clb_params_value(rows[j].params, "links", lj, sizeof lj);
            clb_params_value(rows[j].params, "rhs", rj, sizeof rj);
            clb_params_value(rows[j].params, "iters", it, sizeof it);
            if (strcmp(rows[j].status, "ok") || strcmp(li, lj) ||
                strcmp(rows[i].kernel, rows[j].kernel) || strcmp(rows[i].dtype, rows[j].dtype) ||
                strcmp(rows[i].size, rows[j].size))
                continue;
            if (!header++)
                fprintf(out, "\ncg solver GFlop/s, over its own D_oe kernel's Dslash rate and over "
                             "1 rhs (the talk: multiple rhs speed the solver up by 2.5):\n");
            fprintf(out, "  %-5s %-6s %-12s links=%-10s rhs=%-2s iters=%-12s %9.2f GFlop/s  "
                         "D_oe %9.2f  of_dslash %5.2f  x%.2f of rhs 1\n",
                    rows[j].kernel, rows[j].dtype, rows[j].size, lj, rj, it, rows[j].gflops,
                    clb_row_metric(&rows[j], "dslash_gflops"),
                    clb_row_metric(&rows[j], "of_dslash"), rows[j].gflops / rows[i].gflops);
        }
    }
}

/* The cases setup will add: each kernel, rhs count and link layout. */
static int plan(struct clb_env *env, const char *dtype, const struct clb_size *size)
{
    (void)dtype;
    (void)size;
    struct cg_state st = {0};
    struct choice ch = {0};
    if (read_params(env, &st, &ch))
        return -1;
    int n = 0, kinds[2 + LAT_MAX_RHS], ks[2 + LAT_MAX_RHS];
    for (int r = 0; r < ch.nrhs; r++)
        n += kernel_cases(&ch, (int)ch.rhs[r], kinds, ks);
    return n * __builtin_popcount(ch.links); /* links: full, compressed */
}

/* The figure's model lines (struct clb_figure's `models`). */
static int figure_models(const struct clb_row *r, struct clb_figure_model *out, int max)
{
    return lat_figure_models(r, 1, out, max);
}

const struct clb_workload clb_wl_cg = {
    .name = "cg",
    .summary = "HISQ conjugate gradient solver (m^2 - D_eo D_oe) with multiple right-hand sides, "
               "in GFlop/s",
    .dtypes = "float,double",
    .default_dtypes = "float,double",
    .params = params,
    .row_keys = lat_row_keys,
    .size_help = "lattice LxxLyxLzxLt, every extent even and >= 4, e.g. 32x32x32x8 (default "
                 "64x64x64x16 on GPUs where it fits, 16x16x16x4 on CPUs; --quick 8x8x8x8)",
    .size_dims = 4,
    /* GPUs: the dslash workload's rule, the talk's largest lattice (its group,
     * 5.8 GB in fp32 with 8 rhs, reaches the 3 GiB floor). CPUs: the talk's
     * smallest, 16^3x4, where a solve takes about a second on 2 cores (its
     * working set may fit the CPU's last-level cache: the rows say so); a
     * solve is hundreds of operator applications, and the default suite must
     * stay within minutes there. */
    .sizes = {.quick = "8x8x8x8", .llc_times = 4, .floor_mib = {0, 3072},
              .cap_mib = {40, 0}, .ladder = lat_ladder},
    .baselines = "stream/triad,stream/copy",
    .state_size = sizeof(struct cg_state),
    .case_size = sizeof(struct cg_case),
    CLB_STEPS,
    .plan = plan,
    .check_size = lat_check_size,
    .prepare = prepare,
    .measured = measured,
    .summarize = summarize,
    .figure = {.x_param = "rhs", .x_label = "right-hand sides", .order = "reg,cache",
               .models = figure_models},
};
