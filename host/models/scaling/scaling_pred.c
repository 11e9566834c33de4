/* N ranks from one device's rows: the prediction of `clbench model scaling`
 * (include/clb_scaling.h; docs/SCALING.md "The scaling model"). */
#include "clb_scaling.h"

#include <math.h>
#include <string.h>

/* Rank of the coordinates c on grid P. */
static int rank_at(const int P[4], const int c[4])
{
    return (c[3] * P[2] + c[2]) * P[1] + c[1];
}

/* The halo bytes rank r receives (face: one face's bytes along each
 * direction) from ranks of its node (*on) and of other nodes (*away); the
 * number of its neighbours on its node. */
static int node_split(const int P[4], int per_node, int r, const double face[4], double *on,
                      double *away)
{
    int c[4] = {0, r % P[1], r / P[1] % P[2], r / P[1] / P[2]}, near = 0;
    *on = *away = 0;
    for (int mu = 1; mu < 4; mu++)
        for (int s = -1; s <= 1 && P[mu] > 1; s += 2) {
            int q[4] = {c[0], c[1], c[2], c[3]};
            q[mu] = (q[mu] + s + P[mu]) % P[mu];
            int same = rank_at(P, q) / per_node == r / per_node;
            *(same ? on : away) += face[mu];
            near += same;
        }
    return near;
}

double clb_sc_mid_seconds(const int P[4], int per_node, const double face[4], double node_gbps,
                          double net_gbps, double net_lat_s, int *off)
{
    int n = P[1] * P[2] * P[3];
    double worst = 0;
    *off = 0;
    if (n < 2)
        return 0;
    int near = 0;
    for (int r = 0; r < n; r++) {
        double on, away;
        near |= node_split(P, per_node, r, face, &on, &away) > 0;
        double t = on > 0 ? on / (node_gbps * 1e9) : 0;
        if (away > 0) {
            double u = away / (net_gbps * 1e9) + net_lat_s;
            t = u > t ? u : t;
            *off = 1;
        }
        worst = t > worst ? t : worst;
    }
    *off |= near << 1;
    return worst;
}

/* The bytes of one face along each direction of part (halo directions dec),
 * at the 1-rank run's bytes per halo site. */
static double faces(const struct clb_sc_dev *d, const int part[4], const int dec[4],
                    double face[4])
{
    int ddec[4], P1[4] = {1, 1, 1, 1}, one[4] = {0, 0, 0, 0};
    clb_sc_dirs(P1, ddec);
    double per_site = d->halo_bytes / clb_sc_halo_sites(d->part, ddec), all = 0;
    for (int mu = 0; mu < 4; mu++) {
        face[mu] = 0;
        if (mu == 0 || !dec[mu])
            continue;
        one[mu] = 1;
        face[mu] = clb_sc_halo_sites(part, one) / 2 * per_site;
        one[mu] = 0;
        all += 2 * face[mu];
    }
    return all;
}

/* The chain after the pack (seconds) of one path: the message (mid, its
 * seconds) between the bus steps of the host-staged path. */
static double path_chain(const struct clb_sc_dev *d, double bytes, double mid, int staged, int n)
{
    double mid_gbps = mid > 0 ? bytes / mid / 1e9 : INFINITY;
    if (!staged) {
        struct clb_sc_chain c = {bytes, d->chunk, INFINITY, mid_gbps, INFINITY, 0, 1};
        return n > 1 ? clb_sc_chain_seconds(&c) : 0.0;
    }
    /* the bus steps at the rates that give the 1-rank run's measured chain */
    struct clb_sc_chain one = {d->halo_bytes, d->chunk, d->d2h_gbps, INFINITY, d->h2d_gbps, 0,
                               d->pipelined};
    double model1 = clb_sc_chain_seconds(&one), s = model1 > 0 ? d->chain / model1 : 1;
    struct clb_sc_chain c = {bytes, d->chunk, d->d2h_gbps / s, mid_gbps, d->h2d_gbps / s, 0,
                             d->pipelined};
    return clb_sc_chain_seconds(&c);
}

