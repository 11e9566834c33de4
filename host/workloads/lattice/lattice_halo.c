/* lattice: the device side of the halo exchange (lattice_halo.h): its
 * buffers, queues and pack kernel, the link halos, the bus probes, the pack
 * check, the kernel arguments and the halo figures. The sequence that
 * overlaps an exchange with an operator kernel is lattice_xchg.c's. */
#include "clb_workload.h"
#include "lattice_halo.h"

#include <stdlib.h>
#include <string.h>

/* A pinned halo buffer (clb_pinned) whose bytes the exchange indexes. */
static int pinned(struct clb_env *env, size_t bytes, cl_mem *buf, unsigned char **ptr)
{
    void *p = *ptr;
    int rc = clb_pinned(env, bytes, "pinned halo buffer", buf, &p);
    *ptr = p;
    return rc;
}

static int new_queue(struct clb_env *env, cl_command_queue *q, const char *what)
{
    cl_int err;
    *q = clCreateCommandQueue(env->dev->ctx, env->info->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) {
        *q = NULL;
        return clb_err(CLB_ECL, "clCreateCommandQueue (%s): %s", what, clb_cl_errstr(err));
    }
    return CLB_OK;
}

/* The pack kernel for the element type, and its work-group size (GPUs: 128
 * where the kernel allows; else the driver's). */
static int build_pack(struct clb_env *env, struct lat_halo *h)
{
    char opts[128];
    clb_dtype_defines(h->es == 8 ? "double" : "float", opts, sizeof opts);
    clb_appendf(opts, sizeof opts, " -DRHS=1");
    int rc = clb_kernel(env->dev, "dslash", opts, "halo_pack", &h->pack);
    if (rc)
        return rc;
    size_t kmax = 0;
    h->pack_local = strcmp(env->info->type_name, "gpu") == 0 ? 128 : 0;
    if (clGetKernelWorkGroupInfo(h->pack, env->info->device, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof kmax, &kmax, NULL) == CL_SUCCESS)
        while (h->pack_local > kmax)
            h->pack_local /= 2;
    return CLB_OK;
}

int lat_halo_open(struct clb_env *env, struct lat_halo *h, const struct lat_decomp *d,
                  size_t es, int maxrhs, int policy, size_t chunk)
{
    h->d = *d;
    h->es = es;
    h->maxrhs = maxrhs;
    h->policy = policy;
    h->chunk = chunk;
    struct lat_geom ext;
    int off[4], rc;
    lat_decomp_geoms(d, &h->geom, &ext, off);
    lat_boxes_init(d, &h->in, &h->bd);
    clb_comm_transport(h->btl, sizeof h->btl, h->copy, sizeof h->copy);
    /* the core's verdict on the device's events (its check at device open) */
    h->events_ok = !clb_timer_untrusted(env);
    if ((rc = new_queue(env, &h->qd, "halo reads")) || (rc = new_queue(env, &h->qh, "halo writes")))
        return rc;
    h->pin_bytes = lat_halo_len(d, maxrhs) * 2 * es;
    size_t n = h->pin_bytes ? h->pin_bytes : 2 * es;
    for (int mu = 1; mu < 4; mu++)
        for (int side = 0; side < 2 && d->dec[mu]; side++)
            h->node |= lat_halo_path(h, d->nb[mu][side]) == LAT_PATH_NODE;
    /* the node path: a neighbour writes from our segment of the last exchange
     * while we read the next one into the other */
    size_t ns = h->node ? 2 * n : n;
    if ((rc = build_pack(env, h)) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_WRITE, n, &h->dhv)) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_WRITE, n, &h->dsend)) ||
        (rc = pinned(env, ns, &h->pin_send, &h->psend)) ||
        (rc = pinned(env, n, &h->pin_recv, &h->precv)))
        return rc;
    memset(h->psend, 0, ns);
    memset(h->precv, 0, n);
    /* exchange=shm: the shared segments are every rank's together, opened once
     * every rank has set up (lat_agree_setup) */
    return CLB_OK;
}

