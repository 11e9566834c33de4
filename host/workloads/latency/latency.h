/* Pure host logic of the latency workload (latency_host.c), apart from the
 * OpenCL code so the unit tests can check it: the random cycle the kernel
 * chases, where it stands after k steps, and the plateaus of a sweep. */
#ifndef CLB_LATENCY_H
#define CLB_LATENCY_H

#include <stddef.h>
#include <stdint.h>

/* Sattolo's algorithm: a random cyclic permutation of 0..n-1, as next[i] =
 * the element after i. Following next from any element visits all n before
 * it returns (one cycle), in an order no prefetcher can guess. n >= 2. */
void clb_sattolo(uint32_t *next, size_t n, unsigned long long seed);

/* The order of the cycle from element 0: ord[k] = the element k steps
 * after 0, k < n, where the element after i is words[i * w] / w (the
 * kernel's chain: element i at word i * w holds the word index of the next;
 * w = 1: a plain next[] array). Returns 0, or -1 when the words are not one
 * cycle through all n elements (then ord is unspecified). */
int clb_cycle_order(const uint32_t *words, size_t n, size_t w, uint32_t *ord);

/* Plateaus of a sweep: rows sorted by working set ws[], latency lat[]. A
 * plateau is a run of consecutive sizes whose latency stays within tol (0.15)
 * of the plateau's running mean. Names: the last plateau is "memory" when it
 * starts above the last-level cache llc (or llc is 0: no cache); a lone size
 * elsewhere is a "transition"; every other run of two or more sizes is a
 * "plateau": a step is not a cache level (the H100's far half of its L2, a
 * TLB's reach), so no level is named here (see clb_level_step). Returns the
 * number of plateaus written to out (at most n). */
struct clb_plateau {
    int first, last;     /* indices into ws[] / lat[] */
    double mean;         /* mean latency of its sizes */
    char name[16];
};
int clb_plateaus(const double *ws, const double *lat, int n, double tol, double llc,
                 struct clb_plateau *out);

/* The step of a sweep that a reported cache level of `bytes` matches: the
 * rise in latency from plateau p to p + 1 (between sizes a = ws[pl[p].last]
 * and b = ws[pl[p + 1].first], the later mean higher) near the size:
 * a <= 2 bytes and b >= bytes / 2. Of several, the pair that brackets the
 * size (a <= bytes <= b), else the one whose geometric middle lies nearest.
 * Returns p, or -1 when no step matches (the level's size matches no
 * plateau's end). */
int clb_level_step(const double *ws, const struct clb_plateau *pl, int np, double bytes);

/* "1 KiB", "1.5 MiB", "256 MiB": a working set for the summary. */
void clb_bytes_text(double bytes, char *out, size_t n);

#endif
