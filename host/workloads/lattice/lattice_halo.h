/* lattice: the device side of the halo exchange (scaling=strong|weak) and
 * the one sequence that overlaps it with an operator kernel,
 * lat_halo_overlap, which the dslash and cg workloads both run: pack
 * kernel, interior launch, reads per chunk to pinned host memory, messages,
 * writes per chunk as they arrive, boundary launch (docs/SCALING.md "The
 * halo chain" gives each step and why). A rank whose OpenCL call failed
 * still sends and receives every message (its peers wait for them) and
 * reports the error after. The link halos never change: set-up uploads them
 * from the fields generated on the host. */
#ifndef LATTICE_LATTICE_HALO_H
#define LATTICE_LATTICE_HALO_H

#include "lattice_split.h"

/* exchange= (docs/SCALING.md): the policies of the message step. */
enum { LAT_XC_PIPE, LAT_XC_BULK, LAT_XC_SHM, LAT_XC_N };
extern const char *const lat_xc_names[LAT_XC_N];   /* "pipe", "bulk", "shm" */

/* One piece of the packed halo: its bytes in the halo layout (the same in
 * the device send buffer, the host buffers and the device halo buffer), the
 * rank it goes to and the rank whose piece arrives at the same place; the
 * node path (pipe, docs/SCALING.md "One process, several devices") where
 * that rank is a device of this process: a zero-byte note, the data written
 * to the device straight from the pinned buffer the sender read it into. */
struct lat_chunk {
    size_t off, len;
    int to, from, self, tag;
    int send_node, recv_node;
};
/* The path of a halo: this rank itself, a device of this process, MPI. */
enum { LAT_PATH_SELF, LAT_PATH_NODE, LAT_PATH_MPI, LAT_PATH_N };
extern const char *const lat_path_names[LAT_PATH_N];   /* "self", "node", "mpi" */

struct lat_halo {
    struct lat_decomp d;
    struct lat_geom geom;        /* the local part */
    struct lat_boxes in, bd;     /* interior and boundary sites */
    size_t es;                      /* bytes of one real */
    int maxrhs;
    int policy;                     /* LAT_XC_* */
    size_t chunk;                   /* bytes of a chunk (pipe, shm) */
    cl_command_queue qd, qh;        /* device -> host, host -> device */
    cl_kernel pack;                 /* halo_pack */
    size_t pack_local;
    cl_mem dsend;                   /* the packed slabs to send (maxrhs vectors) */
    cl_mem dhv;                     /* vector halos on the device (maxrhs vectors) */
    cl_mem dhfat, dhlng[2];         /* link halos: fat; long full [0], compressed [1] */
    cl_mem pin_send, pin_recv;      /* pinned host buffers, mapped */
    unsigned char *psend, *precv;
    size_t pin_bytes;
    struct clb_comm_shm *win;       /* shm: this rank's two segments (alternate exchanges) */
    int node;                       /* some neighbour is a device of this process (pipe):
                                     * psend holds two segments (alternate exchanges) */
    struct clb_comm_local *local;   /* the node path: the psend of this process's ranks */
    unsigned char *wseg;
    long nexch;                     /* exchanges so far, the same on every rank */
    const unsigned char *last_src;  /* the packed slabs the last exchange sent */
    int last_rhs;
    /* the chunks of one exchange of rhs_ck vectors, and its state */
    struct lat_chunk *ck;
    int nck, cap, rhs_ck;
    cl_event *xd2h, *xh2d;
    struct clb_comm_req **xreq;     /* receives [0, nck), sends [nck, 2 nck) */
    char btl[16], copy[16];         /* what MPI uses on this node (clb_comm_transport) */
    int events_ok;                  /* the core's timer check trusts the device's events
                                     * (Rusticl's read 0-3 ns): else no event times */
};

/* Buffers for up to maxrhs vectors, the queues, the pack kernel (element
 * type of es), the policy and chunk bytes of the exchange (exchange=,
 * chunk=). */
int lat_halo_open(struct clb_env *env, struct lat_halo *h, const struct lat_decomp *d,
                  size_t es, int maxrhs, int policy, size_t chunk);
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
/* The path of the halo this rank receives from neighbour rank nb (pipe:
 * node where it is another device of this process, LAT_PATH_*). */
int lat_halo_path(const struct lat_halo *h, int nb);
/* Of those bytes, the ones each path carries (bytes[LAT_PATH_*]). */
void lat_halo_path_bytes(const struct lat_halo *h, int rhs, size_t bytes[LAT_PATH_N]);
/* The node path's shared buffers: every rank of the job together, once every
 * rank has set up (collective within each process). */
