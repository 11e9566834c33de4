/* lattice: one halo exchange overlapped with an operator kernel
 * (lat_halo_overlap, lattice_halo.h) and the message step on its own
 * (lat_halo_probe). The buffers and queues are lattice_halo.c's. */
#include "clb_workload.h"
#include "lattice_halo.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* A chunk's tag: XCHG_TAG + slot * SLAB_CHUNKS + its piece of the slab, slot
 * 0..5 the slab (t, z, y; backward, forward): neighbours along mu number the
 * pieces of their slabs alike (their extents across mu are the same), the
 * other slabs' counts may differ. At most 500 + 6 * 1024 < 32767, the least
 * tag bound MPI allows. */
#define XCHG_TAG 500
#define SLAB_CHUNKS 1024

const char *const lat_xc_names[LAT_XC_N] = {"pipe", "bulk", "shm"};

/* ---- the chunks --------------------------------------------------------------- */

/* Room for n chunks and their per-exchange state. */
static int chunks_room(struct lat_halo *h, int n)
{
    if (n <= h->cap)
        return CLB_OK;
    struct lat_chunk *ck = realloc(h->ck, (size_t)n * sizeof *ck);
    if (ck)
        h->ck = ck;
    cl_event *a = ck ? realloc(h->xd2h, (size_t)n * sizeof *a) : NULL;
    if (a)
        h->xd2h = a;
    cl_event *b = a ? realloc(h->xh2d, (size_t)n * sizeof *b) : NULL;
    if (b)
        h->xh2d = b;
    struct clb_comm_req **r = b ? realloc(h->xreq, 2 * (size_t)n * sizeof *r) : NULL;
    if (!r)
        return clb_err(CLB_ESYS, "halo exchange: " CLB_OOM);
    h->xreq = r;
    h->cap = n;
    return CLB_OK;
}

/* The chunks of one exchange of rhs vectors: every slab (t, z, y; backward,
 * forward) in pieces of at most h->chunk bytes (bulk: whole slabs), each a
 * whole number of complex numbers. */
static int chunks_plan(struct lat_halo *h, int rhs)
{
    if (h->rhs_ck == rhs)
        return CLB_OK;
    size_t cplx = 2 * h->es, piece = h->chunk / cplx * cplx;
    int n = 0, rc;
    h->nck = h->rhs_ck = 0;
    for (int pass = 0; pass < 2; pass++) {
        n = 0;
        for (int mu = 3, slot = 0; mu >= 1; mu--)
            for (int side = 0; side < 2 && h->d.dec[mu]; side++, slot++) {
                size_t len = 3 * (size_t)rhs * lat_slab_sites(&h->d, mu) * cplx;
                size_t off = lat_halo_offset(&h->d, rhs, mu, side) * cplx;
                size_t step = h->policy == LAT_XC_BULK || piece < cplx ? len : piece;
                if (len / step >= SLAB_CHUNKS)
                    return clb_eusage("halo exchange: a slab of %zu bytes in chunks of %zu bytes "
                                      "is more than %d chunks: a larger chunk=", len, step,
                                      SLAB_CHUNKS);
                for (size_t o = 0, piece_k = 0; o < len; o += step, n++, piece_k++) {
                    if (!pass)
                        continue;
                    struct lat_chunk *c = &h->ck[n];
                    c->off = off + o;
                    c->len = len - o < step ? len - o : step;
                    c->tag = XCHG_TAG + slot * SLAB_CHUNKS + (int)piece_k;
                    /* our slab for the neighbour's halo on `side`, and its for ours */
                    c->to = h->d.nb[mu][1 - side];
                    c->from = h->d.nb[mu][side];
                    c->self = c->to == h->d.rank && c->from == h->d.rank;
                    c->send_node = !c->self && lat_halo_path(h, c->to) == LAT_PATH_NODE;
                    c->recv_node = !c->self && lat_halo_path(h, c->from) == LAT_PATH_NODE;
                }
            }
        if (!pass && (rc = chunks_room(h, n)))
            return rc;
    }
    h->nck = n;
    h->rhs_ck = rhs;
    return CLB_OK;
}

/* ---- one exchange --------------------------------------------------------------- */

/* One exchange in flight. */
struct xchg {
    int rhs, err;          /* err: this rank's first error (then only the messages) */
    cl_event pack, last;   /* the pack kernel; the last write to the device */
    unsigned char *src;    /* where the reads land: psend, or this exchange's segment */
    size_t seg;            /* shm: the offset of this exchange's segment */
    double t0;
};

