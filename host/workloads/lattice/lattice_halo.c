/* lattice: the device side of the halo exchange and the sequence that
 * overlaps it with an operator kernel (see lattice_halo.h). */
#include "clb_workload.h"
#include "lattice_halo.h"

#include <stdlib.h>
#include <string.h>

#define XCHG_TAG 500

/* One exchange in flight. */
struct xchg {
    cl_event d2h, h2d;
    double t0, seconds;   /* begin; begin to the halos on the device (host clock) */
};

/* A pinned halo buffer (clb_pinned) whose bytes the exchange indexes. */
static int pinned(struct clb_env *env, size_t bytes, cl_mem *buf, unsigned char **ptr)
{
    void *p = *ptr;
    int rc = clb_pinned(env, bytes, "pinned halo buffer", buf, &p);
    *ptr = p;
    return rc;
}

int lat_halo_open(struct clb_env *env, struct lat_halo *h, const struct lat_decomp *d,
                  size_t es, int maxrhs)
{
    h->d = *d;
    h->es = es;
    h->maxrhs = maxrhs;
    struct lat_geom ext;
    int off[4];
    lat_decomp_geoms(d, &h->geom, &ext, off);
    lat_boxes_init(d, &h->in, &h->bd);
    cl_int err;
    h->qx = clCreateCommandQueue(env->dev->ctx, env->info->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) {
        h->qx = NULL;
        clb_seterr("clCreateCommandQueue (halo transfers): %s", clb_cl_errstr(err));
        return CLB_ECL;
    }
    h->pin_bytes = lat_halo_len(d, maxrhs) * 2 * es;
    int rc;
    if ((rc = clb_buffer(env->dev, CL_MEM_READ_WRITE, h->pin_bytes, &h->dhv)) ||
        (rc = pinned(env, h->pin_bytes, &h->pin_send, &h->psend)) ||
        (rc = pinned(env, h->pin_bytes, &h->pin_recv, &h->precv)))
        return rc;
    memset(h->psend, 0, h->pin_bytes);
    memset(h->precv, 0, h->pin_bytes);
    return CLB_OK;
}

/* Link halo slabs of direction mu (the three slices behind the part), both
 * parities: (q * ne + e) * slab + j, concatenated t then z. */
static int upload_links(struct clb_env *env, struct lat_halo *h, const struct lat_geom *ext,
                        const int off[4], void *links, int ne, cl_mem *out)
{
    size_t cplx = 2 * h->es, st = lat_slab_sites(&h->d, 3), sz = lat_slab_sites(&h->d, 2);
    size_t n = 2 * (size_t)ne * (st + sz) * cplx;
    unsigned char *pk = clb_xmalloc(n ? n : 1);
    if (!pk)
        return CLB_ESYS;
    unsigned char *dst = pk;
    for (int mu = 3; mu >= 2; mu--) {
        if (!h->d.dec[mu])
            continue;
        size_t slab = lat_slab_sites(&h->d, mu);
        for (int q = 0; q < 2; q++) {
            unsigned char *src = (unsigned char *)links +
                                 (size_t)(q * 4 + mu) * (size_t)ne * ext->vh * cplx;
            if (mu == 3)
                lat_box_copy(ext, off[2], h->d.L[2], 0, LAT_HALO, (size_t)ne, cplx, src,
                             dst, 0);
            else
                lat_box_copy(ext, 0, LAT_HALO, off[3], h->d.L[3], (size_t)ne, cplx, src,
                             dst, 0);
            dst += (size_t)ne * slab * cplx;
        }
    }
    int rc = clb_buffer(env->dev, CL_MEM_READ_ONLY, n ? n : cplx, out);
    if (rc == CLB_OK && n)
        rc = clb_write(env->dev, *out, pk, n);
    free(pk);
    return rc;
}

int lat_halo_links(struct clb_env *env, struct lat_halo *h, const struct lat_geom *ext,
                   const int off[4], void *fat, void *full, void *comp)
{
    int rc;
    if ((rc = upload_links(env, h, ext, off, fat, 9, &h->dhfat)) ||
        (rc = upload_links(env, h, ext, off, full, LAT_NE_FULL, &h->dhlng[0])) ||
        (rc = upload_links(env, h, ext, off, comp, LAT_NE_COMPRESSED, &h->dhlng[1])))
        return rc;
    return CLB_OK;
}