int lat_halo_share(struct lat_halo *h);

/* One launch of the caller's operator kernel over the sites of boxes b
 * (boundary 0: the interior, 1: the boundary), on the main queue, its event
 * in *ev. */
typedef int (*lat_launch_fn)(struct clb_env *env, void *ctx, const struct lat_boxes *b,
                             int boundary, cl_event *ev);

/* What one application leaves: the halo time by the host clock and the
 * events of the pack kernel, the interior launch (NULL when the part has
 * none or it did not run), the boundary launch (NULL when it did not run) and
 * the last host -> device write (NULL: none); lat_overlap_release. */
struct lat_overlap {
    double halo;
    cl_event pack, in, bd, h2d;
    int events_ok;     /* lat_halo's: else only the host clock's halo time */
};
/* Its times in seconds (NAN where the events cannot tell): the pack kernel,
 * the interior and boundary launches, the halo chain (pack start to the end
 * of the last write; the host clock when the events cannot tell), and the
 * time the boundary launch waited after the interior one (the halo time not
 * hidden; the chain after the pack kernel when there is no interior). Only
 * once the application is complete. A device whose timer has no resolution
 * gives NAN but the halo's host-clock time. */
struct lat_xtimes {
    double pack, in, bd, halo, gap;
};
void lat_overlap_times(const struct lat_overlap *o, struct lat_xtimes *t);
/* One application of an operator kernel on the rank's part (the sequence
 * above): the halos of field (rhs vectors of one parity in the layout of
 * lattice.h on the part) travel while launch runs the interior, then launch
 * runs the boundary. err: the caller's error so far: then no OpenCL work but
 * the messages. Every rank calls it together. Returns err, else the first
 * error of the application; *o is set either way. */
int lat_halo_overlap(struct clb_env *env, struct lat_halo *h, cl_mem field, int rhs,
                     lat_launch_fn launch, void *ctx, int err, struct lat_overlap *o);
void lat_overlap_release(struct lat_overlap *o);

/* One transfer of rhs vectors' halos each way (after one to warm up),
 * between the device halo buffer and the host memory the policy uses (pinned
 * buffers; shm: the window segment), timed by events: GB/s device -> host
 * [0] and host -> device [1]. */
int lat_halo_bus(struct lat_halo *h, int rhs, double gbps[2]);
/* The same, both ways at once as an exchange moves them, every rank of the job
 * at the same time (a barrier first): the rates of the node path, with the
 * other devices of the process on the bus too. Every rank calls it. */
int lat_halo_bus_both(struct lat_halo *h, int rhs, double gbps[2]);

/* The message step of one exchange of rhs vectors on its own, host buffers
 * to host buffers as the policy sends them (pipe: every chunk; bulk: every
 * slab, a copy for this rank itself; shm: the zero-byte notes): after one to
 * warm up, `reps` of them, each the slowest rank's (an allreduce); the median
 * seconds, NAN when there is no message step (one rank, pipe or shm). Every
 * rank calls it together. */
int lat_halo_probe(struct lat_halo *h, int rhs, int reps, double *seconds);

/* verify: do the packed slabs the last exchange sent (of rhs vectors of
 * field, the part's layout) equal the host's slabs of field read back
 * (lat_box_copy: an exact copy)? CLB_OK when they do (or no exchange of this
 * case ran), CLB_FAIL with a note naming the first slab that differs, else
 * the error of reading them (CLB_ECL, CLB_ESYS). */
int lat_halo_check_pack(struct clb_env *env, const struct lat_halo *h, cl_mem field, int rhs,
                        struct clb_case *c);

/* Kernel arguments: geo (hx, ly, lz, lt), dist (po, direction bits: y 2,
 * z 4, t 8, rhs, 0), hs (vh, slab sites along y, z, t). */
void lat_halo_kargs(const struct lat_halo *h, int rhs, cl_int4 *geo, cl_int4 *dist,
                    cl_uint4 *hs);
/* A launch's boxes and their ends as the seven kernel arguments from index
 * first (b0..b5, ends). */
int lat_box_args(cl_kernel k, cl_uint first, const struct lat_boxes *b);

/* The summary of the scaling= rows of a run (wl: "dslash" or "cg"): per
 * row, the time per repetition, the halo exchange (host clock, the job's
 * slowest rank) and its model, the time the boundary kernels waited for halos
 * (exposed) and its share of the time. */
void lat_summarize_halo(const char *wl, const struct clb_row *rows, size_t n, FILE *out);

#endif