static void set_err(struct xchg *x, int rc)
{
    if (rc && !x->err)
        x->err = rc;
}

/* The bytes of the peer's chunk that land at c's place: pipe and bulk our
 * receive buffer; shm the sender's segment of this exchange; the node path
 * the sender's pinned buffer (its segment of this exchange). */
static unsigned char *arrived(struct lat_halo *h, const struct xchg *x, const struct lat_chunk *c)
{
    if (c->self)
        return x->src + c->off;
    if (c->recv_node) {
        unsigned char *peer = clb_comm_local_peer(h->local, c->from);
        return peer ? peer + x->seg + c->off : NULL;
    }
    if (h->policy != LAT_XC_SHM)
        return h->precv + c->off;
    unsigned char *peer = clb_comm_shm_peer(h->win, c->from);
    return peer ? peer + x->seg + c->off : NULL;
}

/* Does chunk c travel as a zero-byte note (its receive: recv 1, its send: 0),
 * the data read by the peer from where it lies: shm, and the node path? */
static int note_only(const struct lat_halo *h, const struct lat_chunk *c, int recv)
{
    return h->policy == LAT_XC_SHM || (recv ? c->recv_node : c->send_node);
}

/* The receives of every chunk from another rank (before any read: the
 * messages can land as soon as they are sent). shm and the node path:
 * zero-byte notes. */
static void post_receives(struct lat_halo *h, struct xchg *x)
{
    for (int k = 0; k < h->nck; k++) {
        const struct lat_chunk *c = &h->ck[k];
        h->xreq[k] = h->xreq[h->nck + k] = NULL;
        if (c->self)
            continue;
        size_t n = note_only(h, c, 1) ? 0 : c->len;
        set_err(x, clb_comm_irecv(h->precv + c->off, n, c->from, c->tag, &h->xreq[k]));
    }
}

/* Write len bytes at off of the device halo buffer from `from` after this
 * exchange's pack kernel (so after the last application's boundary kernel,
 * which reads the halo buffer: a peer's chunk may arrive before that is
 * done) and after `read` (NULL: none); its event in *ev and x->last. */
static int write_halo(struct lat_halo *h, struct xchg *x, size_t off, size_t len,
                      const void *from, cl_event read, cl_event *ev)
{
    cl_event wait[2] = {x->pack, read};
    cl_int e = clEnqueueWriteBuffer(h->qh, h->dhv, CL_FALSE, off, len, from, read ? 2 : 1, wait,
                                    ev);
    if (e != CL_SUCCESS) {
        *ev = NULL;
        return clb_err(CLB_ECL, "clEnqueueWriteBuffer (halo to the device): %s", clb_cl_errstr(e));
    }
    x->last = *ev;
    return CLB_OK;
}

/* Write chunk k where it arrived (write_halo). */
static int write_chunk(struct lat_halo *h, struct xchg *x, int k, cl_event read)
{
    const struct lat_chunk *c = &h->ck[k];
    const unsigned char *from = arrived(h, x, c);
    if (!from)
        return clb_err(CLB_ESYS, "halo exchange: rank %d's shared segment is not %s", c->from,
                                 c->recv_node ? "in this process" : "on this node");
    return write_halo(h, x, c->off, c->len, from, read, &h->xh2d[k]);
}

/* Wait for ev (NULL: nothing); CLB_ECL with a message naming what. */
static int wait_event(cl_event ev, const char *what)
{
    cl_int e = ev ? clWaitForEvents(1, &ev) : CL_SUCCESS;
    if (e == CL_SUCCESS)
        return CLB_OK;
    return clb_err(CLB_ECL, "clWaitForEvents (%s): %s", what, clb_cl_errstr(e));
}