/* Link halo slabs of direction mu (the three slices behind the part), both
 * parities: (q * ne + e) * slab + j, concatenated t, z, y. */
static int upload_links(struct clb_env *env, struct lat_halo *h, const struct lat_geom *ext,
                        const int off[4], void *links, int ne, cl_mem *out)
{
    size_t cplx = 2 * h->es, all = 0;
    for (int mu = 1; mu < 4; mu++)
        all += lat_slab_sites(&h->d, mu);
    size_t n = 2 * (size_t)ne * all * cplx;
    unsigned char *pk = clb_xmalloc(n ? n : 1);
    if (!pk)
        return CLB_ESYS;
    unsigned char *dst = pk;
    int len[4], b[6];
    for (int mu = 0; mu < 4; mu++)
        len[mu] = h->d.L[mu];
    for (int mu = 3; mu >= 1; mu--) {
        if (!h->d.dec[mu])
            continue;
        size_t slab = lat_slab_sites(&h->d, mu);
        lat_slab_box(mu, 0, off, len, b);
        for (int q = 0; q < 2; q++) {
            unsigned char *src = (unsigned char *)links +
                                 (size_t)(q * 4 + mu) * (size_t)ne * ext->vh * cplx;
            lat_box_copy(ext, b, (size_t)ne, cplx, src, dst, 0);
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
    int b[6] = {off[1], h->geom.L[1], off[2], h->geom.L[2], off[3], h->geom.L[3]};
    lat_box_copy(ext, b, ncomp, cplx, (void *)field, tmp, 0);
    int rc = clb_buffer(env->dev, flags, n, out);
    if (rc == CLB_OK)
        rc = clb_write(env->dev, *out, tmp, n);
    free(tmp);
    return rc;
}

void lat_halo_close(struct clb_env *env, struct lat_halo *h)
{
    cl_command_queue *qs[] = {&h->qd, &h->qh};
    for (int i = 0; i < 2; i++)
        if (*qs[i]) {
            clb_finish(*qs[i]); /* flushed: not clFinish alone (Rusticl) */
            clReleaseCommandQueue(*qs[i]);
            *qs[i] = NULL;
        }
    cl_mem pins[2] = {h->pin_send, h->pin_recv};
    unsigned char *ptrs[2] = {h->psend, h->precv};
    for (int i = 0; i < 2; i++)
        if (pins[i] && ptrs[i] &&
            clEnqueueUnmapMemObject(env->dev->queue, pins[i], ptrs[i], 0, NULL, NULL) ==
                CL_SUCCESS)
            clFinish(env->dev->queue);
    h->psend = h->precv = NULL;
    cl_mem *bufs[] = {&h->dhv, &h->dsend, &h->dhfat, &h->dhlng[0], &h->dhlng[1], &h->pin_send,
                      &h->pin_recv};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        clb_release_mems(bufs[i], 1);
    clb_release_kernels(&h->pack, 1);
    /* collective: every rank closes its halos together (teardown) */
    clb_comm_shm_close(h->win);
    h->win = NULL;
    clb_comm_local_close(h->local);
    h->local = NULL;
    h->wseg = NULL;
    free(h->ck);
    free(h->xd2h);
    free(h->xh2d);
    free(h->xreq);
    h->ck = NULL;
    h->xd2h = h->xh2d = NULL;
    h->xreq = NULL;
    h->cap = h->nck = h->rhs_ck = 0;
}

size_t lat_halo_bytes(const struct lat_halo *h, int rhs)
{
    return lat_halo_len(&h->d, rhs) * 2 * h->es;
}

const char *const lat_path_names[LAT_PATH_N] = {"self", "node", "mpi"};

int lat_halo_path(const struct lat_halo *h, int nb)
{
    int per = clb_comm()->devices > 0 ? clb_comm()->devices : 1;
    if (nb == h->d.rank)
        return LAT_PATH_SELF;
    if (h->policy == LAT_XC_PIPE && nb / per == h->d.rank / per)
        return LAT_PATH_NODE;
    return LAT_PATH_MPI;
}

void lat_halo_path_bytes(const struct lat_halo *h, int rhs, size_t bytes[LAT_PATH_N])
{
    size_t cplx = 2 * h->es;
    memset(bytes, 0, LAT_PATH_N * sizeof *bytes);
    for (int mu = 1; mu < 4; mu++)
        for (int side = 0; side < 2 && h->d.dec[mu]; side++)
            bytes[lat_halo_path(h, h->d.nb[mu][side])] +=
                3 * (size_t)rhs * lat_slab_sites(&h->d, mu) * cplx;
}

int lat_halo_share(struct lat_halo *h)
{
    if (clb_comm()->devices <= 1)
        return CLB_OK;
    return clb_comm_local_open(h->psend, &h->local);
}

/* One blocking copy, timed by its event (or, where the device's events
 * cannot tell, by the host clock around it). */
static int timed_copy(cl_command_queue q, int events_ok, int d2h, cl_mem buf, void *host,
                      size_t n, double *s)
{
    cl_event ev = NULL;
    double t0 = clb_now();
    cl_int e = d2h ? clEnqueueReadBuffer(q, buf, CL_TRUE, 0, n, host, 0, NULL, &ev)
                   : clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, n, host, 0, NULL, &ev);
    *s = clb_now() - t0;
    if (e != CL_SUCCESS)
        return clb_err(CLB_ECL, "%s (halo bus probe): %s",
                                d2h ? "clEnqueueReadBuffer" : "clEnqueueWriteBuffer",
                                clb_cl_errstr(e));
    int rc = events_ok ? clb_event_seconds(ev, ev, s) : CLB_OK;
    clReleaseEvent(ev);
    return rc;
}

int lat_halo_bus(struct lat_halo *h, int rhs, double gbps[2])
{
    size_t n = lat_halo_bytes(h, rhs);
    gbps[0] = gbps[1] = NAN;
    if (!n)
        return CLB_OK;
    /* the host memory the exchange uses: pinned buffers, or the shared segment */
    void *host[2] = {h->wseg ? (void *)h->wseg : h->psend, h->wseg ? (void *)h->wseg : h->precv};
    cl_command_queue q[2] = {h->qd, h->qh};
    for (int dir = 0; dir < 2; dir++) {
        double s;
        int rc;
        for (int k = 0; k < 2; k++)
            if ((rc = timed_copy(q[dir], h->events_ok, dir == 0, h->dhv, host[dir], n, &s)))
                return rc;
        gbps[dir] = s > 0 ? (double)n / s / 1e9 : NAN;
    }
    return CLB_OK;
}

/* The seconds of one command (its event, else NAN). */
static double event_s(cl_event ev)
{
    double s = NAN;
    return ev && clb_event_seconds(ev, ev, &s) == CLB_OK ? s : NAN;
}

/* One read and one write of n bytes at once, on the two transfer queues;
 * their seconds by events (the host clock of both when the events cannot
 * tell). */
static int both_ways(struct lat_halo *h, size_t n, double s[2])
{
    cl_event ev[2] = {NULL, NULL};
    double t0 = clb_now();
    cl_int e = clEnqueueReadBuffer(h->qd, h->dsend, CL_FALSE, 0, n, h->psend, 0, NULL, &ev[0]);
    if (e == CL_SUCCESS)
        e = clEnqueueWriteBuffer(h->qh, h->dhv, CL_FALSE, 0, n, h->precv, 0, NULL, &ev[1]);
    clFlush(h->qd);
    clFlush(h->qh);
    cl_int w = ev[0] ? clWaitForEvents(ev[1] ? 2 : 1, ev) : CL_SUCCESS;
    double host = clb_now() - t0;
    for (int k = 0; k < 2; k++) {
        s[k] = h->events_ok ? event_s(ev[k]) : host;
        if (ev[k])
            clReleaseEvent(ev[k]);
    }
    if (e != CL_SUCCESS || w != CL_SUCCESS)
        return clb_err(CLB_ECL, "halo bus probe (both ways at once): %s",
                                clb_cl_errstr(e != CL_SUCCESS ? e : w));
    return CLB_OK;
}

/* Timed transfers of lat_halo_bus_both after the one that warms up: one
 * transfer of a small halo varies by a third from one to the next. */
#define BOTH_REPS 5

int lat_halo_bus_both(struct lat_halo *h, int rhs, double gbps[2])
{
    size_t n = lat_halo_bytes(h, rhs);
    gbps[0] = gbps[1] = NAN;
    int rc = CLB_OK;
    double s[2][BOTH_REPS + 1];
    for (int k = 0; k <= BOTH_REPS; k++) { /* the first warms up */
        double z = 0; /* every device of the job on the bus together (an allreduce meets) */
        int e = clb_comm_allreduce(&z, 1, CLB_MAX);
        double t[2] = {NAN, NAN};
        if (rc == CLB_OK && n)
            rc = both_ways(h, n, t);
        rc = rc ? rc : e;
        s[0][k] = t[0];
        s[1][k] = t[1];
    }
    for (int dir = 0; dir < 2 && rc == CLB_OK && n; dir++) {
        struct clb_stats st;
        clb_stats_compute(&s[dir][1], BOTH_REPS, &st);
        gbps[dir] = st.median > 0 ? (double)n / st.median / 1e9 : NAN;
    }
    return rc;
}

/* Does the slab (mu, side) of f (the part's field read back) equal the packed
 * one at sent? tmp: room for one slab. */
static int slab_same(const struct lat_halo *h, int rhs, const unsigned char *f,
                     const unsigned char *sent, int mu, int side, unsigned char *tmp)
{
    size_t cplx = 2 * h->es, n = 3 * (size_t)rhs * lat_slab_sites(&h->d, mu) * cplx;
    int lo[4] = {0, 0, 0, 0}, b[6];
    lat_slab_box(mu, side == 0 ? h->d.L[mu] - LAT_HALO : 0, lo, h->d.L, b);
    lat_box_copy(&h->geom, b, 3 * (size_t)rhs, cplx, (void *)f, tmp, 0);
    return memcmp(tmp, sent + lat_halo_offset(&h->d, rhs, mu, side) * cplx, n) == 0;
}

int lat_halo_check_pack(struct clb_env *env, const struct lat_halo *h, cl_mem field, int rhs,
                        struct clb_case *c)
{
    if (!h->last_src || h->last_rhs != rhs)
        return 0; /* no exchange of this case ran */
    size_t cplx = 2 * h->es, n = 3 * (size_t)rhs * h->geom.vh * cplx;
    unsigned char *f = clb_xmalloc(n), *tmp = clb_xmalloc(h->pin_bytes ? h->pin_bytes : 1);
    int rc = f && tmp ? clb_read(env->dev, field, f, n) : CLB_ESYS, bad = 0;
    /* slot 0 goes to the forward neighbour (its backward halo), 1 to the backward one */
    static const char *const side_name[2] = {"forward", "backward"};
    for (int mu = 3; mu >= 1 && rc == CLB_OK && !bad; mu--)
        for (int side = 0; side < 2 && h->d.dec[mu] && !bad; side++)
            if (!slab_same(h, rhs, f, h->last_src, mu, side, tmp)) {
                clb_case_note(c, "the packed halo (halo_pack) differs from the host's slab for "
                              "the %s %c neighbour", side_name[side], "xyzt"[mu]);
                bad = 1;
            }
    free(f);
    free(tmp);
    return rc ? rc : bad ? CLB_FAIL : CLB_OK;
}

void lat_halo_kargs(const struct lat_halo *h, int rhs, cl_int4 *geo, cl_int4 *dist,
                    cl_uint4 *hs)
{
    *geo = (cl_int4){{h->d.L[0] / 2, h->d.L[1], h->d.L[2], h->d.L[3]}};
    *dist = (cl_int4){{h->d.po, 2 * h->d.dec[1] + 4 * h->d.dec[2] + 8 * h->d.dec[3], rhs, 0}};
    *hs = (cl_uint4){{(cl_uint)h->geom.vh, (cl_uint)lat_slab_sites(&h->d, 1),
                      (cl_uint)lat_slab_sites(&h->d, 2), (cl_uint)lat_slab_sites(&h->d, 3)}};
}

static void box_kargs(const struct lat_boxes *b, cl_int8 box[LAT_MAXBOX], cl_uint8 *ends)
{
    memset(box, 0, LAT_MAXBOX * sizeof *box);
    memset(ends, 0, sizeof *ends);
    for (int k = 0; k < LAT_MAXBOX; k++) {
        for (int q = 0; q < 6 && k < b->n; q++)
            box[k].s[q] = b->b[k][q];
        if (k >= b->n)
            box[k].s[1] = box[k].s[3] = box[k].s[5] = 1; /* never reached: ends repeat the total */
        ends->s[k] = (cl_uint)b->ends[k];
    }
}

int lat_box_args(cl_kernel k, cl_uint first, const struct lat_boxes *b)
{
    cl_int8 box[LAT_MAXBOX];
    cl_uint8 ends;
    box_kargs(b, box, &ends);
    for (cl_uint i = 0; i < LAT_MAXBOX; i++)
        CLB_CHECK(clSetKernelArg(k, first + i, sizeof box[i], &box[i]), "clSetKernelArg(box)");
    CLB_CHECK(clSetKernelArg(k, first + LAT_MAXBOX, sizeof ends, &ends), "clSetKernelArg(ends)");
    return CLB_OK;
}

void lat_summarize_halo(const char *wl, const struct clb_row *rows, size_t n, FILE *out)
{
    int header = 0;
    for (size_t i = 0; i < n; i++) {
        const struct clb_row *r = &rows[i];
        char sc[16], grid[48], rhs[8];
        clb_params_value(r->params, "scaling", sc, sizeof sc);
        if (!sc[0] || strcmp(r->status, "ok"))
            continue;
        clb_params_value(r->params, "grid", grid, sizeof grid);
        clb_params_value(r->params, "rhs", rhs, sizeof rhs);
        double t = r->t_median_s, hal = clb_row_metric(r, "halo_ms_max");
        double model = clb_row_metric(r, "halo_model_ms");
        double gap = clb_row_metric(r, "halo_exposed_ms_max");
        double gmod = clb_row_metric(r, "halo_exposed_model_ms");
        double eff = clb_row_metric(r, "eff"), emod = clb_row_metric(r, "eff_model");
        char chain[16];
        clb_metrics_token(r->metrics, "halo_chain", chain, sizeof chain);
        if (!header++)
            fprintf(out, "\n%s across ranks (scaling=): per %s, the time; the halo chain "
                         "(pack, reads, messages, writes: the job's slowest rank) beside its "
                         "model (measured pack kernel, bus and message rates); the time the "
                         "boundary kernels waited for it (exposed) beside the model's; eff: the "
                         "share of the time not spent on halos, measured (model). Efficiency "
                         "against the plain kernel or N ranks: docs/SCALING.md\n",
                    wl, strcmp(wl, "cg") ? "application" : "solve");
        fprintf(out, "  %-5s %-6s %-12s rhs=%-2s %-6s grid=%-9s %-4s %10.4g ms  halo %9.4g ms "
                     "(model %9.4g)  exposed %9.4g ms (model %9.4g)  eff %5.3f (model %5.3f)\n",
                r->kernel, r->dtype, r->size, rhs, sc, grid, chain[0] ? chain : "-", 1e3 * t, hal,
                model, gap, gmod, eff, emod);
    }
}
