/* The halo-exchange model of a 4-D stencil split over ranks (host/models/scaling/;
 * docs/SCALING.md "The halo model"): the grid that minimises the halo bytes
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

#endif
