/* dslash, cg: the pieces of the workloads' hooks that both use (see lattice_wl.h). */
#include "lattice_wl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- sizes and counts ---------------------------------------------------- */

int lat_check_size(const struct clb_size *s)
{
    int bad = lat_bad_extent(s->d);
    if (bad)
        clb_seterr("bad lattice extent %zu in direction %c (every extent must be even, for the "
                   "even/odd split, and >= 4, for the three-hop links; e.g. 16x16x16x8)",
                   s->d[bad - 1], "xyzt"[bad - 1]);
    return bad ? CLB_EUSAGE : CLB_OK;
}

int lat_ladder(int i, char *out, size_t n)
{
    static const char *const lattices[] = {"16x16x16x4", "32x32x32x8", "48x48x48x12",
                                           "64x64x64x16"};
    if (i < 0 || i >= 4)
        return 0;
    snprintf(out, n, "%s", lattices[i]);
    return 1;
}

int lat_count_start(const struct clb_query *q, const char *wl, struct lat_qsize *z)
{
    z->es = clb_query_esize(q);
    if (z->es != 4 && z->es != 8)
        return clb_eusage("%s types are float and double, not '%s'", wl, q->dtype);
    int scaling;
    size_t L[4], Le[4];
    int rc = lat_query_part(q, &scaling, L, Le);
    if (rc)
        return rc;
    /* a rank's part (scaling=; its whole lattice otherwise); the group's memory
     * holds the part with its halos */
    const size_t *ext = q->kernel ? L : Le;
    z->ovf = 0;
    z->vh = clb_mulz(clb_mulz(ext[0], ext[1], &z->ovf), clb_mulz(ext[2], ext[3], &z->ovf),
                     &z->ovf) / 2;
    z->site = clb_mulz(z->vh, 2 * z->es, &z->ovf); /* bytes of one complex number per site */
    z->fat = clb_mulz(z->site, LAT_FAT_C, &z->ovf);
    return CLB_OK;
}

int lat_count_group(const struct clb_query *q, struct lat_qsize *z, long max, size_t nvec,
                    struct clb_counts *out)
{
    long rhs[64];
    char err[512];
    int n = clb_parse_int_list(clb_query_param(q, "rhs", ""), 1, max, rhs, 64, err, sizeof err);
    long maxrhs = n > 0 ? 1 : max;
    for (int i = 0; i < n; i++)
        maxrhs = rhs[i] > maxrhs ? rhs[i] : maxrhs;
    size_t vec = clb_mulz(z->site, LAT_VEC_C * (size_t)maxrhs, &z->ovf);
    size_t all = clb_mulz(z->site, LAT_FAT_C + LAT_FULL_C + LAT_COMP_C +
                                       nvec * LAT_VEC_C * (size_t)maxrhs,
                          &z->ovf);
    return clb_count_done(q, z->ovf, out, all, 0, all, z->fat > vec ? z->fat : vec,
                          CLB_UNIT_GFLOPS);
}

int lat_query_rhs(const struct clb_query *q, long max, long *rhs)
{
    const char *v = clb_query_param(q, "rhs", "1");
    char err[512];
    if (clb_parse_int_list(v, 1, max, rhs, 1, err, sizeof err) != 1)
        return clb_eusage("rhs=%s is not one count of right-hand sides in 1..%ld", v, max);
    return CLB_OK;
}

int lat_query_links(const struct clb_query *q, int *comp)
{
    const char *links = clb_query_param(q, "links", "compressed");
    if (strcmp(links, "full") && strcmp(links, "compressed"))
        return clb_eusage("links=%s (known: full, compressed)", links);
    *comp = strcmp(links, "compressed") == 0;
    return CLB_OK;
}

int lat_count_case(const struct clb_query *q, struct lat_qsize *z, int comp, size_t nvec,
                   long rhs, double bytes_site, double flops_site, struct clb_counts *out)
{
    size_t bytes = clb_mulz(z->vh, (size_t)bytes_site, &z->ovf);
    size_t flops = clb_mulz(z->vh, (size_t)flops_site, &z->ovf);
    size_t touched = clb_mulz(z->site, LAT_FAT_C + (comp ? LAT_COMP_C : LAT_FULL_C) +
                                           nvec * LAT_VEC_C * (size_t)rhs,
                              &z->ovf);
    return clb_count_done(q, z->ovf, out, bytes, flops, touched, z->fat, CLB_UNIT_GFLOPS);
}

/* ---- parameters and set-up ------------------------------------------------- */

int lat_param_rhs(struct clb_env *env, long max, const long *def, int ndef, long rhs[16],
                  int *nrhs)
{
    if (clb_param(env, "rhs")[0])
        return clb_param_ints(env, "rhs", 1, max, rhs, 16, nrhs);
    *nrhs = ndef;
    memcpy(rhs, def, (size_t)ndef * sizeof *rhs);
    return CLB_OK;
}

