/* The HISQ talk's Dslash traffic model [Wagner15]:
 * per even site 1146 flop per right-hand side; links loaded once for all
 * right-hand sides, 16 input vectors and one output vector per rhs; the cg
 * solver: two applications and the vector updates per iteration. The dslash
 * and cg rows count with these functions (count()), and `clbench model
 * dslash` (dslash/dslash_model.c) prints them. */
#include "lattice.h"

double clb_dslash_flops_site(int rhs)
{
    return CLB_DSLASH_FLOPS_SITE * (double)rhs;
}

double clb_dslash_bytes_site(int rhs, double hit, int compressed, size_t real_size)
{
    double links = compressed ? CLB_DSLASH_LINK_BYTES_COMPRESSED : CLB_DSLASH_LINK_BYTES_FULL;
    /* The talk's upper limit: a vector that hits in the cache costs nothing. */
    double vectors = CLB_DSLASH_NEIGHBORS * CLB_DSLASH_VECTOR_BYTES * (1.0 - hit);
    double bytes = links + (double)rhs * (vectors + CLB_DSLASH_VECTOR_BYTES);
    /* The talk counts fp32; fp64 doubles every figure. */
    return bytes * (double)real_size / 4.0;
}

double clb_dslash_intensity(int rhs, double hit, int compressed, size_t real_size)
{
    return clb_dslash_flops_site(rhs) / clb_dslash_bytes_site(rhs, hit, compressed, real_size);
}

/* ---- the cg solver: the same figures, two applications per iteration ---- */

double clb_cg_flops_site(double rhs_iters, int rhs)
{
    return rhs_iters * (2 * CLB_DSLASH_FLOPS_SITE + CLB_CG_LINALG_FLOPS_SITE) +
           (double)rhs * CLB_CG_INIT_FLOPS_SITE;
}

double clb_cg_bytes_site(double iters, double rhs_iters, int rhs, int compressed,
                         size_t real_size)
{
    double links = compressed ? CLB_DSLASH_LINK_BYTES_COMPRESSED : CLB_DSLASH_LINK_BYTES_FULL;
    double vectors = CLB_DSLASH_VECTOR_BYTES *
                     (rhs_iters * CLB_CG_VECTORS_ITER + (double)rhs * CLB_CG_INIT_VECTORS);
    return (2 * links * iters + vectors) * (double)real_size / 4.0;
}

double clb_cg_intensity(int rhs, int compressed, size_t real_size)
{
    return clb_cg_intensity_hit(rhs, 0, compressed, real_size);
}

double clb_cg_intensity_hit(int rhs, double hit, int compressed, size_t real_size)
{
    double links = compressed ? CLB_DSLASH_LINK_BYTES_COMPRESSED : CLB_DSLASH_LINK_BYTES_FULL;
    double flops = (double)rhs * (2 * CLB_DSLASH_FLOPS_SITE + CLB_CG_LINALG_FLOPS_SITE);
    /* the two applications' neighbour vectors are what a cache can hold */
    double vectors = CLB_CG_VECTORS_ITER - 2 * CLB_DSLASH_NEIGHBORS * hit;
    double bytes = 2 * links + (double)rhs * vectors * CLB_DSLASH_VECTOR_BYTES;
    return flops / (bytes * (double)real_size / 4.0);
}
