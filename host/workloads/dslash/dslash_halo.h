/* dslash, cg: the device side of the halo exchange (scaling=strong|weak;
 * docs/SCALING.md "Distributed Dslash and CG"). One exchange of a vector
 * field of one parity:
 *
 *   begin    a marker on the main queue (the field is final), then on a
 *            second queue (transfers) the slabs to send: device -> a pinned
 *            host buffer (CL_MEM_ALLOC_HOST_PTR, mapped once), one rectangular
 *            read per slab; flushed, so the caller's interior kernel runs
 *            meanwhile on the main queue
 *   finish   wait for those reads; the messages (clb_comm_irecv/isend into and
 *            from pinned buffers; a slab for this rank itself is copied); wait
 *            for them; pinned host -> the device halo buffer (one write on the
 *            transfer queue): its event is what the boundary kernel waits for
 *   wait     wait for that write: the halo time (begin to here, host clock)
 *
 * A rank whose OpenCL call failed still sends and receives (its peers wait
 * for the messages) and reports the error after. The link halos (the links
 * of the three slices behind the part, in the direction of the split) never
 * change: set-up uploads them from the fields generated on the host. */
#ifndef DSLASH_DSLASH_HALO_H
#define DSLASH_DSLASH_HALO_H

#include "dslash_dist.h"

struct dslash_halo {
    struct dslash_decomp d;
    struct dslash_geom geom;        /* the local part */
    struct dslash_boxes in, bd;     /* interior and boundary sites */
    size_t es;                      /* bytes of one real */
    int maxrhs;
    cl_command_queue qx;            /* the transfers */
    cl_mem dhv;                     /* vector halos on the device (maxrhs vectors) */
    cl_mem dhfat, dhlng[2];         /* link halos: fat; long full [0], compressed [1] */
    cl_mem pin_send, pin_recv;      /* pinned host buffers, mapped */
    unsigned char *psend, *precv;
    size_t pin_bytes;
};

/* Buffers for up to maxrhs vectors, the transfer queue. */
int dslash_halo_open(struct clb_env *env, struct dslash_halo *h, const struct dslash_decomp *d,
                     size_t es, int maxrhs);
/* The link halos from the links on the extended geometry ext (off: the local
 * part's place in it; dslash_decomp_geoms): full links (ne 9) fat and long,
 * compressed long (ne 7), element size h->es. */
int dslash_halo_links(struct clb_env *env, struct dslash_halo *h, const struct dslash_geom *ext,
                      const int off[4], void *fat, void *full, void *comp);
void dslash_halo_close(struct clb_env *env, struct dslash_halo *h);

/* The part (without halos) of ncomp components of a field held on the
 * extended geometry (dslash_decomp_geoms: ext, off), uploaded into a new
 * buffer of h's part. cplx: bytes of one complex number. */
int dslash_upload_part(struct clb_env *env, const struct dslash_halo *h,
                       const struct dslash_geom *ext, const int off[4], const void *field,
                       size_t ncomp, size_t cplx, cl_mem_flags flags, cl_mem *out);

/* Bytes this rank receives (and sends) in one exchange of rhs vectors. */
size_t dslash_halo_bytes(const struct dslash_halo *h, int rhs);

struct dslash_xchg {
    cl_event d2h, h2d;
    double t0, seconds;   /* begin; begin to the halos on the device (host clock) */
};
/* field: rhs vectors of one parity in the layout of dslash.h on the local part. */
int dslash_halo_begin(struct clb_env *env, struct dslash_halo *h, cl_mem field, int rhs,
                      struct dslash_xchg *x);
/* Always call after begin (also after its error): err is the caller's error
 * so far (then no more OpenCL work, but the messages). x->h2d is set on
 * success. */
int dslash_halo_finish(struct clb_env *env, struct dslash_halo *h, int rhs, struct dslash_xchg *x,
                       int err);
/* Wait for the halos on the device, x->seconds; releases the events. */
int dslash_halo_wait(struct dslash_halo *h, struct dslash_xchg *x);
void dslash_xchg_release(struct dslash_xchg *x);

/* One pinned transfer of rhs vectors' halos each way (after one to warm
 * up), timed by events: GB/s device -> host [0] and host -> device [1]. */
int dslash_halo_bus(struct clb_env *env, struct dslash_halo *h, int rhs, double gbps[2]);

/* Kernel arguments: geo (hx, ly, lz, lt), dist (po, dz, dt, rhs), hs (vh,
 * slab sites along z, along t, 0); a launch's boxes and their ends. */
void dslash_halo_kargs(const struct dslash_halo *h, int rhs, cl_int4 *geo, cl_int4 *dist,
                       cl_uint4 *hs);
void dslash_box_kargs(const struct dslash_boxes *b, cl_int4 box[4], cl_uint4 *ends);

/* The command to wait for x->h2d on the main queue (before a boundary launch). */
int dslash_halo_barrier(struct clb_env *env, struct dslash_xchg *x);

/* The notes of a part: "ranks=2 grid=1x1x1x2 part=8x8x8x4@0,0,0,4/8x8x8x8
 * halo_dirs=t sites_interior=0 sites_boundary=1024". */
void dslash_note_part(struct clb_case *c, const struct dslash_decomp *p,
                      const struct dslash_halo *h);

/* The halo figures of a case as metrics (ms, and the share of the time):
 * this rank's medians and, in mx, the job's slowest (halo, exposed, share). */
void dslash_metric_halo(struct clb_case *c, double hal, double gap, double frac,
                        const double mx[3]);

/* The summary of the scaling= rows of a run (wl: "dslash" or "cg"): per
 * row, the time per repetition, the halo exchange (host clock, the job's
 * slowest rank) and its model, the time the boundary kernels waited for halos
 * (exposed) and its share of the time. */
/* The value of key in a row's params ("rhs=4,links=full,iters=37"), "" when absent. */
void dslash_param_text(const char *params, const char *key, char *out, size_t n);
void dslash_summarize_halo(const char *wl, const struct clb_row *rows, size_t n, FILE *out);

/* Seconds from the end of event a to the start of event b (both complete),
 * 0 when b started first: the time a boundary kernel waited for its halos
 * after the interior kernel. */
double dslash_gap_seconds(cl_event a, cl_event b);

#endif