int lat_upload_part(struct clb_env *env, const struct lat_halo *h,
                    const struct lat_geom *ext, const int off[4], const void *field,
                    size_t ncomp, size_t cplx, cl_mem_flags flags, cl_mem *out)
{
    size_t n = ncomp * h->geom.vh * cplx;
    void *tmp = clb_xmalloc(n);
    if (!tmp)
        return CLB_ESYS;
    lat_box_copy(ext, off[2], h->geom.L[2], off[3], h->geom.L[3], ncomp, cplx, (void *)field,
                 tmp, 0);
    int rc = clb_buffer(env->dev, flags, n, out);
    if (rc == CLB_OK)
        rc = clb_write(env->dev, *out, tmp, n);
    free(tmp);
    return rc;
}

void lat_halo_close(struct clb_env *env, struct lat_halo *h)
{
    if (h->qx) {
        clb_finish(h->qx); /* flushed: not clFinish alone (Rusticl) */
        clReleaseCommandQueue(h->qx);
        h->qx = NULL;
    }
    cl_mem pins[2] = {h->pin_send, h->pin_recv};
    unsigned char *ptrs[2] = {h->psend, h->precv};
    for (int i = 0; i < 2; i++)
        if (pins[i] && ptrs[i] &&
            clEnqueueUnmapMemObject(env->dev->queue, pins[i], ptrs[i], 0, NULL, NULL) ==
                CL_SUCCESS)
            clFinish(env->dev->queue);
    h->psend = h->precv = NULL;
    cl_mem *bufs[] = {&h->dhv, &h->dhfat, &h->dhlng[0], &h->dhlng[1], &h->pin_send, &h->pin_recv};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        clb_release_mems(bufs[i], 1);
}

size_t lat_halo_bytes(const struct lat_halo *h, int rhs)
{
    return lat_halo_len(&h->d, rhs) * 2 * h->es;
}

static void xchg_release(struct xchg *x)
{
    if (x->d2h)
        clReleaseEvent(x->d2h);
    if (x->h2d)
        clReleaseEvent(x->h2d);
    x->d2h = x->h2d = NULL;
}

/* The first step (lattice_halo.h): the slabs to send on their way to the host. */
static int xchg_begin(struct clb_env *env, struct lat_halo *h, cl_mem field, int rhs,
                      struct xchg *x)
{
    memset(x, 0, sizeof *x);
    x->t0 = clb_now();
    size_t cplx = 2 * h->es, vh = h->geom.vh;
    size_t row = (size_t)(h->d.L[0] / 2) * (size_t)h->d.L[1] * cplx; /* x and y of one (z, t) */
    cl_event mk = NULL;
    /* the field is final once everything before on the main queue is done */
    CLB_CHECK(clEnqueueMarkerWithWaitList(env->dev->queue, 0, NULL, &mk),
              "clEnqueueMarkerWithWaitList (halo)");
    clFlush(env->dev->queue);
    cl_int err = CL_SUCCESS;
    for (int mu = 3; mu >= 2 && err == CL_SUCCESS; mu--) {
        if (!h->d.dec[mu])
            continue;
        int L = h->d.L[mu], lz = h->d.L[2], lt = h->d.L[3];
        for (int side = 0; side < 2 && err == CL_SUCCESS; side++) {
            /* the slab sent to become the neighbour's halo on `side`: our last three
             * slices for its backward halo, our first three for its forward one */
            size_t first = side == 0 ? (size_t)(L - LAT_HALO) : 0;
            unsigned char *dst = h->psend + lat_halo_offset(&h->d, rhs, mu, side) * cplx;
            size_t slab = lat_slab_sites(&h->d, mu);
            size_t bo[3], ho[3] = {0, 0, 0}, region[3];
            size_t brow, bslice, hrow, hslice;
            if (mu == 3) {
                /* per vector: one contiguous run of three t slices */
                bo[0] = first * (size_t)lz * row;
                bo[1] = bo[2] = 0;
                region[0] = slab * cplx;
                region[1] = 3 * (size_t)rhs;
                region[2] = 1;
                brow = vh * cplx;
                bslice = 0;
                hrow = slab * cplx;
                hslice = 0;
            } else {
                /* per vector and t: a run of three z lines */
                bo[0] = first * row;
                bo[1] = bo[2] = 0;
                region[0] = LAT_HALO * row;
                region[1] = (size_t)lt;
                region[2] = 3 * (size_t)rhs;
                brow = (size_t)lz * row;
                bslice = vh * cplx;
                hrow = LAT_HALO * row;
                hslice = slab * cplx;
            }
            if (x->d2h)
                clReleaseEvent(x->d2h);
            x->d2h = NULL;
            err = clEnqueueReadBufferRect(h->qx, field, CL_FALSE, bo, ho, region, brow, bslice,
                                          hrow, hslice, dst, 1, &mk, &x->d2h);
        }
    }
    clReleaseEvent(mk);
    if (err != CL_SUCCESS) {
        clb_seterr("clEnqueueReadBufferRect (halo to the host): %s", clb_cl_errstr(err));
        return CLB_ECL;
    }
    clFlush(h->qx);
    return CLB_OK;
}

