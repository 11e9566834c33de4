/* `clbench model dslash`: the HISQ talk's Dslash traffic model [Wagner15]
 * (lattice_counts.c, the functions the dslash and cg rows count with) per rhs
 * and per vector cache hit rate, and the cg solver's per rhs. */
#include "dslash.h"

#include <stdlib.h>
#include <string.h>

/* ---- clbench model dslash ------------------------------------------------ */

static const struct clb_model_param params[] = {
    {"rhs", "1..5", "right-hand sides (a list or range)"},
    {"hit", "0,15/16,3/16,5/16,7/16,9/16", "vector cache hit rates (1 rhs)"},
    {"links", "compressed", "long links: compressed (56 B) or full (72 B)"},
    {"peak_bw", NULL, "GB/s [peak_bandwidth_gbs]"},
    {"triad_bw", NULL, "STREAM triad GB/s [profile [model] stream_triad_gbs]"},
    {NULL, NULL, NULL},
};

/* "a" or "a/b", a fraction in [0, 1]. */
static int parse_fraction(const char *s, double *out)
{
    char *end;
    double a = strtod(s, &end), b = 1;
    if (end != s && *end == '/') {
        const char *q = end + 1;
        b = strtod(q, &end);
        if (end == q)
            return -1;
    }
    if (end == s || *end || !(b > 0) || !(a / b >= 0) || a / b > 1)
        return -1;
    *out = a / b;
    return 0;
}

/* A table's line: the first column (w wide), bytes/site, flop/byte, GFlop/s
 * at peak_bw and at triad_bw ("-" where not given), then extra. */
static void rate_line(const char *first, int w, double bytes, double ai, double peak, double tbw,
                      const char *extra)
{
    char cell[2][32];
    double bw[2] = {peak, tbw};
    for (int k = 0; k < 2; k++)
        if (isnan(bw[k]))
            clb_strlcpy(cell[k], "-", sizeof cell[k]);
        else
            snprintf(cell[k], sizeof cell[k], "%.1f", bw[k] * ai);
    printf("%-*s %10.0f %10.2f %18s %19s%s\n", w, first, bytes, ai, cell[0], cell[1], extra);
}

/* triad_bw: as any parameter, else the profile's measured STREAM triad
 * ([model] stream_triad_gbs). *text NULL when nobody gives it. */
static int triad(struct clb_model_ctx *m, double *out, const char **text, const char **origin)
{
    *text = clb_model_text(m, "triad_bw", origin);
    if (*text)
        return clb_model_num(m, "triad_bw", out, 0);
    *out = NAN;
    const struct clb_profile *p = clb_model_profile(m);
    *text = clb_profile_model(p, "stream_triad_gbs");
    if (!*text)
        return CLB_OK;
    *origin = "profile [model] stream_triad_gbs";
    char *end;
    double d = strtod(*text, &end);
    while (*end == ' ')
        end++;
    if (end == *text || *end || !isfinite(d) || d < 0)
        return clb_eusage("model dslash: parameter triad_bw = '%s' is not a non-negative number "
                          "(from %s in %s)", *text, *origin, p->path);
    *out = d;
    return CLB_OK;
}

