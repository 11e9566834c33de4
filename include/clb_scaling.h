/* The halo-exchange model of a 4-D stencil split over ranks (host/models/scaling/;
 * docs/SCALING.md "Timing and the halo model"): the grid that minimises the halo bytes
 * per rank, the halo of a part, the time of one exchange chain (pack, device
 * -> host, the message, host -> device: one after the other, or pipelined in
 * chunks) and of one application with its interior kernel overlapping the
 * chain. Pure arithmetic, no device: the distributed lattice workloads use it
 * for their rows' model and `clbench model scaling` for N ranks; its numbers
 * for fixed inputs are checked exactly (tests/unit/test_scaling.c).
 *
 * Directions 0..3 are x, y, z, t. x is never split (the half-indexed
 * direction of the even/odd layout); a grid is 1 x Py x Pz x Pt. A direction
 * has halos when it is split, and t also when nothing is split (one rank
 * exchanges its t halos with itself). Halos are CLB_SC_HALO slices deep on
 * each side (three-hop links). */
#ifndef CLB_SCALING_H
#define CLB_SCALING_H

#include <stddef.h>

#define CLB_SC_HALO 3

/* The directions with halos of grid P (dec[mu] 1 or 0). */
void clb_sc_dirs(const int P[4], int dec[4]);

/* The largest part of grid P: the slowest rank's. weak: the parts are L
 * itself; strong: L is the whole lattice and an extent G over p parts gives
 * parts of G/p and G/p + 1 sites. */
void clb_sc_part(const int L[4], const int P[4], int weak, int part[4]);

/* The four extents of grid text "AxBxCxD", each in 1..1000000 (so that a
 * product of them never overflows); -1 when it is not that. */
int clb_sc_grid_parse(const char *text, long v[4]);
/* Can L be split by P: every direction with halos at least CLB_SC_HALO
 * sites in every part (strong; weak parts are L), p <= the extent. */
int clb_sc_grid_ok(const int L[4], const int P[4], int weak);

/* Sites of one parity in the halos one rank receives in one exchange (both
 * sides of every direction with halos) for part `part`, halo directions dec. */
double clb_sc_halo_sites(const int part[4], const int dec[4]);
/* The sites of one parity of the part whose neighbours up to CLB_SC_HALO hops
 * along the directions with halos are all local (the interior). */
double clb_sc_interior_sites(const int part[4], const int dec[4]);

/* The grid for n ranks that minimises the halo sites of the largest part
 * among those that can split L; ties: the larger interior (more work to
 * hide the exchange behind), fewer split directions, then t before z before
 * y (longer contiguous runs in the halo). 0 and P set; -1 when no grid can
 * split L. */
int clb_sc_grid_auto(const int L[4], int n, int weak, int P[4]);

/* ---- one exchange ------------------------------------------------------------ */

/* The stages of one halo chain after the pack kernel: bytes per direction
 * (each rank sends and receives `bytes`), and the rates of its three steps in
 * GB/s (1e9 B/s): device -> host, the message, host -> device. A step that
 * does not happen has rate INFINITY (a device-to-device path has no d2h/h2d;
 * one rank talking to itself has no message). lat_s: the message's fixed
 * cost in seconds (per exchange, all messages). pipelined: the steps of
 * successive chunks of at most `chunk` bytes overlap (else one after the
 * other for the whole halo). */
struct clb_sc_chain {
    double bytes, chunk;
    double d2h_gbps, mid_gbps, h2d_gbps;
    double lat_s;
    int pipelined;
};
/* Seconds of the chain: not pipelined, bytes/d2h + bytes/mid + bytes/h2d +
 * lat; pipelined in K = ceil(bytes/chunk) equal chunks of c = bytes/K,
 * (c/d2h + c/mid + c/h2d) + (K - 1) * max(c/d2h, c/mid, c/h2d) + lat. */
double clb_sc_chain_seconds(const struct clb_sc_chain *c);

