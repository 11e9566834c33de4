/* dslash: the HISQ staggered operator applied from the odd to the even sites,
 *   w(x) = sum_mu U(x,mu) v(x+mu) - U^dag(x-mu,mu) v(x-mu)
 *               + N(x,mu) v(x+3mu) - N^dag(x-3mu,mu) v(x-3mu)
 * for RHS right-hand sides at once: every link is loaded once per work-item
 * and applied to all RHS vectors, whose accumulators stay in registers
 * (RHS is a compile-time constant so the loops unroll).
 *
 * One work-item per even site (dimension 0). Dimension 1 selects a block of
 * RHS right-hand sides: the `cache` kernel of the host is this kernel built
 * with RHS=1 and launched with one work-item per (site, rhs), so the links are
 * shared between right-hand sides through the cache instead of registers.
 *
 * Layout (include/dslash_ref.h): structure of arrays of complex numbers,
 *   link   ((p*4 + mu)*NE + e)*vh + i      NE = 9, or 7 with COMPRESSED
 *   vector (r*3 + c)*vh + i
 * so that consecutive work-items read consecutive addresses. Neighbour
 * indices are computed here from the coordinates (no table in memory).
 * Options: -DT=float|double -DRHS=1..8 [-DCOMPRESSED=1]. */
#define T2 CLB_CAT(T, 2)
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

/* acc[r] += M v_r for every rhs; v_r at nb + (r*3 + c)*vh. */
inline void add_mv(const T2 *m, __global const T2 *restrict v, uint nb, uint vh, T2 *acc)
{
#pragma unroll
    for (int r = 0; r < RHS; r++) {
        T2 a = v[nb + (uint)(3 * r) * vh];
        T2 b = v[nb + (uint)(3 * r + 1) * vh];
        T2 c = v[nb + (uint)(3 * r + 2) * vh];
        acc[3 * r] += cmul(m[0], a) + cmul(m[1], b) + cmul(m[2], c);
        acc[3 * r + 1] += cmul(m[3], a) + cmul(m[4], b) + cmul(m[5], c);
        acc[3 * r + 2] += cmul(m[6], a) + cmul(m[7], b) + cmul(m[8], c);
    }
}

/* acc[r] -= M^dag v_r for every rhs. */
inline void sub_mdv(const T2 *m, __global const T2 *restrict v, uint nb, uint vh, T2 *acc)
{
#pragma unroll
    for (int r = 0; r < RHS; r++) {
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

__kernel void dslash(__global const T2 *restrict fat, __global const T2 *restrict lng,
                     __global const T2 *restrict v, __global T2 *restrict w, int hx, int ly,
                     int lz, int lt, uint vh)
{
    uint i = (uint)get_global_id(0);
    if (i >= vh)
        return;
    uint rofs = (uint)get_global_id(1) * (uint)(3 * RHS) * vh; /* this work-item's rhs block */
    v += rofs;
    w += rofs;
    int rest = (int)i / hx;
    int xh = (int)i - rest * hx;
    int y = rest % ly;
    rest /= ly;
    int z = rest % lz;
    int t = rest / lz;
    int x = 2 * xh + ((y + z + t) & 1); /* even site: x + y + z + t even */

    T2 acc[3 * RHS];
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
        /* even-site links (parity 0) at i, odd-site links (parity 1) at the neighbour */
        load_full(fat, (uint)(mu * 9) * vh + i, vh, m);
        add_mv(m, v, f1, vh, acc);
        load_full(fat, (uint)((4 + mu) * 9) * vh + b1, vh, m);
        sub_mdv(m, v, b1, vh, acc);
        load_long(lng, (uint)(mu * NE_LONG) * vh + i, vh, m);
        add_mv(m, v, f3, vh, acc);
        load_long(lng, (uint)((4 + mu) * NE_LONG) * vh + b3, vh, m);
        sub_mdv(m, v, b3, vh, acc);
    }
#pragma unroll
    for (int k = 0; k < 3 * RHS; k++)
        w[i + (uint)k * vh] = acc[k];
}