/* The pack kernel over every slab of rhs vectors of field, on the main queue. */
static int enqueue_pack(struct clb_env *env, struct lat_halo *h, cl_mem field, struct xchg *x)
{
    cl_int4 geo, dist;
    cl_uint4 hs;
    lat_halo_kargs(h, x->rhs, &geo, &dist, &hs);
    int rc = clb_args(h->pack, sizeof(cl_mem), &field, sizeof(cl_mem), &h->dsend, sizeof geo,
                      &geo, sizeof dist, &dist, sizeof hs, &hs, (size_t)0);
    if (rc)
        return rc;
    size_t n = 2 * (lat_slab_sites(&h->d, 1) + lat_slab_sites(&h->d, 2) +
                    lat_slab_sites(&h->d, 3));
    size_t lx = h->pack_local, g = lx ? (n + lx - 1) / lx * lx : n;
    CLB_CHECK(clEnqueueNDRangeKernel(env->dev->queue, h->pack, 1, NULL, &g, lx ? &lx : NULL, 0,
                                     NULL, &x->pack),
              "clEnqueueNDRangeKernel(halo_pack)");
    return CLB_OK;
}

/* The reads of the packed slabs: bulk one of everything, else one per chunk;
 * a chunk for this rank itself goes back to the device once read. */
static int enqueue_reads(struct lat_halo *h, struct xchg *x)
{
    int bulk = h->policy == LAT_XC_BULK;
    for (int k = 0; k < (bulk ? 1 : h->nck); k++) {
        size_t off = bulk ? 0 : h->ck[k].off;
        size_t len = bulk ? lat_halo_bytes(h, x->rhs) : h->ck[k].len;
        cl_int e = clEnqueueReadBuffer(h->qd, h->dsend, CL_FALSE, off, len, x->src + off, 1,
                                       &x->pack, &h->xd2h[k]);
        if (e != CL_SUCCESS) {
            h->xd2h[k] = NULL;
            return clb_err(CLB_ECL, "clEnqueueReadBuffer (halo to the host): %s", clb_cl_errstr(e));
        }
        int rc = !bulk && h->ck[k].self ? write_chunk(h, x, k, h->xd2h[k]) : CLB_OK;
        if (rc)
            return rc;
    }
    clFlush(h->qd);
    clFlush(h->qh);
    return CLB_OK;
}

static void begin(struct clb_env *env, struct lat_halo *h, cl_mem field, struct xchg *x)
{
    int shm = h->policy == LAT_XC_SHM;
    /* two segments, alternate exchanges: a peer reads our last one (shm, the
     * node path) while we read the next one into the other */
    x->seg = shm || h->node ? (size_t)(h->nexch & 1) * h->pin_bytes : 0;
    x->src = shm ? h->wseg + x->seg : h->psend + x->seg;
    h->last_src = x->src;
    h->last_rhs = x->rhs;
    h->nexch++;
    x->t0 = clb_now();
    /* a plan that fails leaves no chunks: no messages (every rank fails alike:
     * set-up planned the largest exchange) */
    set_err(x, chunks_plan(h, x->rhs));
    for (int k = 0; k < h->nck; k++)
        h->xd2h[k] = h->xh2d[k] = NULL;
    if (h->policy != LAT_XC_BULK)
        post_receives(h, x);
    if (!x->err)
        set_err(x, enqueue_pack(env, h, field, x));
    if (!x->err)
        clFlush(env->dev->queue);
}

/* Has the read of chunk k completed (1), is it still running (0)? An error
 * of the read is x's (the chunk is sent anyway: the peer waits for it). */
static int read_done(struct lat_halo *h, struct xchg *x, int k)
{
    if (x->err || !h->xd2h[k])
        return 1;
    cl_int st = CL_QUEUED;
    cl_int e = clGetEventInfo(h->xd2h[k], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st,
                              NULL);
    if (e != CL_SUCCESS || st < 0) {
        clb_seterr("the halo read to the host failed: %s",
                   clb_cl_errstr(e != CL_SUCCESS ? e : st));
        set_err(x, CLB_ECL);
        return 1;
    }
    return st == CL_COMPLETE;
}

/* Send chunk k (shm, the node path: a note that it is in our segment). */
static void send_chunk(struct lat_halo *h, struct xchg *x, int k)
{
    const struct lat_chunk *c = &h->ck[k];
    if (h->policy == LAT_XC_SHM)
        set_err(x, clb_comm_shm_sync(h->win));
    set_err(x, clb_comm_isend(x->src + c->off, note_only(h, c, 0) ? 0 : c->len, c->to, c->tag,
                              &h->xreq[h->nck + k]));
}

/* Pipe and shm: each chunk sent once read, written once arrived, until every
 * receive is done; then the sends completed (our buffers are free again). */
