/* dslash: the HISQ staggered operator applied from the odd to the even sites
 * (the dslash kernel; dslash_par applies it on either parity, and the cg
 * workload's kernels at the end of this file build its CG inverter on it),
 *   w(x) = sum_mu U(x,mu) v(x+mu) - U^dag(x-mu,mu) v(x-mu)
 *               + N(x,mu) v(x+3mu) - N^dag(x-3mu,mu) v(x-3mu)
 * for RHS right-hand sides at once: every link is loaded once per work-item
 * and applied to all RHS vectors, whose accumulators stay in registers
 * (RHS is a compile-time constant so the loops unroll).
 *
 * One work-item per even site (dimension 0). Dimension 1 selects a block of
 * PASSES x RHS right-hand sides: the `cache` kernel of the host is this kernel
 * built with RHS=1 and launched with one work-item per (site, rhs), so the
 * links are shared between right-hand sides through the cache instead of
 * registers; `regcache` is RHS=k with rhs/k work-items per site. With
 * PASSES > 1 a work-item applies the stencil PASSES times, RHS right-hand
 * sides at a time (the links read again on each pass, from the cache): the
 * registers of RHS accumulators, not of all.
 *
 * Layout (host/workloads/lattice/lattice.h): structure of arrays of complex numbers,
 *   link   ((p*4 + mu)*NE + e)*vh + i      NE = 9, or 7 with COMPRESSED
 *   vector (r*3 + c)*vh + i
 * so that consecutive work-items read consecutive addresses. Neighbour
 * indices are computed here from the coordinates (no table in memory).
 * Options: -DT=float|double -DRHS=1..8 [-DCOMPRESSED=1] [-DPASSES=n]. */
#define T2 CLB_CAT(T, 2)
#ifndef PASSES
#define PASSES 1
#endif
#ifdef COMPRESSED
#define NE_LONG 7
#else
#define NE_LONG 9
#endif