static int run(struct clb_model_ctx *m)
{
    const char *type = clb_model_type(m) ? clb_model_type(m) : "float";
    if (strcmp(type, "float") && strcmp(type, "double"))
        return clb_eusage("model dslash: unknown type '%s' (known: float, double)", type);
    size_t real = strcmp(type, "float") ? 8 : 4;
    const char *origin;
    const char *links = clb_model_text(m, "links", &origin);
    if (strcmp(links, "compressed") && strcmp(links, "full"))
        return clb_eusage("model dslash: links = '%s' (known: compressed, full)", links);
    int comp = strcmp(links, "compressed") == 0;
    long rhs[64];
    char err[512];
    int nr = clb_parse_int_list(clb_model_text(m, "rhs", &origin), 1, 64, rhs, 64, err,
                                sizeof err);
    if (nr < 0)
        return clb_eusage("model dslash: parameter rhs: %s", err);
    double peak, tbw;
    const char *ttext, *torigin;
    int rc;
    if ((rc = clb_model_num(m, "peak_bw", &peak, 0)) || (rc = triad(m, &tbw, &ttext, &torigin)))
        return rc;
    int nh;
    char **hits = clb_split(clb_model_text(m, "hit", &origin), &nh);
    if (!hits)
        return CLB_ESYS;
    double hv[64];
    for (int i = 0; i < nh; i++)
        if (i >= 64 || parse_fraction(hits[i], &hv[i])) {
            clb_seterr("model dslash: hit rate '%s' (expected a fraction in [0,1], e.g. 0.5 or "
                       "7/16; at most 64)", hits[i]);
            free(hits);
            return CLB_EUSAGE;
        }
    const struct clb_profile *p = clb_model_profile(m);
    double link_b = clb_dslash_bytes_site(0, 0, comp, real);
    printf("dslash model (HISQ talk): %s, %s long links; per even site %.0f flop x rhs, "
           "%.0f B links + %.0f B vectors x rhs\n", type, links, CLB_DSLASH_FLOPS_SITE, link_b,
           clb_dslash_bytes_site(1, 0, comp, real) - link_b);
    printf("profile %s\n", p ? p->id : "(none)");
    clb_model_show(m, "peak_bw");
    printf("  %-18s %-14s (%s)\n", "triad_bw", ttext ? ttext : "-", ttext ? torigin : "not set");
    const char *src = clb_profile_model(p, "stream_source");
    if (src && !clb_model_given(m, "triad_bw") && !isnan(tbw))
        printf("  triad source: %s\n", src);
    if (isnan(peak) && isnan(tbw))   /* the columns would be "-" with no word why */
        printf("  (no bandwidth, so no GFlop/s: give -p PROFILE (clbench profiles), --param "
               "peak_bw=GBS or --ceilings FILE)\n");
    printf("%-6s %10s %10s %18s %19s\n", "rhs", "bytes/site", "flop/byte", "GFlop/s (peak bw)",
           "GFlop/s (triad bw)");
    char r[24];
    for (int i = 0; i < nr; i++) {
        snprintf(r, sizeof r, "%ld", rhs[i]);
        rate_line(r, 6, clb_dslash_bytes_site((int)rhs[i], 0, comp, real),
                  clb_dslash_intensity((int)rhs[i], 0, comp, real), peak, tbw, "");
    }
    printf("vector cache hit rate, 1 rhs (cache hits free: an upper limit)\n");
    printf("%-8s %10s %10s %18s %19s\n", "hit", "bytes/site", "flop/byte", "GFlop/s (peak bw)",
           "GFlop/s (triad bw)");
    for (int i = 0; i < nh; i++)
        rate_line(hits[i], 8, clb_dslash_bytes_site(1, hv[i], comp, real),
                  clb_dslash_intensity(1, hv[i], comp, real), peak, tbw, "");
    free(hits);
    /* the cg workload's solver: two applications and the vector updates per
     * iteration (clb_cg_*: the same figures) */
    printf("cg solver per iteration (2 x %.0f + %.0f flop x rhs; 2 x %.0f B links + %.0f B "
           "vectors x rhs)\n", CLB_DSLASH_FLOPS_SITE, CLB_CG_LINALG_FLOPS_SITE, link_b,
           CLB_CG_VECTORS_ITER * CLB_DSLASH_VECTOR_BYTES * (double)real / 4.0);
    printf("%-6s %10s %10s %18s %19s %10s\n", "rhs", "bytes/site", "flop/byte", "GFlop/s (peak bw)",
           "GFlop/s (triad bw)", "of dslash");
    for (int i = 0; i < nr; i++) {
        double ai = clb_cg_intensity((int)rhs[i], comp, real);
        char of[24];
        snprintf(r, sizeof r, "%ld", rhs[i]);
        snprintf(of, sizeof of, " %10.2f", ai / clb_dslash_intensity((int)rhs[i], 0, comp, real));
        rate_line(r, 6, clb_cg_bytes_site(1, (int)rhs[i], 0, comp, real), ai, peak, tbw, of);
    }
    return CLB_OK;
}

const struct clb_model_def dslash_models[] = {
    {"dslash", NULL, NULL,
     "HISQ Dslash flop/byte and GFlop/s per rhs and cache hit rate, and the cg solver's", params,
     run},
    {0, 0, 0, 0, 0, 0},
};
