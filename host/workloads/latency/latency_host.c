/* Host logic of the latency workload (see latency.h). */
#include "latency.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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
    int level = 0;
    for (int i = 0; i < np; i++) {
        struct clb_plateau *p = &out[i];
        int beyond = llc <= 0 || ws[p->first] > llc;
        if (i == np - 1 && beyond)
            snprintf(p->name, sizeof p->name, "memory");
        else if (p->last == p->first)
            snprintf(p->name, sizeof p->name, "transition");
        else if (beyond) /* past the caches but not the end: TLB reach, far memory */
            snprintf(p->name, sizeof p->name, "beyond LLC");
        else
            snprintf(p->name, sizeof p->name, "L%d", ++level);
    }
    return np;
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