/* Always called after begin (also after its error): err is the error so far
 * (then no more OpenCL work, but the messages). x->h2d is set on success. */
static int xchg_finish(struct lat_halo *h, int rhs, struct xchg *x, int err)
{
    int rc = err;
    if (rc == CLB_OK && x->d2h) {
        cl_int e = clWaitForEvents(1, &x->d2h);
        if (e != CL_SUCCESS) {
            clb_seterr("clWaitForEvents (halo to the host): %s", clb_cl_errstr(e));
            rc = CLB_ECL;
        }
    }
    /* the messages, whatever happened before: the peers wait for them */
    size_t cplx = 2 * h->es;
    struct clb_comm_req *req[8] = {0};
    int nreq = 0, mrc = CLB_OK;
    for (int mu = 3; mu >= 2; mu--) {
        if (!h->d.dec[mu])
            continue;
        size_t n = 3 * (size_t)rhs * lat_slab_sites(&h->d, mu) * cplx;
        for (int side = 0; side < 2; side++) {
            size_t o = lat_halo_offset(&h->d, rhs, mu, side) * cplx;
            int to = h->d.nb[mu][1 - side], from = h->d.nb[mu][side];
            if (to == h->d.rank && from == h->d.rank) {
                memcpy(h->precv + o, h->psend + o, n);
                continue;
            }
            int e = clb_comm_irecv(h->precv + o, n, from, XCHG_TAG + 2 * mu + side, &req[nreq++]);
            if (e == CLB_OK)
                e = clb_comm_isend(h->psend + o, n, to, XCHG_TAG + 2 * mu + side, &req[nreq++]);
            if (e && mrc == CLB_OK)
                mrc = e;
        }
    }
    int e = clb_comm_waitall(req, nreq);
    if (mrc == CLB_OK)
        mrc = e;
    if (rc == CLB_OK)
        rc = mrc;
    if (rc != CLB_OK)
        return rc;
    cl_int ce = clEnqueueWriteBuffer(h->qx, h->dhv, CL_FALSE, 0, lat_halo_bytes(h, rhs),
                                     h->precv, 0, NULL, &x->h2d);
    if (ce != CL_SUCCESS) {
        x->h2d = NULL;
        clb_seterr("clEnqueueWriteBuffer (halo to the device): %s", clb_cl_errstr(ce));
        return CLB_ECL;
    }
    clFlush(h->qx);
    return CLB_OK;
}

/* The command to wait for x->h2d on the main queue (before a boundary launch). */
static int xchg_barrier(struct clb_env *env, struct xchg *x)
{
    CLB_CHECK(clEnqueueBarrierWithWaitList(env->dev->queue, 1, &x->h2d, NULL),
              "clEnqueueBarrierWithWaitList (halo)");
    return CLB_OK;
}

/* Wait for the halos on the device, x->seconds; releases the events. */
static int xchg_wait(struct xchg *x)
{
    int rc = CLB_OK;
    if (x->h2d) {
        cl_int e = clWaitForEvents(1, &x->h2d);
        if (e != CL_SUCCESS) {
            clb_seterr("clWaitForEvents (halo to the device): %s", clb_cl_errstr(e));
            rc = CLB_ECL;
        }
    }
    x->seconds = clb_now() - x->t0;
    xchg_release(x);
    return rc;
}

/* A blocking copy timed by its event, or on the host clock where the
 * device's events are not trusted (wall: 1). */