int lat_setup_lattice(struct clb_env *env, struct clb_group *g, const char *wl, const long *rhs,
                      int nrhs, struct lat_geom *geom, int *maxrhs, struct lat_part *pt)
{
    int L[4];
    for (int k = 0; k < 4; k++)
        L[k] = (int)g->size.d[k];
    lat_geom_init(geom, L);
    pt->ge = *geom;
    pt->scaling = lat_scaling_of(clb_param(env, "scaling"));
    if (pt->scaling) { /* the message (exit 2) when the lattice cannot be split */
        int P[4];
        int rc = lat_grid(wl, g->size.d, pt->scaling, clb_comm()->size,
                          clb_param(env, "grid"), P);
        if (rc)
            return rc;
        lat_decomp_init(&pt->dc, g->size.d, pt->scaling, P, clb_comm()->rank);
        lat_decomp_geoms(&pt->dc, geom, &pt->ge, pt->off);
    }
    for (int i = 0; i < nrhs; i++)
        if (rhs[i] > *maxrhs)
            *maxrhs = (int)rhs[i];
    /* the kernels index with 32-bit integers (the host fields with halos are larger) */
    if (pt->ge.vh * 8 * 9 >= UINT32_MAX || pt->ge.vh * 3 * (size_t)*maxrhs >= UINT32_MAX)
        return clb_eusage("%s: lattice %s too large (at most 2^32 complex numbers per field)", wl,
                          g->size_text);
    return CLB_OK;
}

int lat_agree_case(const char *wl, int scaling, int rc)
{
    if (scaling <= 0)
        return rc;
    double bad = rc != CLB_OK;
    int e = clb_comm_allreduce(&bad, 1, CLB_MAX);
    if (e)
        return e;
    if (bad && rc == CLB_OK)
        return clb_err(CLB_SKIP, "%s: set-up failed on another rank", wl);
    return rc;
}

/* scaling=: the links of the part with its halos, from the global site index. */
static int links_part(struct clb_env *env, struct lat_part *pt, int dbl, int maxrhs,
                      struct lat_links *lk)
{
    size_t es = dbl ? 8 : 4, cplx = 2 * es;
    int oe[4], rc;
    for (int k = 0; k < 4; k++)
        oe[k] = pt->dc.O[k] - pt->off[k];
    lat_fill_global(&pt->ge, pt->dc.G, oe, dbl, lk->fat, lk->full, lk->comp, 0, 0, 0, NULL);
    lk->rebuild_err = lat_rebuild_error(&pt->ge, dbl, lk->full, lk->comp);
    if ((rc = lat_halo_open(env, &pt->halo, &pt->dc, es, maxrhs, pt->policy, pt->chunk)))
        return rc;
    pt->halo_open = 1;
    const struct lat_halo *h = &pt->halo;
    cl_mem_flags ro = CL_MEM_READ_ONLY;
    if ((rc = lat_upload_part(env, h, &pt->ge, pt->off, lk->fat, 8 * 9, cplx, ro, &lk->dfat)) ||
        (rc = lat_upload_part(env, h, &pt->ge, pt->off, lk->full, 8 * 9, cplx, ro, &lk->dfull)) ||
        (rc = lat_upload_part(env, h, &pt->ge, pt->off, lk->comp, 8 * 7, cplx, ro, &lk->dcomp)))
        return rc;
    return lat_halo_links(env, &pt->halo, &pt->ge, pt->off, lk->fat, lk->full, lk->comp);
}

int lat_links_open(struct clb_env *env, struct lat_part *pt, int dbl, int maxrhs,
                   struct lat_links *lk)
{
    /* the group's count checked that these fit */
    size_t vh = pt->ge.vh, cplx = dbl ? 16 : 8;
    size_t linkb = 8 * 9 * vh * cplx, compb = 8 * 7 * vh * cplx;
    lk->fat = clb_xmalloc(linkb);
    lk->full = clb_xmalloc(linkb);
    lk->comp = clb_xmalloc(compb);
    if (!lk->fat || !lk->full || !lk->comp)
        return CLB_ESYS;
    if (pt->scaling)
        return links_part(env, pt, dbl, maxrhs, lk);
    clb_fill(lk->fat, 8 * 9 * vh * 2, dbl, LAT_SEED_FAT);
    lat_fill_long(&pt->ge, dbl, lk->full, lk->comp);
    lk->rebuild_err = lat_rebuild_error(&pt->ge, dbl, lk->full, lk->comp);
    int rc;
    if ((rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, linkb, &lk->dfat)) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, linkb, &lk->dfull)) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, compb, &lk->dcomp)) ||
        (rc = clb_write(env->dev, lk->dfat, lk->fat, linkb)) ||
        (rc = clb_write(env->dev, lk->dfull, lk->full, linkb)) ||
        (rc = clb_write(env->dev, lk->dcomp, lk->comp, compb)))
        return rc;
    return CLB_OK;
}

void lat_links_close(struct clb_env *env, struct lat_part *pt, struct lat_links *lk)
{
    if (pt->halo_open)
        lat_halo_close(env, &pt->halo);
    cl_mem *bufs[] = {&lk->dfat, &lk->dfull, &lk->dcomp};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        clb_release_mems(bufs[i], 1);
    free(lk->fat);
    free(lk->full);
    free(lk->comp);
}

