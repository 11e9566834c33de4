/* The workload interface. A workload is one host file (host/wl_<name>.c), one
 * kernel file (cl/<name>.cl) and one entry in host/registry.c. It declares what
 * it accepts and fills in four steps; the core (host/run.c) owns device
 * selection, the timing loop, statistics, skips, CSV rows, the summary and
 * progress.
 *
 * For each type and size the core calls:
 *   setup(env, g)          allocate, fill with random data, build kernels, and
 *                          add the configurations to measure with clb_case_add
 *   for each case c:
 *     prepare(env, g, c)   optional: poison outputs, set arguments
 *     run(env, g, c, s)    warmup + reps times: enqueue once, return the events
 *                          (or a wall-clock time) in s
 *     verify(env, g, c)    compare the output of the last run with a host reference
 *   teardown(env, g)       release everything (also after errors)
 */
#ifndef CLB_WORKLOAD_H
#define CLB_WORKLOAD_H

#include <math.h>
#include "clbench.h"
#include "clb_cl.h"
#include "clb_params.h"
#include "clb_profile.h"
#include "clb_results.h"

struct clb_opts;

/* A parameter a workload accepts (--param key=value). */
struct clb_param_def {
    const char *key;
    const char *def;   /* default ("" = chosen by the workload; see help) */
    const char *help;
};

/* One configuration to measure. */
struct clb_case {
    char kernel[48];
    char params[192];        /* "vec=4" etc., as written to the CSV */
    double bytes, flops;     /* moved / computed by one run (flops 0 when none) */
    double footprint;        /* bytes of memory touched, for the cache check; 0 = bytes */
    double model;            /* prediction in the row's main unit, NAN if none */
    int main_gflops;         /* main unit is GFlop/s (else GB/s) */
    int status;              /* CLB_OK, or CLB_SKIP set in setup with detail */
    char detail[384];        /* notes written by the workload */
    size_t global[3], local[3];
    unsigned dims;           /* 0 = no ND-range (host work) */
    long iarg[4];            /* the workload's own */
    void *parg;
};

/* One (type, size) group: the unit of setup/teardown. */
struct clb_group {
    const char *dtype;       /* "" for workloads without types */
    const char *size_text;   /* as given or defaulted */
    struct clb_size size;
    struct clb_case *cases;
    int ncases, cap;
    void *state;             /* the workload's own */
};

/* One sample: either events (START of first .. END of last) or seconds. */
struct clb_sample {
    cl_event first, last;    /* the core waits for and releases them */
    double seconds;          /* used when first is NULL */
};

/* What a workload sees. */
struct clb_env {
    struct clb_device *dev;
    const struct clb_devinfo *info;
    const struct clb_profile *profile;
    const struct clb_opts *opts;
    const struct clb_workload *wl;
    int quick;
};

struct clb_workload {
    const char *name;
    const char *summary;               /* one line */
    const char *dtypes;                /* accepted types, comma list; NULL = untyped */
    const char *default_dtypes;        /* used without -t */
    const struct clb_param_def *params;/* terminated by {0} */
    const char *size_help;             /* what -s accepts, with an example */
    int size_dims;                     /* extents in a size: 1, 2 or 4 */
    /* Default sizes (comma list) for this device and type; quick = CI sizes. */
    void (*default_sizes)(const struct clb_env *env, const char *dtype, char *out, size_t n);
    /* Optional extra check of a parsed size (e.g. all extents even). */
    int (*check_size)(const struct clb_size *s, char *err, size_t errlen);
    int (*setup)(struct clb_env *env, struct clb_group *g);
    int (*prepare)(struct clb_env *env, struct clb_group *g, struct clb_case *c);
    int (*run)(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s);
    int (*verify)(struct clb_env *env, struct clb_group *g, struct clb_case *c);
    void (*teardown)(struct clb_env *env, struct clb_group *g);
    /* Optional: extra summary lines from this workload's rows of this run. */
    void (*summarize)(const struct clb_row *rows, size_t n, FILE *out);
};

/* The registry (host/registry.c). */
extern const struct clb_workload *const clb_workloads[];
const struct clb_workload *clb_workload_find(const char *name);

/* Add a case; returns it zeroed except model = NAN, status = CLB_OK. */
struct clb_case *clb_case_add(struct clb_group *g, const char *kernel, const char *fmt_params, ...)
    __attribute__((format(printf, 3, 4)));
/* Mark a case skipped with a reason. */
void clb_case_skip(struct clb_case *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append a note to a case's detail ("; " separated). */
void clb_case_note(struct clb_case *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parameter value: --param, else the profile's [tuning] <workload>.<key>,
 * else the declared default. Never NULL for a declared key. */
const char *clb_param(const struct clb_env *env, const char *key);
/* Integer list of a parameter; CLB_EUSAGE with a message on a bad value. */
int clb_param_ints(const struct clb_env *env, const char *key, long lo, long hi, long *out,
                   int max, int *n);
/* Which source a value came from: "param", "profile" or "default". */
const char *clb_param_origin(const struct clb_env *env, const char *key);

/* Element size of a type name: float 4, double 8, float3 12 (packed),
 * float3_aligned 16, float2 8, float4 16, double2 16 ...; 0 if unknown. */
size_t clb_dtype_size(const char *dtype);
/* -D options for a type: "-DT=float" plus -DUSE_FP64 for doubles. */
void clb_dtype_defines(const char *dtype, char *out, size_t n);
/* Skip reason if the device cannot run the type (fp64), else NULL. */
const char *clb_dtype_unsupported(const struct clb_env *env, const char *dtype);

/* The set-up every copy-like workload shares: an input of in_bytes filled
 * with random floats (or doubles when dbl) over every byte, an output of
 * out_bytes, both on the host and on the device (output with out_flags), the
 * input uploaded. Whatever was made is in *io even on failure, so the
 * workload's teardown releases it. Refused (CLB_SKIP) when the buffers do
 * not fit the device. */
struct clb_inout {
    void *in, *out;
    cl_mem din, dout;
};
int clb_inout_setup(struct clb_env *env, size_t in_bytes, size_t out_bytes, int dbl,
                    unsigned long long seed, cl_mem_flags out_flags, struct clb_inout *io);

/* Exact check of n elements laid out every `stride` bytes: counts the
 * elements whose first `cmp` bytes differ (OpenMP), and the first such
 * index in *first (-1 if none). */
long clb_mismatches(const unsigned char *got, const unsigned char *want, size_t n, size_t stride,
                    size_t cmp, long *first);

/* Largest per-buffer size for a workload that needs `count` buffers of equal
 * size: min(max_alloc, global_mem / (count + 1)). */
size_t clb_max_buffer(const struct clb_env *env, int count);
/* Working-set size that leaves the caches behind: max(8 x LLC, floor), where
 * LLC is the larger of the queried global cache and the profile's L2. */
size_t clb_beyond_cache(const struct clb_env *env, size_t floor_bytes);
/* The last-level cache size in bytes used for that decision. */
size_t clb_llc_bytes(const struct clb_env *env);

#endif
