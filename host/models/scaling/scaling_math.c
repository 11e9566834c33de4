/* The halo model's arithmetic (include/clb_scaling.h): grids, halos, the
 * exchange chain and the application. */
#include "clb_scaling.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void clb_sc_dirs(const int P[4], int dec[4])
{
    dec[0] = 0;
    dec[1] = P[1] > 1;
    dec[2] = P[2] > 1;
    /* nothing split: one rank, whose t halos come from itself */
    dec[3] = P[3] > 1 || (P[1] == 1 && P[2] == 1);
}

void clb_sc_part(const int L[4], const int P[4], int weak, int part[4])
{
    for (int mu = 0; mu < 4; mu++)
        part[mu] = weak ? L[mu] : (L[mu] + P[mu] - 1) / P[mu];
}

int clb_sc_grid_parse(const char *text, long v[4])
{
    const char *p = text;
    for (int k = 0; k < 4; k++, p++) {
        char *end = (char *)p;
        v[k] = *p >= '0' && *p <= '9' ? strtol(p, &end, 10) : 0;
        if (v[k] < 1 || v[k] > 1000000 || *end != "xxx"[k])   /* "xxx"[3]: the end */
            return -1;
        p = end;
    }
    return 0;
}

int clb_sc_grid_ok(const int L[4], const int P[4], int weak)
{
    int dec[4];
    clb_sc_dirs(P, dec);
    if (P[0] != 1)
        return 0;
    for (int mu = 1; mu < 4; mu++) {
        if (P[mu] < 1 || (!weak && P[mu] > L[mu]))
            return 0;
        /* the thinnest part of a strong split */
        int thin = weak ? L[mu] : L[mu] / P[mu];
        if (dec[mu] && thin < CLB_SC_HALO)
            return 0;
    }
    return 1;
}

/* Sites of one parity of a slab of CLB_SC_HALO slices across direction mu. */
static double slab_sites(const int part[4], int mu)
{
    double s = (double)(part[0] / 2) * CLB_SC_HALO;
    for (int nu = 1; nu < 4; nu++)
        if (nu != mu)
            s *= part[nu];
    return s;
}

double clb_sc_halo_sites(const int part[4], const int dec[4])
{
    double s = 0;
    for (int mu = 1; mu < 4; mu++)
        if (dec[mu])
            s += 2 * slab_sites(part, mu);
    return s;
}

double clb_sc_interior_sites(const int part[4], const int dec[4])
{
    double s = part[0] / 2;
    for (int mu = 1; mu < 4; mu++) {
        int e = dec[mu] ? part[mu] - 2 * CLB_SC_HALO : part[mu];
        s *= e > 0 ? e : 0;
    }
    return s;
}

/* Is candidate a (halo ca, interior ia) better than b? */
static int better(const int a[4], double ca, double ia, const int b[4], double cb, double ib)
{
    if (ca != cb)
        return ca < cb;
    if (ia != ib) /* more sites to hide the chain behind */
        return ia > ib;
    int na = (a[1] > 1) + (a[2] > 1) + (a[3] > 1), nb = (b[1] > 1) + (b[2] > 1) + (b[3] > 1);
    if (na != nb)
        return na < nb;
    if (a[3] != b[3])
        return a[3] > b[3];
    return a[2] > b[2];
}

int clb_sc_grid_auto(const int L[4], int n, int weak, int P[4])
{
    int best[4] = {0, 0, 0, 0}, found = 0;
    double bcost = 0, bin = 0;
    for (int py = 1; py <= n; py++) {
        if (n % py)
            continue;
        for (int pz = 1; pz <= n / py; pz++) {
            if ((n / py) % pz)
                continue;
            int Q[4] = {1, py, pz, n / py / pz}, part[4], dec[4];
            if (!clb_sc_grid_ok(L, Q, weak))
                continue;
            clb_sc_part(L, Q, weak, part);
            clb_sc_dirs(Q, dec);
            double cost = clb_sc_halo_sites(part, dec), in = clb_sc_interior_sites(part, dec);
            if (!found || better(Q, cost, in, best, bcost, bin)) {
                memcpy(best, Q, sizeof best);
                bcost = cost;
                bin = in;
                found = 1;
            }
        }
    }
    if (!found)
        return -1;
    memcpy(P, best, sizeof best);
    return 0;
}

/* Seconds to move b bytes at g GB/s (none: INFINITY or not positive). */
static double at(double b, double g)
{
    return isfinite(g) && g > 0 ? b / (g * 1e9) : 0.0;
}

double clb_sc_chain_seconds(const struct clb_sc_chain *c)
{
    if (!(c->bytes > 0))
        return 0.0;
    double lat = c->lat_s > 0 ? c->lat_s : 0.0;
    if (!c->pipelined)
        return at(c->bytes, c->d2h_gbps) + at(c->bytes, c->mid_gbps) +
               at(c->bytes, c->h2d_gbps) + lat;
    double k = c->chunk > 0 && c->chunk < c->bytes ? ceil(c->bytes / c->chunk) : 1.0;
    double b = c->bytes / k;
    double s[3] = {at(b, c->d2h_gbps), at(b, c->mid_gbps), at(b, c->h2d_gbps)};
    double mx = fmax(s[0], fmax(s[1], s[2]));
    return s[0] + s[1] + s[2] + (k - 1) * mx + lat;
}

double clb_sc_exposed(const struct clb_sc_app *a)
{
    return a->chain > a->in ? a->chain - a->in : 0.0;
}

double clb_sc_app_seconds(const struct clb_sc_app *a)
{
    return a->rest + a->nx * (a->pack + clb_sc_exposed(a));
}

double clb_sc_efficiency(const struct clb_sc_app *a)
{
    double t = clb_sc_app_seconds(a);
    return t > 0 ? a->rest / t : NAN;
}