static void pipeline(struct lat_halo *h, struct xchg *x)
{
    int next = 0, left = 0;
    for (int k = 0; k < h->nck; k++)
        left += !h->ck[k].self;
    while (next < h->nck || left > 0) {
        int moved = 0;
        while (next < h->nck && (h->ck[next].self || read_done(h, x, next))) {
            if (!h->ck[next].self)
                send_chunk(h, x, next);
            next++;
            moved = 1;
        }
        for (int k = 0; k < h->nck; k++) {
            int done;
            if (h->ck[k].self || !h->xreq[k])
                continue;
            set_err(x, clb_comm_test(&h->xreq[k], &done));
            if (!done)
                continue;
            left--;
            moved = 1;
            if (h->policy == LAT_XC_SHM)
                set_err(x, clb_comm_shm_sync(h->win));
            if (!x->err) {
                set_err(x, write_chunk(h, x, k, NULL));
                clFlush(h->qh);
            }
        }
        if (!moved)
            sched_yield(); /* the reads and the peers: on an oversubscribed host they need it */
    }
    set_err(x, clb_comm_waitall(h->xreq + h->nck, h->nck));
}

/* Bulk: every read done, then the messages of whole slabs (a copy for this
 * rank itself), then one write of everything. */
static void bulk(struct lat_halo *h, struct xchg *x)
{
    if (!x->err)
        set_err(x, wait_event(h->xd2h[0], "halo to the host"));
    int nreq = 0;
    for (int k = 0; k < h->nck; k++) {
        const struct lat_chunk *c = &h->ck[k];
        if (c->self) {
            memcpy(h->precv + c->off, x->src + c->off, c->len);
            continue;
        }
        set_err(x, clb_comm_irecv(h->precv + c->off, c->len, c->from, c->tag,
                                  &h->xreq[nreq++]));
        set_err(x, clb_comm_isend(x->src + c->off, c->len, c->to, c->tag,
                                  &h->xreq[nreq++]));
    }
    set_err(x, clb_comm_waitall(h->xreq, nreq));
    if (!x->err)
        set_err(x, write_halo(h, x, 0, lat_halo_bytes(h, x->rhs), h->precv, NULL, &h->xh2d[0]));
    if (!x->err)
        clFlush(h->qh);
}

/* The events of the chunks (but x->last, which the application keeps). */
static void release_chunks(struct lat_halo *h, struct xchg *x)
{
    for (int k = 0; k < h->nck; k++) {
        if (h->xd2h[k])
            clReleaseEvent(h->xd2h[k]);
        if (h->xh2d[k] && h->xh2d[k] != x->last)
            clReleaseEvent(h->xh2d[k]);
        h->xd2h[k] = h->xh2d[k] = NULL;
    }
}

/* The boundary launch waits for the last write (the main queue). */
static int barrier(struct clb_env *env, cl_event last)
{
    CLB_CHECK(clEnqueueBarrierWithWaitList(env->dev->queue, 1, &last, NULL),
              "clEnqueueBarrierWithWaitList (halo)");
    return CLB_OK;
}

int lat_halo_overlap(struct clb_env *env, struct lat_halo *h, cl_mem field, int rhs,
                     lat_launch_fn launch, void *ctx, int err, struct lat_overlap *o)
{
    struct xchg x;
    memset(&x, 0, sizeof x);
    memset(o, 0, sizeof *o);
    x.rhs = rhs;
    x.err = err;
    begin(env, h, field, &x);
    /* the interior first: it waits for no host work, and the reads (one per
     * chunk, and one rank's writes of its own chunks: tens of commands to
     * enqueue) start on their queue as soon as each is enqueued */
    if (!x.err && h->in.sites)
        set_err(&x, launch(env, ctx, &h->in, 0, &o->in));
    if (!x.err)
        clFlush(env->dev->queue);
    if (!x.err)
        set_err(&x, enqueue_reads(h, &x));
    if (h->policy == LAT_XC_BULK)
        bulk(h, &x);
    else
        pipeline(h, &x);
    if (!x.err && x.last)
        set_err(&x, barrier(env, x.last));
    if (!x.err)
        set_err(&x, launch(env, ctx, &h->bd, 1, &o->bd));
    if (!x.err)
        clFlush(env->dev->queue);
    int e = wait_event(x.last, "halo to the device"); /* the halos on the device */
    o->halo = clb_now() - x.t0;
    release_chunks(h, &x);
    o->pack = x.pack;
    o->h2d = x.last;
    o->events_ok = h->events_ok;
    return x.err ? x.err : e;
}