/* The node path's chain (seconds after the pack) of the slowest rank: its
 * halos from ranks of its node through pinned host memory at the node's
 * rates, beside those from other nodes host-staged over the network; NAN
 * when some rank has a neighbour on its node and the node rates are unknown. */
static double node_chain(const struct clb_sc_dev *d, const struct clb_sc_links *k,
                         const int P[4], const double face[4])
{
    int n = P[1] * P[2] * P[3];
    double worst = 0;
    for (int r = 0; r < n && n > 1; r++) {
        double on, away;
        node_split(P, k->per_node, r, face, &on, &away);
        double t = 0;
        if (on > 0) {
            if (!(k->node_d2h_gbps > 0) || !(k->node_h2d_gbps > 0))
                return NAN;
            struct clb_sc_chain ch = {on, d->chunk > 0 ? d->chunk : on, k->node_d2h_gbps,
                                      INFINITY, k->node_h2d_gbps, 0, 1};
            t = clb_sc_chain_seconds(&ch);
        }
        if (away > 0) {
            double u = path_chain(d, away, away / (k->net_gbps * 1e9) + k->net_lat_s, 1, n);
            t = u > t ? u : t;
        }
        worst = t > worst ? t : worst;
    }
    return worst;
}

void clb_sc_predict(const struct clb_sc_dev *d, const struct clb_sc_links *k, const int L[4],
                    int weak, const int P[4], struct clb_sc_point *out)
{
    int dec[4], ddec[4], P1[4] = {1, 1, 1, 1};
    double face[4];
    memset(out, 0, sizeof *out);
    memcpy(out->P, P, sizeof out->P);
    out->n = P[1] * P[2] * P[3];
    clb_sc_part(L, P, weak, out->part);
    clb_sc_dirs(P, dec);
    clb_sc_dirs(P1, ddec);
    double vh = (double)(out->part[0] / 2) * out->part[1] * out->part[2] * out->part[3];
    double vd = (double)(d->part[0] / 2) * d->part[1] * d->part[2] * d->part[3];
    double in_d = clb_sc_interior_sites(d->part, ddec), in_n = clb_sc_interior_sites(out->part, dec);
    double bytes = faces(d, out->part, dec, face);
    out->halo_bytes = bytes;
    /* the kernels scale with the sites; the pack with the halo bytes */
    double rest = d->rest * vh / vd;
    double in = in_d > 0 ? d->in * in_n / in_d : rest * in_n / vh;
    double pack = d->pack > 0 ? d->pack * bytes / d->halo_bytes : 2 * bytes / (d->plain_gbps * 1e9);
    /* one part (weak) or the whole lattice over N (strong) on one device, plain */
    double vl = (double)(L[0] / 2) * L[1] * L[2] * L[3];
    double ideal = weak ? d->tau * vl : d->tau * vl / out->n;
    /* the paths: host-staged, device to device, the node path (NAN: unknown) */
    for (int path = 0; path < 3; path++) {
        int staged = path == 0, off = 0;
        double chain, node = staged ? k->shm_gbps : k->p2p_gbps;
        if (path == 2) /* one rank alone exchanges with itself as host-staged does */
            chain = out->n == 1 ? d->chain * bytes / d->halo_bytes : node_chain(d, k, P, face);
        else if (staged && out->n == 1)
            chain = d->chain * bytes / d->halo_bytes;
        else {
            double mid = clb_sc_mid_seconds(P, k->per_node, face, isnan(node) ? 1 : node,
                                            k->net_gbps, k->net_lat_s, &off);
            chain = path_chain(d, bytes, mid, staged, out->n);
        }
        out->off_node |= off & 1;
        if (staged && (off & 2) && isnan(k->shm_gbps))
            chain = NAN;
        /* a chain without a pack (host-staged rows before it) keeps none */
        double pk = path != 1 && d->pack <= 0 ? 0 : pack;
        struct clb_sc_app a = {rest, in, pk, chain, 1};
        out->t[path] = isnan(chain) ? NAN : clb_sc_app_seconds(&a);
        out->share[path] = isnan(chain) ? NAN : (pk + clb_sc_exposed(&a)) / out->t[path];
        out->eff[path] = isnan(chain) ? NAN : ideal / out->t[path];
    }
}