/* One application (or repetition of nx of them): the part's kernels take
 * `rest` seconds in all, of which each exchange's interior kernel `in`
 * seconds overlap its chain; the pack kernel `pack` seconds and the chain
 * `chain` seconds per exchange. The boundary kernel waits for the halos
 * max(0, chain - in) per exchange (the exposed time). */
struct clb_sc_app {
    double rest, in, pack, chain;
    double nx;
};
/* rest + nx * (pack + max(0, chain - in)). */
double clb_sc_app_seconds(const struct clb_sc_app *a);
/* The exposed halo time of one exchange: max(0, chain - in). */
double clb_sc_exposed(const struct clb_sc_app *a);
/* The share of the time not spent on the halos: rest / app_seconds. */
double clb_sc_efficiency(const struct clb_sc_app *a);

/* ---- N ranks from one device's rows (`clbench model scaling`) --------------- */

/* What the rows of one device give, per operator application (one halo
 * exchange): the plain kernel's seconds per even site, the 1-rank
 * distributed run's part and its halo chain (docs/SCALING.md, "The scaling
 * model"). */
struct clb_sc_dev {
    double tau;          /* plain: seconds per even site and application */
    double plain_gbps;   /* plain: device-memory bytes / second (a pack kernel's rate) */
    int part[4];         /* the 1-rank run's lattice */
    double rest;         /* its seconds per application but the pack and the waits */
    double in;           /* its interior kernel's seconds per application */
    double pack;         /* its pack kernel's seconds (0: a chain without one) */
    double halo_bytes;   /* its halo per exchange */
    double chain;        /* its chain's seconds after the pack, per exchange (measured) */
    double d2h_gbps, h2d_gbps; /* its bus rates (measured) */
    double chunk;        /* its chunk bytes (0: whole) */
    int pipelined;       /* its chain overlaps chunks (pipe, shm) */
};

/* The links between ranks (GB/s per direction, seconds). */
struct clb_sc_links {
    int per_node;        /* ranks (GPUs) per node */
    double shm_gbps;     /* host-staged MPI between ranks of one node (NAN: unknown) */
    double p2p_gbps;     /* device to device on a node (NVLink, or PCIe) */
    double net_gbps;     /* between nodes, per rank */
    double net_lat_s;    /* between nodes, per exchange */
    /* the node path (one process drives the GPUs of a node, --devices-per-rank):
     * device -> host and host -> device both ways at once with every GPU of
     * the node on the bus, GB/s (not > 0: unknown) */
    double node_d2h_gbps, node_h2d_gbps;
};

/* One prediction: N ranks on grid P (part: the largest), per application. */
struct clb_sc_point {
    int n, P[4], part[4];
    double halo_bytes;           /* per rank and exchange */
    int off_node;                /* directions whose ring leaves a node */
    double t[3], share[3], eff[3]; /* [0] host-staged, [1] device to device, [2] the node
                                    * path (MPI only between nodes); NAN: unknown */
};

/* The message step of one exchange on grid P, nodes of per_node consecutive
 * ranks (rank = (ct Pz + cz) Py + cy): each rank sends face[mu] bytes to
 * each of its two neighbours along every split direction mu, to a rank of
 * its node at node_gbps, else at net_gbps (plus net_lat_s once), both at
 * once; the slowest rank's seconds. *off: bit 0 when some rank has a
 * neighbour on another node, bit 1 when some rank has one on its node. */
double clb_sc_mid_seconds(const int P[4], int per_node, const double face[4], double node_gbps,
                          double net_gbps, double net_lat_s, int *off);

/* Predict N ranks on grid P (L: the part of each rank (weak) or the whole
 * lattice (strong)): the host-staged, device-to-device and node-path chains
 * and the efficiency as docs/SCALING.md ("The scaling model") derives them. */
void clb_sc_predict(const struct clb_sc_dev *d, const struct clb_sc_links *k, const int L[4],
                    int weak, const int P[4], struct clb_sc_point *out);

/* `clbench model scaling` (host/models/scaling/scaling_model.c), in the
 * models' registry. */
struct clb_model_def;
extern const struct clb_model_def clb_model_scaling_def;

#endif