/* a * b */
inline T2 cmul(T2 a, T2 b) { return (T2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
/* conj(a) * b */
inline T2 cmulc(T2 a, T2 b) { return (T2)(a.x * b.x + a.y * b.y, a.x * b.y - a.y * b.x); }
/* conj(a * b) */
inline T2 cmul_conj(T2 a, T2 b) { return (T2)(a.x * b.x - a.y * b.y, -(a.x * b.y + a.y * b.x)); }

/* The 9 entries of a full link, entry e at base + e*vh. */
inline void load_full(__global const T2 *restrict l, uint base, uint vh, T2 *m)
{
#pragma unroll
    for (int e = 0; e < 9; e++)
        m[e] = l[base + (uint)e * vh];
}

/* A long link: 9 entries, or rows 0, 1 and det with row 2 = det * conj(r0 x r1)
 * (valid for U(3): any unit-modulus determinant). */
inline void load_long(__global const T2 *restrict l, uint base, uint vh, T2 *m)
{
#ifdef COMPRESSED
#pragma unroll
    for (int e = 0; e < 6; e++)
        m[e] = l[base + (uint)e * vh];
    T2 det = l[base + 6u * vh];
    m[6] = cmul(det, cmul_conj(m[1], m[5]) - cmul_conj(m[2], m[4]));
    m[7] = cmul(det, cmul_conj(m[2], m[3]) - cmul_conj(m[0], m[5]));
    m[8] = cmul(det, cmul_conj(m[0], m[4]) - cmul_conj(m[1], m[3]));
#else
    load_full(l, base, vh, m);
#endif
}

/* acc[r] += M v_r for every rhs whose bit r of mask is set; v_r at
 * nb + (r*3 + c)*vh. The mask is the cg workload's per-rhs convergence (a
 * value uniform over the launch); the dslash kernel passes ~0u, a constant
 * that removes the test. */
inline void add_mv(const T2 *m, __global const T2 *restrict v, uint nb, uint vh, uint mask,
                   T2 *acc)
{
#pragma unroll
    for (int r = 0; r < RHS; r++) {
        if (!((mask >> r) & 1u))
            continue;
        T2 a = v[nb + (uint)(3 * r) * vh];
        T2 b = v[nb + (uint)(3 * r + 1) * vh];
        T2 c = v[nb + (uint)(3 * r + 2) * vh];
        acc[3 * r] += cmul(m[0], a) + cmul(m[1], b) + cmul(m[2], c);
        acc[3 * r + 1] += cmul(m[3], a) + cmul(m[4], b) + cmul(m[5], c);
        acc[3 * r + 2] += cmul(m[6], a) + cmul(m[7], b) + cmul(m[8], c);
    }
}

/* acc[r] -= M^dag v_r for every rhs of the mask. */
inline void sub_mdv(const T2 *m, __global const T2 *restrict v, uint nb, uint vh, uint mask,
                    T2 *acc)
{
#pragma unroll
    for (int r = 0; r < RHS; r++) {
        if (!((mask >> r) & 1u))
            continue;
        T2 a = v[nb + (uint)(3 * r) * vh];
        T2 b = v[nb + (uint)(3 * r + 1) * vh];
        T2 c = v[nb + (uint)(3 * r + 2) * vh];
        acc[3 * r] -= cmulc(m[0], a) + cmulc(m[3], b) + cmulc(m[6], c);
        acc[3 * r + 1] -= cmulc(m[1], a) + cmulc(m[4], b) + cmulc(m[7], c);
        acc[3 * r + 2] -= cmulc(m[2], a) + cmulc(m[5], b) + cmulc(m[8], c);
    }
}

/* Half-lattice index of (x, y, z, t); hx = Lx/2. */
inline uint idx4(int x, int y, int z, int t, int hx, int ly, int lz)
{
    return (uint)(((t * lz + z) * ly + y) * hx + (x >> 1));
}

/* c + d wrapped into [0, l); |d| <= 3 < l. */
inline int wrapd(int c, int d, int l)
{
    int r = c + d;
    r = r < 0 ? r + l : r;
    return r >= l ? r - l : r;
}

/* Neighbour of (x,y,z,t) at distance d in direction mu (a constant after unrolling). */
inline uint neighbour(int mu, int d, int x, int y, int z, int t, int hx, int ly, int lz, int lt)
{
    switch (mu) {
    case 0: return idx4(wrapd(x, d, 2 * hx), y, z, t, hx, ly, lz);
    case 1: return idx4(x, wrapd(y, d, ly), z, t, hx, ly, lz);
    case 2: return idx4(x, y, wrapd(z, d, lz), t, hx, ly, lz);
    default: return idx4(x, y, z, wrapd(t, d, lt), hx, ly, lz);
    }
}

/* The stencil at site i of parity par (0: even sites from the odd ones, as
 * the dslash kernel; 1: odd from even), for the RHS right-hand sides of v
 * whose mask bit is set, into acc (3*RHS complex numbers, zeroed here): the
 * site's own links (parity par) forward, the neighbours' (parity 1 - par)
 * backward. */
inline void stencil(__global const T2 *restrict fat, __global const T2 *restrict lng,
                    __global const T2 *restrict v, uint i, int par, uint mask, int hx, int ly,
                    int lz, int lt, uint vh, T2 *acc)
{
    int rest = (int)i / hx;
    int xh = (int)i - rest * hx;
    int y = rest % ly;
    rest /= ly;
    int z = rest % lz;
    int t = rest / lz;
    int x = 2 * xh + ((y + z + t + par) & 1); /* x + y + z + t has the site's parity */
    uint fw = (uint)par * 4u, bw = (uint)(1 - par) * 4u;

#pragma unroll
    for (int k = 0; k < 3 * RHS; k++)
        acc[k] = (T2)((T)0, (T)0);

    T2 m[9];
#pragma unroll
    for (int mu = 0; mu < 4; mu++) {
        uint f1 = neighbour(mu, 1, x, y, z, t, hx, ly, lz, lt);
        uint b1 = neighbour(mu, -1, x, y, z, t, hx, ly, lz, lt);
        uint f3 = neighbour(mu, 3, x, y, z, t, hx, ly, lz, lt);
        uint b3 = neighbour(mu, -3, x, y, z, t, hx, ly, lz, lt);
        /* this site's links (parity par) at i, the neighbours' (1 - par) at theirs */
        load_full(fat, (fw + (uint)mu) * 9u * vh + i, vh, m);
        add_mv(m, v, f1, vh, mask, acc);
        load_full(fat, (bw + (uint)mu) * 9u * vh + b1, vh, m);
        sub_mdv(m, v, b1, vh, mask, acc);
        load_long(lng, (fw + (uint)mu) * (uint)NE_LONG * vh + i, vh, m);
        add_mv(m, v, f3, vh, mask, acc);
        load_long(lng, (bw + (uint)mu) * (uint)NE_LONG * vh + b3, vh, m);
        sub_mdv(m, v, b3, vh, mask, acc);
    }
}

/* The even site of work-item g. zs = 0: the layout's order (g itself), in
 * which the t neighbours of a site are 2 x Lz planes (z, t) of the sweep
 * apart and their vectors are gone from the cache before the second use.
 * zs > 0 (dividing lz): the planes in strips of zs z-planes, t running
 * inside a strip, so that the t neighbours are 2 zs planes apart (the z
 * neighbours across a strip's edge are then the far ones). Each plane keeps
 * its hx x ly sites in layout order: consecutive work-items still read
 * consecutive addresses. */
inline uint site_of(uint g, int zs, int hx, int ly, int lz, int lt)
{
    if (!zs)
        return g;
    uint plane = (uint)(hx * ly), q = g / plane, strip = (uint)(zs * lt);
    uint s = q / strip, rem = q - s * strip, t = rem / (uint)zs;
    uint z = s * (uint)zs + (rem - t * (uint)zs);
    return (t * (uint)lz + z) * plane + (g - q * plane);
}

/* w = D v at site s of the dslash kernel's rhs block v, w. (A macro: as an
 * inlined function the same code took 103 registers at RHS=4 in clang's PTX
 * for ptxas, 90 written out in the kernel.) */
#define DSLASH_SITE(s)                                                                  \
    do {                                                                                \
        T2 acc[3 * RHS];                                                                \
        stencil(fat, lng, v, (s), 0, ~0u, hx, ly, lz, lt, vh, acc);                     \
        _Pragma("unroll") for (int k = 0; k < 3 * RHS; k++) w[(s) + (uint)k * vh] = acc[k]; \
    } while (0)

/* zs: site_of; zero: 0, an argument so that the compiler cannot see that the
 * site of every pass is the same: hoisted out of the pass loop, the sixteen
 * neighbours' indices stay live through every pass (the register pressure
 * the passes are there to cut: clang's PTX in ptxas for sm_90, RHS=4 x 2
 * passes: 255 registers and 1.3 KB of spills without it, 90 with it). */
__kernel void dslash(__global const T2 *restrict fat, __global const T2 *restrict lng,
                     __global const T2 *restrict v, __global T2 *restrict w, int hx, int ly,
                     int lz, int lt, uint vh, int zs, int zero)
{
    uint g = (uint)get_global_id(0);
    if (g >= vh)
        return;
    uint i = site_of(g, zs, hx, ly, lz, lt);
    /* this work-item's block of PASSES x RHS right-hand sides */
    uint rofs = (uint)get_global_id(1) * (uint)(3 * RHS * PASSES) * vh;
    v += rofs;
    w += rofs;
#if PASSES == 1
    /* no loop: even a loop of one trip let the neighbours' indices be
     * hoisted (clang's PTX, RHS=4: 168 registers instead of 88) */
    (void)zero;
    DSLASH_SITE(i);
#else
    /* one pass at a time: unrolled, the passes' loads could be hoisted
     * together, the pressure of all PASSES x RHS right-hand sides again */
#pragma unroll 1
    for (int p = 0; p < PASSES; p++) {
        uint ip = i + (uint)(p * zero);
        DSLASH_SITE(ip);
        v += (uint)(3 * RHS) * vh;
        w += (uint)(3 * RHS) * vh;
    }
#endif
}
#undef DSLASH_SITE

/* ---- one rank's part of a lattice split over ranks (scaling=strong|weak) ----
 * host/workloads/lattice/lattice_split.h. The local part in the layout above
 * (extents geo = (hx, ly, lz, lt), vh = hs.x sites of a parity), a site's
 * parity that of its global coordinates: (x + y + z + t + po) & 1. Along the
 * directions with halos (bit mu of dist.y: y 2, z 4, t 8) a neighbour outside
 * the part is read from the halo buffers: three slices on each side, each slab
 * numbered as a lattice of its own (extents (2hx, ly, lz, 3) along t,
 * (2hx, ly, 3, lt) along z, (2hx, 3, lz, lt) along y; sites hs.w, hs.z, hs.y):
 *   hv   vectors: slabs t backward, t forward, z backward, z forward, y
 *        backward, y forward, each of rtot rhs: (r*3 + c)*slab + j
 *   hfat, hlng  the links in direction mu of the three slices behind the part,
 *        both parities: (q*NE + e)*slab + j, t first, then z, then y.
 * A launch runs over up to six boxes b0..b5 = (y0, ny, z0, nz, t0, nt) of x,
 * ends = their cumulative site counts (ends.s5 the total): the interior
 * (neighbours all local) while the halos travel, the boundary after.
 * dist = (po, direction bits, rtot, 0). */

/* Sites of the slab along mu (0 when mu has no halo). */
inline uint slab_of(int mu, uint4 hs)
{
    return mu == 3 ? hs.w : mu == 2 ? hs.z : hs.y;
}

/* Where the slabs of mu start in the halo buffer, per complex number of a
 * field of n entries per slab site (n = 3 rtot for vectors, 2 NE for links). */
inline uint slab_base(int mu, uint4 hs, uint n)
{
    return mu == 3 ? 0u : mu == 2 ? 2u * n * hs.w : 2u * n * (hs.w + hs.z);
}

/* The slab and index of the neighbour at distance d along mu: 0 local (*j the
 * local index), 1 backward halo, 2 forward halo (*j the slab index). */
inline int hop(int mu, int d, int x, int y, int z, int t, int4 geo, int4 dist, uint *j)
{
    int hx = geo.x, ly = geo.y, lz = geo.z, lt = geo.w;
    if (mu == 3 && (dist.y & 8)) {
        int c = t + d;
        if (c < 0) {
            *j = idx4(x, y, z, c + 3, hx, ly, lz);
            return 1;
        }
        if (c >= lt) {
            *j = idx4(x, y, z, c - lt, hx, ly, lz);
            return 2;
        }
        *j = idx4(x, y, z, c, hx, ly, lz);
        return 0;
    }
    if (mu == 2 && (dist.y & 4)) {
        int c = z + d;
        if (c < 0) {
            *j = idx4(x, y, c + 3, t, hx, ly, 3);
            return 1;
        }
        if (c >= lz) {
            *j = idx4(x, y, c - lz, t, hx, ly, 3);
            return 2;
        }
        *j = idx4(x, y, c, t, hx, ly, lz);
        return 0;
    }
    if (mu == 1 && (dist.y & 2)) {
        int c = y + d;
        if (c < 0) {
            *j = idx4(x, c + 3, z, t, hx, 3, lz);
            return 1;
        }
        if (c >= ly) {
            *j = idx4(x, c - ly, z, t, hx, 3, lz);
            return 2;
        }
        *j = idx4(x, c, z, t, hx, ly, lz);
        return 0;
    }
    *j = neighbour(mu, d, x, y, z, t, hx, ly, lz, lt);
    return 0;
}

/* Where the vectors of a neighbour on `side` start, and their stride: the
 * local field (v, already at this work-item's rhs block) or a halo slab. */
inline __global const T2 *hop_vec(__global const T2 *v, __global const T2 *hv, int mu, int side,
                                  uint blk, int4 dist, uint4 hs, uint *stride)
{
    if (!side) {
        *stride = hs.x;
        return v;
    }
    uint n = 3u * (uint)dist.z, slab = slab_of(mu, hs);
    uint base = slab_base(mu, hs, n) + (side == 2 ? n * slab : 0u); /* forward after backward */
    *stride = slab;
    return hv + base + blk * (uint)(3 * RHS) * slab;
}

/* The site of work-item g of the boxes: x, y, z, t and its local index. */
inline uint box_site(uint g, int8 b0, int8 b1, int8 b2, int8 b3, int8 b4, int8 b5, uint8 ends,
                     int par, int4 geo, int po, int *x, int *y, int *z, int *t)
{
    int8 b = b5;
    uint base = ends.s4;
    if (g < ends.s0) {
        b = b0;
        base = 0;
    } else if (g < ends.s1) {
        b = b1;
        base = ends.s0;
    } else if (g < ends.s2) {
        b = b2;
        base = ends.s1;
    } else if (g < ends.s3) {
        b = b3;
        base = ends.s2;
    } else if (g < ends.s4) {
        b = b4;
        base = ends.s3;
    }
    int k = (int)(g - base), hx = geo.x;
    int xh = k % hx;
    k /= hx;
    *y = b.s0 + k % b.s1;
    k /= b.s1;
    *z = b.s2 + k % b.s3;
    *t = b.s4 + k / b.s3;
    *x = 2 * xh + ((*y + *z + *t + par + po) & 1);
    return idx4(*x, *y, *z, *t, hx, geo.y, geo.z);
}

/* The stencil of `stencil` at local site (x, y, z, t), index i, parity par,
 * with the halos: v and hv at the rhs block blk. */
inline void stencil_dist(__global const T2 *restrict fat, __global const T2 *restrict lng,
                         __global const T2 *restrict v, __global const T2 *restrict hfat,
                         __global const T2 *restrict hlng, __global const T2 *restrict hv,
                         int x, int y, int z, int t, uint i, int par, uint mask, uint blk,
                         int4 geo, int4 dist, uint4 hs, T2 *acc)
{
    uint vh = hs.x, fw = (uint)par * 4u, bw = (uint)(1 - par) * 4u, q = (uint)(1 - par);
#pragma unroll
    for (int k = 0; k < 3 * RHS; k++)
        acc[k] = (T2)((T)0, (T)0);
    T2 m[9];
#pragma unroll
    for (int mu = 0; mu < 4; mu++) {
        uint j, st;
        __global const T2 *src;
        /* the slab of the links behind the part along mu */
        uint lslab = slab_of(mu, hs);
        uint fofs = slab_base(mu, hs, 9u), lofs = slab_base(mu, hs, (uint)NE_LONG);
        /* +1: this site's fat link, the neighbour's vector */
        int side = hop(mu, 1, x, y, z, t, geo, dist, &j);
        load_full(fat, (fw + (uint)mu) * 9u * vh + i, vh, m);
        src = hop_vec(v, hv, mu, side, blk, dist, hs, &st);
        add_mv(m, src, j, st, mask, acc);
        /* -1: the neighbour's fat link (behind the part: the link halo) */
        side = hop(mu, -1, x, y, z, t, geo, dist, &j);
        if (side)
            load_full(hfat, fofs + q * 9u * lslab + j, lslab, m);
        else
            load_full(fat, (bw + (uint)mu) * 9u * vh + j, vh, m);
        src = hop_vec(v, hv, mu, side, blk, dist, hs, &st);
        sub_mdv(m, src, j, st, mask, acc);
        /* +3, -3: the long links */
        side = hop(mu, 3, x, y, z, t, geo, dist, &j);
        load_long(lng, (fw + (uint)mu) * (uint)NE_LONG * vh + i, vh, m);
        src = hop_vec(v, hv, mu, side, blk, dist, hs, &st);
        add_mv(m, src, j, st, mask, acc);
        side = hop(mu, -3, x, y, z, t, geo, dist, &j);
        if (side)
            load_long(hlng, lofs + q * (uint)NE_LONG * lslab + j, lslab, m);
        else
            load_long(lng, (bw + (uint)mu) * (uint)NE_LONG * vh + j, vh, m);
        src = hop_vec(v, hv, mu, side, blk, dist, hs, &st);
        sub_mdv(m, src, j, st, mask, acc);
    }
}

/* The dslash kernel on one rank's part: w = D v on the sites of parity par
 * (0 for the dslash workload) of the boxes; dimension 1 as `dslash`. */
__kernel void dslash_dist(__global const T2 *restrict fat, __global const T2 *restrict lng,
                          __global const T2 *restrict v, __global T2 *restrict w,
                          __global const T2 *restrict hfat, __global const T2 *restrict hlng,
                          __global const T2 *restrict hv, int4 geo, int4 dist, uint4 hs,
                          int8 b0, int8 b1, int8 b2, int8 b3, int8 b4, int8 b5, uint8 ends,
                          int par)
{
    uint g = (uint)get_global_id(0), blk = (uint)get_global_id(1);
    if (g >= ends.s5)
        return;
    int x, y, z, t;
    uint i = box_site(g, b0, b1, b2, b3, b4, b5, ends, par, geo, dist.x, &x, &y, &z, &t);
    uint rofs = blk * (uint)(3 * RHS) * hs.x;
    T2 acc[3 * RHS];
    stencil_dist(fat, lng, v + rofs, hfat, hlng, hv, x, y, z, t, i, par, ~0u, blk, geo, dist, hs,
                 acc);
#pragma unroll
    for (int k = 0; k < 3 * RHS; k++)
        w[rofs + i + (uint)k * hs.x] = acc[k];
}

/* ---- the cg workload (host/workloads/cg): CG on A = m^2 - D_eo D_oe ------
 * One iteration, for the right-hand sides whose bit of mask is set (the host
 * clears a bit once that rhs has converged: it then costs no loads, flops
 * or stores):
 *   dslash_par   t = D_oe p                      (odd sites)
 *   cg_apply     ap = m^2 p - D_eo t, partial sums of Re<p, ap>
 *   cg_reduce    alpha = rr / <p, ap>
 *   cg_update_r  r -= alpha ap, partial sums of |r|^2
 *   cg_reduce    beta = |r|^2 / rr, rr = |r|^2
 *   cg_update_xp x += alpha p, p = r + beta p
 * Per-rhs scalars stay on the device in scal[4r + CG_*]; the work-groups'
 * partial sums in partial[r * ng + group] (ng = groups along the sites);
 * cg_reduce, one work-group per rhs, adds them. Work-group sizes along the
 * sites are powers of two (the tree sums). */
#define CG_RR 0
#define CG_ALPHA 1
#define CG_BETA 2
#define CG_PAP 3
#define CG_MODE_ALPHA 0
#define CG_MODE_BETA 1
#define CG_MODE_INIT 2
#define CG_MODE_SUM 3   /* scaling=: the rank's sum only (pAp slot); the host adds the ranks' */

/* Sum rows row0 .. row0+rows-1 of sh (each lx long, one value per work-item
 * of dimension 0) into their first elements. Every work-item of the group
 * calls it (it has barriers); lx is a power of two. */
inline void rows_sum(__local T *sh, uint row0, uint rows, uint lid, uint lx)
{
    for (uint s = lx >> 1; s > 0; s >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < s)
            for (uint q = 0; q < rows; q++)
                sh[(row0 + q) * lx + lid] += sh[(row0 + q) * lx + lid + s];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

#define RHS_BITS ((1u << RHS) - 1u)

/* w = D v on the sites of parity par (1: D_oe, odd from even; 0: D_eo) for
 * the rhs of mask; the grid of the dslash kernel (dimension 1: rhs blocks). */
__kernel void dslash_par(__global const T2 *restrict fat, __global const T2 *restrict lng,
                         __global const T2 *restrict v, __global T2 *restrict w, int hx, int ly,
                         int lz, int lt, uint vh, int par, uint mask)
{
    uint i = (uint)get_global_id(0), blk = (uint)get_global_id(1);
    uint bm = (mask >> (blk * (uint)RHS)) & RHS_BITS;
    if (i >= vh || !bm)
        return;
    uint rofs = blk * (uint)(3 * RHS) * vh;
    T2 acc[3 * RHS];
    stencil(fat, lng, v + rofs, i, par, bm, hx, ly, lz, lt, vh, acc);
#pragma unroll
    for (int r = 0; r < RHS; r++)
        if ((bm >> r) & 1u)
            for (int c = 0; c < 3; c++)
                w[rofs + i + (uint)(3 * r + c) * vh] = acc[3 * r + c];
}

/* ap = m2 p - D_eo t on the even sites and the partial sums of Re<p, ap>
 * (fused: p and ap are in registers). Work-groups of lx sites x the rhs
 * blocks of dimension 1 (one block for reg, RHS = the case's rhs; rhs blocks
 * of one for cache); sh: lx x local size 1 x RHS values. */
__kernel void cg_apply(__global const T2 *restrict fat, __global const T2 *restrict lng,
                       __global const T2 *restrict t, __global const T2 *restrict p,
                       __global T2 *restrict ap, __global T *restrict partial,
                       __local T *sh, T m2, int hx, int ly, int lz, int lt, uint vh, uint mask)
{
    uint i = (uint)get_global_id(0), blk = (uint)get_global_id(1);
    uint lid = (uint)get_local_id(0), lx = (uint)get_local_size(0);
    uint bm = (mask >> (blk * (uint)RHS)) & RHS_BITS;
    uint rofs = blk * (uint)(3 * RHS) * vh;
    T dots[RHS];
#pragma unroll
    for (int r = 0; r < RHS; r++)
        dots[r] = (T)0;
    if (i < vh && bm) {
        T2 acc[3 * RHS];
        stencil(fat, lng, t + rofs, i, 0, bm, hx, ly, lz, lt, vh, acc);
#pragma unroll
        for (int r = 0; r < RHS; r++)
            if ((bm >> r) & 1u)
                for (int c = 0; c < 3; c++) {
                    uint k = rofs + i + (uint)(3 * r + c) * vh;
                    T2 pv = p[k];
                    T2 a = m2 * pv - acc[3 * r + c];
                    ap[k] = a;
                    dots[r] += pv.x * a.x + pv.y * a.y;
                }
    }
    uint row0 = (uint)get_local_id(1) * (uint)RHS;
#pragma unroll
    for (int r = 0; r < RHS; r++)
        sh[(row0 + (uint)r) * lx + lid] = dots[r];
    rows_sum(sh, row0, (uint)RHS, lid, lx);
    if (lid == 0) {
        uint ng = (uint)get_num_groups(0), g = (uint)get_group_id(0);
        for (int r = 0; r < RHS; r++)
            if ((bm >> r) & 1u)
                partial[(blk * (uint)RHS + (uint)r) * ng + g] = sh[(row0 + (uint)r) * lx];
    }
}

/* scaling=: dslash_par on one rank's part (the boxes of dslash_dist). */
__kernel void dslash_par_dist(__global const T2 *restrict fat, __global const T2 *restrict lng,
                              __global const T2 *restrict v, __global T2 *restrict w,
                              __global const T2 *restrict hfat, __global const T2 *restrict hlng,
                              __global const T2 *restrict hv, int4 geo, int4 dist, uint4 hs,
                              int8 b0, int8 b1, int8 b2, int8 b3, int8 b4, int8 b5, uint8 ends,
                              int par, uint mask)
{
    uint g = (uint)get_global_id(0), blk = (uint)get_global_id(1);
    uint bm = (mask >> (blk * (uint)RHS)) & RHS_BITS;
    if (g >= ends.s5 || !bm)
        return;
    int x, y, z, t;
    uint i = box_site(g, b0, b1, b2, b3, b4, b5, ends, par, geo, dist.x, &x, &y, &z, &t);
    uint rofs = blk * (uint)(3 * RHS) * hs.x;
    T2 acc[3 * RHS];
    stencil_dist(fat, lng, v + rofs, hfat, hlng, hv, x, y, z, t, i, par, bm, blk, geo, dist, hs,
                 acc);
#pragma unroll
    for (int r = 0; r < RHS; r++)
        if ((bm >> r) & 1u)
            for (int c = 0; c < 3; c++)
                w[rofs + i + (uint)(3 * r + c) * hs.x] = acc[3 * r + c];
}

/* scaling=: cg_apply on the even sites of the boxes; the work-groups' partial
 * sums at partial[(rhs) * ngt + goff + group] (the interior launch goff 0, the
 * boundary one after it; cg_reduce adds all ngt). */
__kernel void cg_apply_dist(__global const T2 *restrict fat, __global const T2 *restrict lng,
                            __global const T2 *restrict t, __global const T2 *restrict p,
                            __global T2 *restrict ap, __global T *restrict partial,
                            __local T *sh, T m2, __global const T2 *restrict hfat,
                            __global const T2 *restrict hlng, __global const T2 *restrict hv,
                            int4 geo, int4 dist, uint4 hs, int8 b0, int8 b1, int8 b2, int8 b3,
                            int8 b4, int8 b5, uint8 ends, uint goff, uint ngt, uint mask)
{
    uint g = (uint)get_global_id(0), blk = (uint)get_global_id(1);
    uint lid = (uint)get_local_id(0), lx = (uint)get_local_size(0);
    uint bm = (mask >> (blk * (uint)RHS)) & RHS_BITS;
    uint rofs = blk * (uint)(3 * RHS) * hs.x;
    T dots[RHS];
#pragma unroll
    for (int r = 0; r < RHS; r++)
        dots[r] = (T)0;
    if (g < ends.s5 && bm) {
        int x, y, z, tt;
        uint i = box_site(g, b0, b1, b2, b3, b4, b5, ends, 0, geo, dist.x, &x, &y, &z, &tt);
        T2 acc[3 * RHS];
        stencil_dist(fat, lng, t + rofs, hfat, hlng, hv, x, y, z, tt, i, 0, bm, blk, geo, dist,
                     hs, acc);
#pragma unroll
        for (int r = 0; r < RHS; r++)
            if ((bm >> r) & 1u)
                for (int c = 0; c < 3; c++) {
                    uint k = rofs + i + (uint)(3 * r + c) * hs.x;
                    T2 pv = p[k];
                    T2 a = m2 * pv - acc[3 * r + c];
                    ap[k] = a;
                    dots[r] += pv.x * a.x + pv.y * a.y;
                }
    }
    uint row0 = (uint)get_local_id(1) * (uint)RHS;
#pragma unroll
    for (int r = 0; r < RHS; r++)
        sh[(row0 + (uint)r) * lx + lid] = dots[r];
    rows_sum(sh, row0, (uint)RHS, lid, lx);
    if (lid == 0) {
        uint gr = (uint)get_group_id(0);
        for (int r = 0; r < RHS; r++)
            if ((bm >> r) & 1u)
                partial[(blk * (uint)RHS + (uint)r) * ngt + goff + gr] = sh[(row0 + (uint)r) * lx];
    }
}

/* The vector kernels: one work-item per (even site, rhs), work-groups of lx
 * sites of one rhs (dimension 1 = rhs), so a converged rhs's work-groups do
 * nothing but their (empty) tree sums. No kernel with a barrier returns
 * early, even where the whole work-group would: PoCL 3.1 then ran the code
 * after the barrier more than once (cg_reduce's beta came out as 1). */

/* x = 0, r = p = b, partial sums of |b|^2. */
__kernel void cg_init(__global const T2 *restrict b, __global T2 *restrict x,
                      __global T2 *restrict r, __global T2 *restrict p,
                      __global T *restrict partial, __local T *sh, uint vh, uint mask)
{
    uint i = (uint)get_global_id(0), j = (uint)get_global_id(1);
    uint lid = (uint)get_local_id(0), lx = (uint)get_local_size(0);
    uint on = (mask >> j) & 1u;
    T s = (T)0;
    if (on && i < vh)
        for (uint c = 0; c < 3; c++) {
            uint k = (3u * j + c) * vh + i;
            T2 v = b[k];
            x[k] = (T2)((T)0, (T)0);
            r[k] = v;
            p[k] = v;
            s += v.x * v.x + v.y * v.y;
        }
    sh[lid] = s;
    rows_sum(sh, 0, 1, lid, lx);
    if (lid == 0 && on)
        partial[j * (uint)get_num_groups(0) + (uint)get_group_id(0)] = sh[0];
}

/* r -= alpha ap, partial sums of |r|^2 (the new residual). */
__kernel void cg_update_r(__global T2 *restrict r, __global const T2 *restrict ap,
                          __global const T *restrict scal, __global T *restrict partial,
                          __local T *sh, uint vh, uint mask)
{
    uint i = (uint)get_global_id(0), j = (uint)get_global_id(1);
    uint lid = (uint)get_local_id(0), lx = (uint)get_local_size(0);
    uint on = (mask >> j) & 1u;
    T alpha = on ? scal[4u * j + CG_ALPHA] : (T)0, s = (T)0;
    if (on && i < vh)
        for (uint c = 0; c < 3; c++) {
            uint k = (3u * j + c) * vh + i;
            T2 v = r[k] - alpha * ap[k];
            r[k] = v;
            s += v.x * v.x + v.y * v.y;
        }
    sh[lid] = s;
    rows_sum(sh, 0, 1, lid, lx);
    if (lid == 0 && on)
        partial[j * (uint)get_num_groups(0) + (uint)get_group_id(0)] = sh[0];
}

/* x += alpha p, then p = r + beta p (p read once). */
__kernel void cg_update_xp(__global T2 *restrict x, __global T2 *restrict p,
                           __global const T2 *restrict r, __global const T *restrict scal,
                           uint vh, uint mask)
{
    uint i = (uint)get_global_id(0), j = (uint)get_global_id(1);
    if (i >= vh || !((mask >> j) & 1u))
        return;
    T alpha = scal[4u * j + CG_ALPHA], beta = scal[4u * j + CG_BETA];
    for (uint c = 0; c < 3; c++) {
        uint k = (3u * j + c) * vh + i;
        T2 pv = p[k];
        x[k] += alpha * pv;
        p[k] = r[k] + beta * pv;
    }
}

/* One work-group per rhs (dimension 1) adds the ng partial sums of that rhs
 * and sets its scalars: mode CG_MODE_ALPHA: pAp and alpha = rr / pAp;
 * CG_MODE_BETA: beta = sum / rr and rr = sum; CG_MODE_INIT: rr = sum. A
 * non-positive denominator gives 0 (the rhs stands still). */
__kernel void cg_reduce(__global const T *restrict partial, uint ng, __global T *restrict scal,
                        int mode, uint mask, __local T *sh)
{
    uint j = (uint)get_global_id(1);
    uint lid = (uint)get_local_id(0), lx = (uint)get_local_size(0);
    T s = (T)0;
    for (uint k = lid; k < ng; k += lx)
        s += partial[j * ng + k];
    sh[lid] = s;
    rows_sum(sh, 0, 1, lid, lx);
    if (lid == 0 && ((mask >> j) & 1u)) {
        T sum = sh[0];
        __global T *sc = scal + 4u * j;
        if (mode == CG_MODE_ALPHA) {
            sc[CG_PAP] = sum;
            sc[CG_ALPHA] = sum > (T)0 ? sc[CG_RR] / sum : (T)0;
        } else if (mode == CG_MODE_BETA) {
            T rr = sc[CG_RR];
            sc[CG_BETA] = rr > (T)0 ? sum / rr : (T)0;
            sc[CG_RR] = sum;
        } else if (mode == CG_MODE_SUM) {
            sc[CG_PAP] = sum;
        } else {
            sc[CG_RR] = sum;
            sc[CG_ALPHA] = (T)0;
            sc[CG_BETA] = (T)0;
            sc[CG_PAP] = (T)0;
        }
    }
}

/* ---- the halo pack (scaling=; host/workloads/lattice/lattice_halo.c) -------
 * One launch per exchange packs every slab this rank sends, of every
 * direction with halos and every right-hand side, into one contiguous buffer
 * `out` in the layout of the halo buffer hv above (so that one rank talking
 * to itself writes it back unchanged): slot (mu, side) holds what becomes the
 * neighbour's halo on `side`: our last three slices along mu for its
 * backward halo (side 0), our first three for its forward one (side 1). One
 * work-item per slab site (all slabs in the order t, z, y, backward then
 * forward), copying its 3 rtot complex numbers: consecutive work-items read
 * and write consecutive addresses along x. geo, dist, hs as for dslash_dist. */
__kernel void halo_pack(__global const T2 *restrict v, __global T2 *restrict out, int4 geo,
                        int4 dist, uint4 hs)
{
    uint g = (uint)get_global_id(0);
    uint n = 3u * (uint)dist.z;
    int mu = 3;
    uint slab = hs.w;
    while (mu > 1 && g >= 2u * slab) { /* the direction of g: t, z, then y */
        g -= 2u * slab;
        mu--;
        slab = slab_of(mu, hs);
    }
    if (g >= 2u * slab)
        return;
    int side = g >= slab;
    uint j = g - (uint)side * slab;
    /* j's coordinates in the slab (three slices along mu) */
    int hx = geo.x, ey = mu == 1 ? 3 : geo.y, ez = mu == 2 ? 3 : geo.z;
    int r = (int)j, xh = r % hx;
    r /= hx;
    int c[4];
    c[1] = r % ey;
    r /= ey;
    c[2] = r % ez;
    c[3] = r / ez;
    int lmu = mu == 3 ? geo.w : mu == 2 ? geo.z : geo.y;
    int first = side ? 0 : lmu - 3; /* the slab sent to become the neighbour's halo on `side` */
    c[mu] += first;
    uint i = (uint)(((c[3] * geo.z + c[2]) * geo.y + c[1]) * hx + xh);
    out += slab_base(mu, hs, n) + (uint)side * n * slab;
    for (uint q = 0; q < n; q++)
        out[q * slab + j] = v[q * hs.x + i];
}