/* ---- cases ----------------------------------------------------------------- */

const struct clb_param_def lat_row_keys[] = {
    {"part", NULL, "this rank's part of the lattice (scaling=): derived from the size, the grid "
                   "and the scaling", CLB_ROLE_RANK_PART},
    {0, 0, 0, 0}};

void lat_program_options(const char *dtype, int per, int comp, char *opts, size_t n)
{
    clb_dtype_defines(dtype, opts, n);
    clb_appendf(opts, n, " -DRHS=%d%s", per, comp ? " -DCOMPRESSED=1" : "");
}

int lat_regcache_ks(const long *ks, int nk, int rhs, int out[LAT_MAX_RHS])
{
    int n = 0;
    for (int k = 2; k < rhs && k <= LAT_MAX_RHS; k++) {
        int asked = nk == 0;
        for (int i = 0; i < nk; i++)
            asked |= ks[i] == k;
        if (asked && rhs % k == 0)
            out[n++] = k;
    }
    return n;
}

void lat_part_params(const struct lat_part *pt, char *out, size_t n)
{
    const struct lat_decomp *p = &pt->dc;
    out[0] = 0;
    if (!pt->scaling)
        return;
    snprintf(out, n, ",scaling=%s,grid=1x%dx%dx%d,part=%dx%dx%dx%d", lat_scaling_name(pt->scaling),
             p->P[1], p->P[2], p->P[3], p->L[0], p->L[1], p->L[2], p->L[3]);
    /* another chain than the default, or another chunk, is another line:
     * its rows must not read as the default's (the default's keep their params) */
    if (pt->policy > LAT_XC_PIPE && pt->policy < LAT_XC_N)
        clb_appendf(out, n, ",exchange=%s", lat_xc_names[pt->policy]);
    if (pt->policy != LAT_XC_BULK && pt->chunk != LAT_DEFAULT_CHUNK_KIB * 1024)
        clb_appendf(out, n, ",chunk=%zu", pt->chunk / 1024);
}

/* The profile's measured STREAM triad GB/s ([model] stream_triad_gbs), NAN
 * when it has none; *bad set when it has one that is not a positive number. */
static double profile_triad(const struct clb_profile *p, int *bad)
{
    const char *t = clb_profile_model(p, "stream_triad_gbs");
    *bad = 0;
    if (!t)
        return NAN;
    char *end;
    double v = strtod(t, &end);
    while (*end == ' ')
        end++;
    *bad = end == t || *end || !(v > 0) || !isfinite(v);
    return *bad ? NAN : v;
}

double lat_case_model(struct clb_env *env, struct clb_case *c)
{
    /* the estimate of [Wagner15]: bandwidth x intensity, "better use STREAM triad
     * bandwidth" (slide 9): the profile's measured triad where it has one,
     * else its peak */
    int bad;
    double ai = c->counts.flops / c->counts.bytes, peak = env->profile->peak_bandwidth_gbs;
    double triad = profile_triad(env->profile, &bad);
    const char *src = clb_profile_model(env->profile, "stream_source");
    if (!isnan(triad)) {
        c->model = triad * ai;
        clb_case_note(c, "model: stream_triad_gbs %.4g x ai (profile [model]%s%s)", triad,
                      src ? ": " : "", src ? src : "");
    } else if (!isnan(peak) && peak > 0) {
        c->model = peak * ai;
        clb_case_note(c, "model: peak_bandwidth_gbs %.4g x ai (%s)", peak,
                      bad ? "the profile's stream_triad_gbs is not a positive number"
                          : "no stream_triad_gbs in the profile");
    }
    return ai;
}

int lat_check_rebuild(struct clb_case *c, int dbl, double err)
{
    double rtol = dbl ? 1e-12 : 1e-5;
    clb_case_note(c, "rebuild_err=%.1e", err);
    clb_case_metric(c, "rebuild_err", err);
    if (!(err < rtol)) {
        clb_case_note(c, "compressed long links do not rebuild the stored ones");
        return 1;
    }
    return 0;
}

int lat_figure_models(const struct clb_row *r, int cg, struct clb_figure_model *out, int max)
{
    double rhs = clb_row_param(r, "rhs");
    size_t es = clb_dtype_size(r->dtype);
    char links[16];
    clb_params_value(r->params, "links", links, sizeof links);
    int comp = !strcmp(links, "compressed");
    if (!(rhs >= 1 && rhs <= 1024) || rhs != floor(rhs) || (es != 4 && es != 8) || max < 2 ||
        (!comp && strcmp(links, "full")))
        return 0;
    static const char *const names[2] = {"no cache", "perfect vector cache (15/16 hits)"};
    for (int k = 0; k < 2; k++) {
        double hit = k ? 15.0 / 16 : 0;
        snprintf(out[k].name, sizeof out[k].name, "%s", names[k]);
        out[k].flop_per_byte = cg ? clb_cg_intensity_hit((int)rhs, hit, comp, es)
                                  : clb_dslash_intensity((int)rhs, hit, comp, es);
    }
    return 2;
}