static int timed_copy(cl_command_queue q, int d2h, cl_mem buf, void *host, size_t n, int wall,
                      double *s)
{
    cl_event ev = NULL;
    double t0 = clb_now();
    cl_int e = d2h ? clEnqueueReadBuffer(q, buf, CL_TRUE, 0, n, host, 0, NULL, &ev)
                   : clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, n, host, 0, NULL, &ev);
    if (e != CL_SUCCESS) {
        clb_seterr("%s (halo bus probe): %s", d2h ? "clEnqueueReadBuffer" : "clEnqueueWriteBuffer",
                   clb_cl_errstr(e));
        return CLB_ECL;
    }
    int rc = wall ? clb_event_wall(ev, t0, s) : clb_event_seconds(ev, ev, s);
    clReleaseEvent(ev);
    return rc;
}

int lat_halo_bus(struct clb_env *env, struct lat_halo *h, int rhs, double gbps[2])
{
    int wall = clb_timer_untrusted(env) != NULL;
    size_t n = lat_halo_bytes(h, rhs);
    gbps[0] = gbps[1] = NAN;
    if (!n)
        return CLB_OK;
    for (int dir = 0; dir < 2; dir++) {
        double s;
        int rc;
        for (int k = 0; k < 2; k++)
            if ((rc = timed_copy(h->qx, dir == 0, h->dhv, dir == 0 ? h->psend : h->precv, n, wall,
                                 &s)))
                return rc;
        gbps[dir] = s > 0 ? (double)n / s / 1e9 : NAN;
    }
    return CLB_OK;
}

void lat_halo_kargs(const struct lat_halo *h, int rhs, cl_int4 *geo, cl_int4 *dist,
                    cl_uint4 *hs)
{
    memset(geo, 0, sizeof *geo);
    memset(dist, 0, sizeof *dist);
    memset(hs, 0, sizeof *hs);
    geo->s[0] = h->d.L[0] / 2;
    geo->s[1] = h->d.L[1];
    geo->s[2] = h->d.L[2];
    geo->s[3] = h->d.L[3];
    dist->s[0] = h->d.po;
    dist->s[1] = h->d.dec[2];
    dist->s[2] = h->d.dec[3];
    dist->s[3] = rhs;
    hs->s[0] = (cl_uint)h->geom.vh;
    hs->s[1] = (cl_uint)lat_slab_sites(&h->d, 2);
    hs->s[2] = (cl_uint)lat_slab_sites(&h->d, 3);
}

static void box_kargs(const struct lat_boxes *b, cl_int4 box[4], cl_uint4 *ends)
{
    memset(box, 0, 4 * sizeof *box);
    memset(ends, 0, sizeof *ends);
    for (int k = 0; k < 4; k++) {
        for (int q = 0; q < 4 && k < b->n; q++)
            box[k].s[q] = b->b[k][q];
        if (k >= b->n)
            box[k].s[1] = box[k].s[3] = 1; /* never reached: ends repeat the total */
        ends->s[k] = (cl_uint)b->ends[k];
    }
}

int lat_box_args(cl_kernel k, cl_uint first, const struct lat_boxes *b)
{
    cl_int4 box[4];
    cl_uint4 ends;
    box_kargs(b, box, &ends);
    for (cl_uint i = 0; i < 4; i++)
        CLB_CHECK(clSetKernelArg(k, first + i, sizeof box[i], &box[i]), "clSetKernelArg(box)");
    CLB_CHECK(clSetKernelArg(k, first + 4, sizeof ends, &ends), "clSetKernelArg(ends)");
    return CLB_OK;
}

/* Seconds from the end of event a to the start of event b (both complete),
 * 0 when b started first. */
static double gap_seconds(cl_event a, cl_event b)
{
    cl_ulong end = 0, start = 0;
    if (!a || !b ||
        clGetEventProfilingInfo(a, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) !=
            CL_SUCCESS ||
        clGetEventProfilingInfo(b, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) !=
            CL_SUCCESS)
        return NAN;
    return start > end ? (double)(start - end) * 1e-9 : 0.0;
}

/* ---- one application, the exchange overlapped ---------------------------- */

int lat_halo_overlap(struct clb_env *env, struct lat_halo *h, cl_mem field, int rhs,
                     lat_launch_fn launch, void *ctx, int err, struct lat_overlap *o)
{
    struct xchg x;
    memset(&x, 0, sizeof x);
    memset(o, 0, sizeof *o);
    x.t0 = clb_now();
    int rc = err;
    if (rc == CLB_OK)
        rc = xchg_begin(env, h, field, rhs, &x);
    if (rc == CLB_OK && h->in.sites)
        rc = launch(env, ctx, &h->in, 0, &o->in);
    if (rc == CLB_OK)
        clFlush(env->dev->queue);
    int e = xchg_finish(h, rhs, &x, rc);
    rc = rc ? rc : e;
    if (rc == CLB_OK)
        rc = xchg_barrier(env, &x);
    if (rc == CLB_OK)
        rc = launch(env, ctx, &h->bd, 1, &o->bd);
    if (rc == CLB_OK)
        clFlush(env->dev->queue);
    e = xchg_wait(&x);
    o->halo = x.seconds;
    return rc ? rc : e;
}

