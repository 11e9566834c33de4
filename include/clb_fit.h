/* Work-groups and tiles that fit (host/core/fit.c), and the loop limit of an
 * implementation: beside include/clb_workload.h. */
#ifndef CLB_FIT_H
#define CLB_FIT_H

#include "clb_workload.h"

/* A launch is derived from the device's and the compiled kernel's limits
 * (docs/PORTABILITY.md, "Tiles that fit"): the largest tile of the asked
 * shape that fits, never a skip for the tile. What one compiled kernel
 * allows a work-group on this device: */
struct clb_wg_limit {
    size_t items;        /* work-items: CL_KERNEL_WORK_GROUP_SIZE, never above the device's
                          * maximum (which CLBENCH_MAX_WORK_GROUP, a test hook, may lower) */
    size_t dim[3];       /* per dimension (CL_DEVICE_MAX_WORK_ITEM_SIZES) */
    size_t local_bytes;  /* local memory left for __local arguments: the device's less the
                          * kernel's own (CL_KERNEL_LOCAL_MEM_SIZE) */
    const char *by;      /* the limit that sets items, for messages */
};
int clb_wg_limit(const struct clb_env *env, cl_kernel k, struct clb_wg_limit *out);
/* The device's own limits, before any kernel is built. */
void clb_wg_device_limit(const struct clb_env *env, struct clb_wg_limit *out);
/* Does a work-group of local[0..dims) work-items passing local_bytes of
 * __local arguments fit l? When not, the limit it exceeds in why. */
int clb_wg_fits(const struct clb_wg_limit *l, unsigned dims, const size_t *local,
                size_t local_bytes, char *why, size_t n);

/* A tile being fitted: the work-group it launches, the __local bytes one
 * work-group passes, and the workload's own figures (sides, rows...). */
struct clb_tile {
    unsigned dims;
    size_t local[3];
    size_t local_bytes;   /* __local arguments of one work-group */
    long v[4];
    size_t own_local;     /* __local arrays the kernel declares for this tile: checked
                           * before the build (after it, CL_KERNEL_LOCAL_MEM_SIZE says) */
};
#define CLB_FIT_MAX_KERNELS 8
struct clb_fit_ops {
    /* Build the kernels of tile t (-D options from its figures) into the
     * workload's state, releasing those of a tile built before, and list
     * them in k[0..*nk), *nk <= CLB_FIT_MAX_KERNELS. */
    int (*build)(struct clb_env *env, void *ctx, const struct clb_tile *t, cl_kernel *k, int *nk);
    /* Make t the next smaller tile of the same shape, toward one that fits
     * l (it may jump there at once); 0 when there is none. */
    int (*shrink)(void *ctx, struct clb_tile *t, const struct clb_wg_limit *l);
    /* The tile as its parameter writes it ("32x8"); NULL: the work-group. */
    void (*text)(void *ctx, const struct clb_tile *t, char *out, size_t n);
};
/* What a fit did. Set `what` (the parameter: "tile", "local") before. */
struct clb_fit {
    const char *what;
    int reduced;              /* got is smaller than asked */
    char asked[48], got[48];  /* as text */
    char why[192];            /* the limit the asked one exceeds */
};
/* From *t down, the largest tile whose kernels fit: shrunk to the device's
 * limits, built, checked against every kernel it built, shrunk and rebuilt
 * while it does not fit. CLB_OK with *t that tile; when it is smaller than
 * asked, res says why and the run's summary gets one line for it. CLB_SKIP
 * with the reason when no tile of the shape fits. */
int clb_fit_tile(struct clb_env *env, const struct clb_fit_ops *ops, void *ctx,
                 struct clb_tile *t, struct clb_fit *res);
/* The same for a 1-D work-group of kernels built once (their size is not
 * compiled in): the largest size <= want that every kernel k[0..nk) allows
 * with per_item_bytes of __local memory a work-item; CLB_FIT_POW2: a power
 * of two. */
#define CLB_FIT_POW2 1u
int clb_fit_items(struct clb_env *env, const cl_kernel *k, int nk, size_t want,
                  size_t per_item_bytes, unsigned flags, size_t *got, struct clb_fit *res);
/* The shrink of the studies' tiles of SIDE x SIDE elements copied by
 * work-groups of SIDE x ROWS (v[0] = SIDE, v[1] = ROWS, ROWS dividing SIDE):
 * while the work-items are too many (and the local memory fits), fewer rows
 * (the next divisor of SIDE); else half the side and half the rows. With
 * own_local set and v[2] an element's bytes, own_local follows as a padded
 * SIDE x (SIDE + 1) tile. Its text: "SIDExROWS". */
int clb_shrink_rows(void *ctx, struct clb_tile *t, const struct clb_wg_limit *l);
void clb_tile_rows_text(void *ctx, const struct clb_tile *t, char *out, size_t n);
/* For a workload that fits by itself (res->what, asked and got filled):
 * sets res->reduced when got differs from asked and then keeps `why` and
 * the run's summary line. */
void clb_fit_record(const struct clb_env *env, struct clb_fit *res, const char *why);
/* "tile 32x8 reduced to 32x1: <why>" in a case's detail, and the metric
 * `reduced`, when it was. */
void clb_fit_note(struct clb_case *c, const struct clb_fit *res);

/* The most loop iterations one work-item runs on this implementation before
 * its loops end silently, measured once per device by a probe kernel
 * (cl/loops.cl): Mesa's llvmpipe stops after 65535, counted over every loop
 * of a kernel. 0: no limit seen up to 2^20 iterations. A workload whose
 * work-items loop longer skips that row with the reason. */
int clb_loop_limit(struct clb_env *env, size_t *limit);

#endif