/* ---- the times of an application ------------------------------------------------ */

static int stamp(cl_event ev, cl_profiling_info what, cl_ulong *t)
{
    return ev && clGetEventProfilingInfo(ev, what, sizeof *t, t, NULL) == CL_SUCCESS && *t > 0;
}

/* Seconds from START of a to END of b (a == b: one command); NAN when the
 * events cannot tell (a timer that reads zero, or END before START). */
static double span(cl_event a, cl_event b)
{
    cl_ulong s, e;
    if (!stamp(a, CL_PROFILING_COMMAND_START, &s) || !stamp(b, CL_PROFILING_COMMAND_END, &e) ||
        e < s)
        return NAN;
    return (double)(e - s) * 1e-9;
}

void lat_overlap_times(const struct lat_overlap *o, struct lat_xtimes *t)
{
    if (!o->events_ok) {
        t->pack = t->in = t->bd = t->gap = NAN;
        t->halo = o->halo;
        return;
    }
    t->pack = span(o->pack, o->pack);
    t->in = span(o->in, o->in);
    t->bd = span(o->bd, o->bd);
    t->halo = o->pack && o->h2d ? span(o->pack, o->h2d) : NAN;
    if (!(t->halo > 0))
        t->halo = o->halo;
    cl_ulong end, start;
    if (!o->in) /* the boundary waits for the chain after the pack kernel */
        t->gap = t->halo - (isnan(t->pack) ? 0 : t->pack);
    else if (stamp(o->in, CL_PROFILING_COMMAND_END, &end) &&
             stamp(o->bd, CL_PROFILING_COMMAND_START, &start))
        t->gap = start > end ? (double)(start - end) * 1e-9 : 0.0;
    else
        t->gap = NAN;
}

void lat_overlap_release(struct lat_overlap *o)
{
    cl_event *ev[] = {&o->pack, &o->in, &o->bd, &o->h2d};
    for (size_t i = 0; i < sizeof ev / sizeof *ev; i++) {
        if (*ev[i])
            clReleaseEvent(*ev[i]);
        *ev[i] = NULL;
    }
}

/* ---- the message step on its own ----------------------------------------------- */

/* One message step of the planned chunks between the host buffers. */
static int probe_once(struct lat_halo *h, double *s)
{
    int nreq = 0, rc = CLB_OK;
    double t0 = clb_now();
    for (int k = 0; k < h->nck; k++) {
        const struct lat_chunk *c = &h->ck[k];
        size_t n = note_only(h, c, 0) ? 0 : c->len;
        int e = CLB_OK;
        if (c->self && h->policy == LAT_XC_BULK)
            memcpy(h->precv + c->off, h->psend + c->off, c->len);
        if (c->self)
            continue;
        e = clb_comm_irecv(h->precv + c->off, note_only(h, c, 1) ? 0 : c->len, c->from, c->tag,
                           &h->xreq[nreq++]);
        if (e == CLB_OK)
            e = clb_comm_isend(h->psend + c->off, n, c->to, c->tag, &h->xreq[nreq++]);
        rc = rc ? rc : e;
    }
    int e = clb_comm_waitall(h->xreq, nreq);
    *s = clb_now() - t0;
    return rc ? rc : e;
}

int lat_halo_probe(struct lat_halo *h, int rhs, int reps, double *seconds)
{
    *seconds = NAN;
    int rc = chunks_plan(h, rhs), any = 0;
    if (rc)
        return rc;
    for (int k = 0; k < h->nck; k++)
        any |= !h->ck[k].self || h->policy == LAT_XC_BULK;
    if (!any || reps < 1)
        return CLB_OK;
    double *t = calloc((size_t)reps + 1, sizeof *t);
    if (!t)
        return CLB_ESYS;
    for (int r = 0; r <= reps; r++) {
        int e = probe_once(h, &t[r == 0 ? reps : r - 1]); /* the first warms up */
        rc = rc ? rc : e;
    }
    /* each repetition the slowest rank's */
    int e = clb_comm_allreduce(t, reps, CLB_MAX);
    rc = rc ? rc : e;
    if (rc == CLB_OK) {
        struct clb_stats st;
        clb_stats_compute(t, (size_t)reps, &st);
        *seconds = st.median;
    }
    free(t);
    return rc;
}
