/* Host logic of the latency workload (see latency.h). */
#include "latency.h"

#include <math.h>
#include <stdio.h>

#include "clb_workload.h"

void clb_sattolo(uint32_t *next, size_t n, unsigned long long seed)
{
    unsigned long long st = seed ? seed : 1;
    for (size_t i = 0; i < n; i++)
        next[i] = (uint32_t)i;
    /* Sattolo: swap with j < i (never j = i), from the top down: one cycle */
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(clb_rand_next(&st) % i);
        uint32_t t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
}

int clb_cycle_order(const uint32_t *words, size_t n, size_t w, uint32_t *ord)
{
    size_t p = 0;
    for (size_t k = 0; k < n; k++) {
        if (k > 0 && p == 0)
            return -1; /* back at 0 before visiting all */
        ord[k] = (uint32_t)p;
        uint32_t v = words[p * w];
        if (v % w || v / w >= n)
            return -1;
        p = v / w;
    }
    return p == 0 ? 0 : -1;
}

int clb_plateaus(const double *ws, const double *lat, int n, double tol, double llc,
                 struct clb_plateau *out)
{
    int np = 0;
    for (int i = 0; i < n; i++) {
        struct clb_plateau *p = np ? &out[np - 1] : NULL;
        if (p && fabs(lat[i] - p->mean) <= tol * p->mean) {
            int k = i - p->first;
            p->mean = (p->mean * k + lat[i]) / (k + 1);
            p->last = i;
            continue;
        }
        out[np++] = (struct clb_plateau){i, i, lat[i], ""};
    }
    /* No cache level is named here: a step in latency is not a cache level
     * (the H100's far half of its L2 is one, a TLB's reach another); the
     * summary names the levels the device reports (clb_level_step). */
    for (int i = 0; i < np; i++) {
        struct clb_plateau *p = &out[i];
        int beyond = llc <= 0 || ws[p->first] > llc;
        snprintf(p->name, sizeof p->name, "%s", i == np - 1 && beyond ? "memory"
                                                : p->last == p->first ? "transition"
                                                                      : "plateau");
    }
    return np;
}

/* Distance of a step's pair (a, b) from a size, on a log scale: 0 when the
 * pair brackets it. */
static double step_distance(double a, double b, double bytes)
{
    if (a <= bytes && bytes <= b)
        return 0;
    return fabs(log(sqrt(a * b) / bytes));
}

int clb_level_step(const double *ws, const struct clb_plateau *pl, int np, double bytes)
{
    int best = -1;
    double dbest = 0;
    for (int p = 0; p + 1 < np && bytes > 0; p++) {
        double a = ws[pl[p].last], b = ws[pl[p + 1].first];
        if (pl[p + 1].mean <= pl[p].mean || a > 2 * bytes || b < bytes / 2)
            continue;
        double d = step_distance(a, b, bytes);
        if (best < 0 || d < dbest) {
            best = p;
            dbest = d;
        }
    }
    return best;
}

void clb_bytes_text(double b, char *out, size_t n)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024 && u < 4) {
        b /= 1024;
        u++;
    }
    snprintf(out, n, b == floor(b) ? "%.0f %s" : "%.3g %s", b, unit[u]);
}