double lat_overlap_gap(const struct lat_overlap *o)
{
    return o->in ? gap_seconds(o->in, o->bd) : o->halo;
}

void lat_overlap_release(struct lat_overlap *o)
{
    if (o->in)
        clReleaseEvent(o->in);
    if (o->bd)
        clReleaseEvent(o->bd);
    o->in = o->bd = NULL;
}

void lat_note_part(struct clb_case *c, const struct lat_decomp *p,
                   const struct lat_halo *h)
{
    clb_case_note(c, "ranks=%d grid=1x1x%dx%d part=%dx%dx%dx%d@%d,%d,%d,%d/%dx%dx%dx%d "
                  "halo_dirs=%s%s%s sites_interior=%zu sites_boundary=%zu", p->size, p->P[2],
                  p->P[3], p->L[0], p->L[1], p->L[2], p->L[3], p->O[0], p->O[1], p->O[2], p->O[3],
                  p->G[0], p->G[1], p->G[2], p->G[3], p->dec[2] ? "z" : "",
                  p->dec[2] && p->dec[3] ? "," : "", p->dec[3] ? "t" : "", h->in.sites,
                  h->bd.sites);
}

/* The value of key in a params text ("rhs=4,scaling=weak,grid=1x1x1x2"). */
void lat_param_text(const char *params, const char *key, char *out, size_t n)
{
    size_t kl = strlen(key);
    out[0] = 0;
    for (const char *p = params; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, key, kl) && p[kl] == '=') {
            size_t len = strcspn(p + kl + 1, ",");
            snprintf(out, n, "%.*s", (int)(len < n ? len : n - 1), p + kl + 1);
            return;
        }
}

void lat_metric_halo(struct clb_case *c, double hal, double gap, double frac,
                        const double mx[3])
{
    clb_case_metric(c, "halo_ms", 1e3 * hal);
    clb_case_metric(c, "halo_exposed_ms", 1e3 * gap);
    clb_case_metric(c, "halo_exposed_frac", frac);
    clb_case_metric(c, "halo_ms_max", 1e3 * mx[0]);
    clb_case_metric(c, "halo_exposed_ms_max", 1e3 * mx[1]);
    clb_case_metric(c, "halo_exposed_frac_max", mx[2]);
}

void lat_summarize_halo(const char *wl, const struct clb_row *rows, size_t n, FILE *out)
{
    int header = 0;
    for (size_t i = 0; i < n; i++) {
        const struct clb_row *r = &rows[i];
        char sc[16], grid[48], rhs[8];
        lat_param_text(r->params, "scaling", sc, sizeof sc);
        if (!sc[0] || strcmp(r->status, "ok"))
            continue;
        lat_param_text(r->params, "grid", grid, sizeof grid);
        lat_param_text(r->params, "rhs", rhs, sizeof rhs);
        double t = r->t_median_s, hal = clb_row_metric(r, "halo_ms_max");
        double model = clb_row_metric(r, "halo_model_ms");
        double gap = clb_row_metric(r, "halo_exposed_ms_max");
        double frac = clb_row_metric(r, "halo_exposed_frac_max");
        if (!header++)
            fprintf(out, "\n%s across ranks (scaling=): per %s, the time; the halo exchanges "
                         "(host clock) and their model (halo bytes / pinned bus GB/s); the time "
                         "the boundary kernels waited for them (exposed) and its share of the "
                         "time (the slowest rank's medians). Efficiency: docs/SCALING.md "
                         "(clbench compare of a 1-rank and an N-rank run)\n",
                    wl, strcmp(wl, "cg") ? "application" : "solve");
        fprintf(out, "  %-5s %-6s %-12s rhs=%-2s %-6s grid=%-9s %10.4g ms  halo %9.4g ms (model "
                     "%9.4g)  exposed %9.4g ms = %5.1f%%\n", r->kernel, r->dtype, r->size, rhs,
                sc, grid, 1e3 * t, hal, model, gap, 100 * frac);
    }
}
