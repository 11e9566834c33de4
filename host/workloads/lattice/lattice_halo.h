/* lattice: the device side of the halo exchange (scaling=strong|weak;
 * docs/SCALING.md "Distributed Dslash and CG") and the one sequence that
 * overlaps it with an operator kernel, lat_halo_overlap, which the dslash
 * and cg workloads both run. One application on a rank's part:
 *
 *   begin     a marker on the main queue (the field is final), then on a
 *             second queue (transfers) the slabs to send: device -> a pinned
 *             host buffer (CL_MEM_ALLOC_HOST_PTR, mapped once), one
 *             rectangular read per slab; flushed
 *   interior  the caller's kernel over the interior sites (they need no
 *             halo), on the main queue meanwhile; flushed
 *   finish    wait for those reads; the messages (clb_comm_irecv/isend into
 *             and from pinned buffers; a slab for this rank itself is
 *             copied); wait for them; pinned host -> the device halo buffer
 *             (one write on the transfer queue)
 *   boundary  a barrier on the main queue for that write, then the caller's
 *             kernel over the boundary sites; flushed
 *   wait      wait for the write: the halo time (begin to here, host clock)
 *
 * A rank whose OpenCL call failed still sends and receives (its peers wait
 * for the messages) and reports the error after. The link halos (the links
 * of the three slices behind the part, in the direction of the split) never
 * change: set-up uploads them from the fields generated on the host. */
#ifndef LATTICE_LATTICE_HALO_H
#define LATTICE_LATTICE_HALO_H

#include "lattice_split.h"

struct lat_halo {
    struct lat_decomp d;
    struct lat_geom geom;        /* the local part */
    struct lat_boxes in, bd;     /* interior and boundary sites */
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
int lat_halo_open(struct clb_env *env, struct lat_halo *h, const struct lat_decomp *d,
                  size_t es, int maxrhs);
/* The link halos from the links on the extended geometry ext (off: the local
 * part's place in it; lat_decomp_geoms): full links (ne 9) fat and long,
 * compressed long (ne 7), element size h->es. */
int lat_halo_links(struct clb_env *env, struct lat_halo *h, const struct lat_geom *ext,
                   const int off[4], void *fat, void *full, void *comp);
void lat_halo_close(struct clb_env *env, struct lat_halo *h);

/* The part (without halos) of ncomp components of a field held on the
 * extended geometry (lat_decomp_geoms: ext, off), uploaded into a new
 * buffer of h's part. cplx: bytes of one complex number. */
int lat_upload_part(struct clb_env *env, const struct lat_halo *h,
                    const struct lat_geom *ext, const int off[4], const void *field,
                    size_t ncomp, size_t cplx, cl_mem_flags flags, cl_mem *out);

/* Bytes this rank receives (and sends) in one exchange of rhs vectors. */
size_t lat_halo_bytes(const struct lat_halo *h, int rhs);

/* One launch of the caller's operator kernel over the sites of boxes b
 * (boundary 0: the interior, 1: the boundary), on the main queue, its event
 * in *ev. */
typedef int (*lat_launch_fn)(struct clb_env *env, void *ctx, const struct lat_boxes *b,
                             int boundary, cl_event *ev);

/* What one application leaves: the halo time (host clock) and the events of
 * the interior launch (NULL when the part has none or it did not run) and
 * of the boundary launch (NULL when it did not run); lat_overlap_release. */
struct lat_overlap {
    double halo;
    cl_event in, bd;
};

/* One application of an operator kernel on the rank's part (the sequence
 * above): the halos of field (rhs vectors of one parity in the layout of
 * lattice.h on the part) travel while launch runs the interior, then launch
 * runs the boundary. err: the caller's error so far: then no OpenCL work but
 * the messages. Every rank calls it together. Returns err, else the first
 * error of the application; *o is set either way. */
int lat_halo_overlap(struct clb_env *env, struct lat_halo *h, cl_mem field, int rhs,
                     lat_launch_fn launch, void *ctx, int err, struct lat_overlap *o);
/* Seconds the boundary launch waited for its halos after the interior one
 * (the halo time not hidden; all of it when there is no interior); NAN when
 * the events cannot tell. Only once both launches are complete. */
double lat_overlap_gap(const struct lat_overlap *o);
void lat_overlap_release(struct lat_overlap *o);

/* One pinned transfer of rhs vectors' halos each way (after one to warm
 * up), timed by events: GB/s device -> host [0] and host -> device [1]. */
int lat_halo_bus(struct clb_env *env, struct lat_halo *h, int rhs, double gbps[2]);

/* Kernel arguments: geo (hx, ly, lz, lt), dist (po, dz, dt, rhs), hs (vh,
 * slab sites along z, along t, 0). */
void lat_halo_kargs(const struct lat_halo *h, int rhs, cl_int4 *geo, cl_int4 *dist,
                    cl_uint4 *hs);
/* A launch's boxes and their ends as the five kernel arguments from index
 * first (b0..b3, ends). */
int lat_box_args(cl_kernel k, cl_uint first, const struct lat_boxes *b);

/* The notes of a part: "ranks=2 grid=1x1x1x2 part=8x8x8x4@0,0,0,4/8x8x8x8
 * halo_dirs=t sites_interior=0 sites_boundary=1024". */
void lat_note_part(struct clb_case *c, const struct lat_decomp *p,
                   const struct lat_halo *h);

/* The summary of the scaling= rows of a run (wl: "dslash" or "cg"): per
 * row, the time per repetition, the halo exchange (host clock, the job's
 * slowest rank) and its model, the time the boundary kernels waited for halos
 * (exposed) and its share of the time. */
/* The value of key in a row's params ("rhs=4,links=full,iters=37"), "" when absent. */
/* The halo figures of a case as metrics (ms, and the share of the time):
 * this rank's medians and, in mx, the job's slowest (halo, exposed, share). */
void lat_metric_halo(struct clb_case *c, double hal, double gap, double frac, const double mx[3]);

void lat_param_text(const char *params, const char *key, char *out, size_t n);
void lat_summarize_halo(const char *wl, const struct clb_row *rows, size_t n, FILE *out);

#endif
