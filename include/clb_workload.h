/* The workload interface: all a workload author needs, and all a workload may
 * include (besides its own private header, and the headers of a shared folder
 * that CMakeLists.txt names for it: dslash and cg build on host/workloads/
 * lattice/). The build enforces it: each folder's sources have only include/,
 * their own folder and the folders named for them on the include path
 * (tests/include_rule).
 *
 * A workload is one host file (host/workloads/<name>/<name>.c), one kernel
 * file (cl/<name>.cl) and one line in host/workloads/registry.c. It declares
 * what it accepts (types, parameters, sizes), counts its own work, names its
 * baselines, and fills in the steps below; the core (host/core/driver.c)
 * owns device selection, default sizes, the timing loop, statistics, skips,
 * CSV rows, ratios to baselines, models, the summary and progress. The core
 * never learns a workload's name.
 *
 * For each type and size (a group) the core calls:
 *   count(kernel = NULL)   the group's device memory: refused (exit 2) when a
 *                          byte count overflows, skipped when it cannot fit
 *   setup(env, g)          g->state: state_size bytes, zeroed, the core's to free;
 *                          allocate, fill with random data, build kernels, and
 *                          add the configurations to measure with clb_case_add
 *                          (which counts each case's bytes and flops)
 *   for each case c:
 *     prepare(env, g, c)   optional: poison outputs, set arguments
 *     run(env, g, c, s)    warmup + reps times: enqueue once, return the events
 *                          (or a wall-clock time) in s
 *     verify(env, g, c)    compare the output of the last run with a host reference
 *     measured(env, g, c, m)  optional: see the statistics of the case; an
 *                          OpenCL error in any work it does there (cg's profiled
 *                          solve) is returned and makes the row an error
 *   teardown(env, g)       release what g->state holds (also after errors, so
 *                          from any state setup may leave, the zeroed one too)
 *
 * Services beside this contract have headers of their own: clb_fit.h (the
 * work-groups and tiles that fit the device), clb_comm.h (the ranks of a
 * job: messages, shared memory) and clb_model.h (a workload's `clbench
 * model` models).
 */
#ifndef CLB_WORKLOAD_H
#define CLB_WORKLOAD_H

#include <math.h>
#include "clbench.h"
#include "clb_cl.h"
#include "clb_params.h"
#include "clb_profile.h"
#include "clb_results.h"
#include "clb_stats.h"

/* ---- declarations ------------------------------------------------------ */

/* What a parameter is to a line of results (docs/COMPARE.md, "Line
 * identity"): every entry of a workload's `params` and `row_keys` says one
 * (a test refuses an entry that does not). */
enum clb_param_role {
    CLB_ROLE_UNSET,    /* not declared: read as a case parameter */
    CLB_ROLE_CASE,     /* defines what is measured (rhs, links, stride, split, flops...): part
                        * of what a line is; compare --baseline matches lines on it */
    CLB_ROLE_TUNING,   /* how the case is run, chosen by a profile, a probe, the device or a
                        * set-up (local, vec, ilp, groups, tile, best...), or an input of a
                        * model only: shown beside a line, never part of what it is */
    CLB_ROLE_RANK_PART /* tuning that is each MPI rank's own share of a split problem (its
                        * part of the lattice), different on every rank by design: the
                        * rank=all row sums ranks whose params are equal but for these */
};

/* A parameter a workload accepts (--param key=value, profile [tuning]
 * <workload>.<key>), or a key its rows' params carry (row_keys). */
struct clb_param_def {
    const char *key;
    const char *def;   /* default ("" = chosen by the workload; see help); row_keys: NULL */
    const char *help;
    enum clb_param_role role;
};

/* The main unit of a row: what its `gbps` or `gflops` column means and what
 * the summary and the model show. */
enum clb_unit { CLB_UNIT_GBPS, CLB_UNIT_GFLOPS };

/* What the core asks a workload to count: one case (kernel set) or the whole
 * group (kernel NULL: every device buffer its set-up allocates). Everything
 * a count depends on is in the row: kernel, type, size and params. */
struct clb_query {
    const char *kernel;               /* NULL: the group */
    const char *dtype;                /* "" for untyped workloads */
    const struct clb_size *size;
    const struct clb_kvlist *params;  /* the case's params; for a group, --param */
    const char *workload;             /* a group's: --param WORKLOAD.key before key; else NULL */
};

/* The answer. Counts are exact integers held in doubles. */
struct clb_counts {
    double bytes;       /* moved by one run: each input read once, each output written once */
    double flops;       /* computed by one run (0: none) */
    double footprint;   /* device bytes the run touches (the cache check); 0 = bytes */
    double largest;     /* the largest single device buffer (group counts) */
    enum clb_unit unit; /* the row's main unit */
    int host_bound;     /* host work (transfers, CPU baselines): no device-memory roofline,
                         * never cache-resident, no ratio to a device baseline */
    int compute_bound;  /* a compute ceiling (peak): its few bytes are results, not traffic:
                         * no cache mark, no % of peak bandwidth, no ratio to a bandwidth
                         * baseline, and no model where the profile has no peak for the type */
};

/* A value of a query's params: the case's (or --param's) value, else def. */
const char *clb_query_param(const struct clb_query *q, const char *key, const char *def);
/* One whole number in lo..hi of a query's params, else def (a bad value is
 * set-up's to refuse, with its message; a count only needs a figure). */
long clb_query_long(const struct clb_query *q, const char *key, long lo, long hi, long def);
/* The element size of the query's type (0 for untyped). */
size_t clb_query_esize(const struct clb_query *q);
/* End a count: when *ovf is set, record "<workload>: size S: the byte count
 * does not fit in 64 bits" and return CLB_EUSAGE; else store the figures.
 * Counting functions compute sizes with clb_mulz/clb_addz and end with this. */
int clb_count_done(const struct clb_query *q, int ovf, struct clb_counts *out, size_t bytes,
                   size_t flops, size_t footprint, size_t largest, enum clb_unit unit);
/* The count of a copy (blockeq, copy2d, transpose): an input of the size's
 * elements of the type read once, an output as large written once; the
 * group holds the two. */
int clb_count_copy(const struct clb_query *q, struct clb_counts *out);
/* Is the query's kernel one of `known` (a comma list as people read it:
 * "recip, divmod")? NULL (the group) is. Else CLB_EUSAGE with "unknown
 * <workload> kernel 'K' (known: <known>)": a count() starts with it. */
int clb_query_kernel(const struct clb_query *q, const char *workload, const char *known);

/* How the core picks default sizes: the first size of the workload's ladder
 * whose footprint (count of the group) reaches max(llc_times x the last-level
 * cache, the floor), but never past the cap, the allocation limit or a
 * fraction of the device memory (then the largest that fits). With `sweep`
 * the defaults are every ladder size from the floor up to those limits. */
struct clb_size_rule {
    const char *quick;          /* sizes of --quick (CI): the whole suite runs in seconds */
    double llc_times;           /* footprint >= llc_times x last-level cache */
    double floor_mib[2];        /* footprint floors: [0] CPUs, [1] GPUs and accelerators */
    double cap_mib[2];          /* footprint caps (0: none), where run time, not caches, limits */
    const char *extra[2];       /* sizes run besides, e.g. a study's own size: [cpu, gpu] */
    int sweep;                  /* every ladder size between floor and limit (bus) */
    /* The i-th candidate size (i = 0, 1, ...), smallest first, as size text;
     * 0 when there is none. NULL: powers of two in each extent (1-D 2^i;
     * 2-D 2^i x 2^i; 4-D 2^i x 2^i x 2^i x 2^i). */
    int (*ladder)(int i, char *out, size_t n);
};

/* One configuration to measure. The workload fills kernel, params, the
 * launch shape, an optional model and its own data; the core counts it. */
struct clb_case {
    const char *kernel;        /* owned by the core */
    const char *params;        /* "vec=4,ilp=1" as written to the CSV; owned by the core */
    struct clb_counts counts;  /* from the workload's count(), set by clb_case_add */
    double model;              /* prediction in the row's main unit; NAN: the core's roofline */
    int status;                /* CLB_OK, or CLB_SKIP set in setup with a reason */
    struct clb_buf detail;     /* notes for people ("; " separated), see clb_case_note */
    struct clb_buf metrics;    /* figures as data (the metrics column), see clb_case_metric */
    size_t global[3], local[3];
    unsigned dims;             /* 0 = no ND-range (host work: never cache-resident) */
    void *data;                /* the workload's per-case struct: case_size bytes, zeroed */
};

/* One (type, size) group: the unit of setup/teardown. */
struct clb_group {
    const struct clb_workload *wl;
    const char *dtype;         /* "" for workloads without types */
    const char *size_text;     /* as given or defaulted */
    const char *size_from;     /* where the size came from (the core's; metrics size_from):
                                * given, quick, rule, profile, extra, ladder */
    struct clb_size size;
    struct clb_counts counts;  /* the group's device memory (count with kernel NULL) */
    void *state;               /* the workload's own: state_size bytes, zeroed before setup */
    struct clb_case *cases;    /* core-managed: add with clb_case_add */
    int ncases;
    size_t cap;
};

/* One sample: either events (START of first .. END of last) or seconds. */
struct clb_sample {
    cl_event first, last;      /* the core waits for and releases them */
    double seconds;            /* used when first is NULL */
};

/* What a workload sees: the device, its profile, its parameters, and how the
 * run is timed. Not the command line. */
struct clb_env {
    struct clb_device *dev;
    const struct clb_devinfo *info;
    const struct clb_profile *profile;
    const struct clb_workload *wl;
    const struct clb_kvlist *params;   /* --param values (clb_param reads them) */
    int quick;                         /* --quick: small sizes, short probes */
    const char *dtype;                 /* the group's type ("" outside one): selects
                                        * [tuning] <workload>.<key>.<dtype> */
    struct clb_notes *notes;           /* the core's: the lines of the run's summary that
                                        * clb_fit_record keeps (NULL: none kept) */
};

/* What `measured` sees of a case after its timed runs. */
struct clb_measure {
    struct clb_stats t;        /* seconds per run */
    int reps;
    double gbps, gflops;       /* from the median */
};

/* A ceiling of a device that rows measured (`--ceilings FILE`; host/core/ceilings.c). */
enum clb_ceiling_kind {
    CLB_CEIL_BW,       /* memory bandwidth, GB/s */
    CLB_CEIL_TRIAD,    /* STREAM triad bandwidth, GB/s */
    CLB_CEIL_SP,       /* fp32 arithmetic, GFlop/s */
    CLB_CEIL_DP,       /* fp64 arithmetic, GFlop/s */
    CLB_CEIL_LATENCY,  /* memory latency, ns per dependent load */
    CLB_NCEILINGS
};
struct clb_ceiling {
    enum clb_ceiling_kind kind;
    double value;               /* GB/s, GFlop/s or ns */
    double cycles, clock_mhz;   /* latency: cycles at clock_mhz (NAN when unknown) */
    const struct clb_row *row;  /* the row it comes from (run id, device) */
    char what[64];              /* which rows: "stream triad", "latency memory plateau" */
    char note[128];             /* which of them: "double vec=2", "256 MiB..1 GiB, stride 128 B" */
};

/* How `clbench compare --plot` and `clbench report` draw a workload's rows
 * (docs/COMPARE.md, docs/REPORT.md): the figure is data the workload
 * declares; neither command names a workload. */
enum clb_figure_kind {
    CLB_FIGURE_TABLE,     /* default: bars or lines of the compared metric */
    CLB_FIGURE_ROOFLINE,  /* one figure per device: GFlop/s against flop/byte (flops / bytes of
                           * each row), log-log, under the device's measured bandwidth and
                           * compute ceilings; every other workload's device rows that have
                           * bytes and flops are placed on it */
    CLB_FIGURE_STAIRS     /* one figure: y against x (log2 axis), one line per device */
};
/* A model line a figure draws beside the measured points: GFlop/s = a
 * bandwidth (the device's measured ceiling, else its datasheet peak) times
 * this row's arithmetic intensity under the model's assumption. */
struct clb_figure_model {
    char name[48];          /* "no cache", "perfect vector cache" */
    double flop_per_byte;
};
struct clb_figure {
    enum clb_figure_kind kind;
    /* x: the number after "x_param=" in a row's params (a comma list: the
     * first key the row has, one figure each: stride's "stride,offset"); y
     * its metric y_metric (clb_row_metric) where one is named, else the
     * row's main unit (count()). The axis titles. x is a size in bytes when
     * x_bytes is set (labelled KiB, MiB). CLB_FIGURE_TABLE without x_param
     * draws bars, one per kernel. */
    const char *x_param, *y_metric, *x_label, *y_label;
    int x_bytes;
    /* CLB_FIGURE_TABLE: */
    const char *order;      /* the kernels in the order a figure shows them (comma list; the
                             * others after them, as they come): a study's sequence */
    const char *baseline;   /* a kernel of this workload that each bar is set against at the
                             * same size and type (a line, and the ratio written on the bar) */
    int x_size;             /* lines against the problem size (x_label, x_bytes) instead of bars */
    int lower_is_better;    /* y_metric: the best of repeated runs is the lowest (a latency) */
    const char *y_unit;     /* y_metric's unit ("us"); NULL: the main unit's */
    const char *split;      /* a metric in 0..1 that splits each bar in two parts (the device's
                             * share of a hybrid run) */
    const char *split_names;   /* the two parts, comma-separated ("device,CPU") */
    /* Optional: the model lines of a row (up to max; their number). */
    int (*models)(const struct clb_row *r, struct clb_figure_model *out, int max);
};

/* A change of a workload's kernels that its rows' figures show, as the git
 * history says (docs/COMPARE.md, "Changed kernels"). Rows written since the
 * fingerprint (the metric fp) say what ran themselves; for older rows,
 * `compare --baseline` reads a line as CHANGED, not REGRESSED, where one
 * side's row is older than `date` and the other's is not. */
struct clb_kernel_rev {
    const char *kernels;   /* the rows' kernel values whose code changed, comma list */
    const char *date;      /* when the commit landed, UTC: "2026-11-25T20:44:34Z" */
    const char *commit;    /* its short hash */
    const char *what;      /* what changed, for people */
};

/* A figure of the headline: the table people paste into slides (`compare
 * --headline`, the end of ./bench.sh, the top of the report), one row per
 * figure, one column per device. Its value: the device's measured ceiling
 * `ceiling` (host/core/ceilings.c) where it has one, else the device's best
 * of this workload's rows of `kernel` (and `dtype`) outside the caches, in the
 * figure the workload is about (its unit, its better way). */
struct clb_headline {
    const char *label;    /* "stream triad" */
    const char *kernel;   /* the rows' kernel value */
    const char *dtype;    /* NULL: any type */
    int ceiling;          /* enum clb_ceiling_kind, or -1 */
    int datasheet;        /* 1: a row of its % of the datasheet peak below it (bandwidth for
                           * GB/s, the type's compute peak for GFlop/s) */
};

/* What a workload's summary may say about the hardware its rows ran on:
 * the device's queries and its profile (either NULL when unknown). A summary
 * names hardware (a cache level, memory partitions, a bus) only from these,
 * and says so when they do not tell. */
struct clb_summary_ctx {
    const struct clb_devinfo *info;
    const struct clb_profile *profile;
};

struct clb_workload {
    const char *name;
    const char *summary;               /* one line */
    const char *dtypes;                /* accepted types, comma list; NULL = untyped */
    const char *default_dtypes;        /* used without -t */
    const struct clb_param_def *params;/* terminated by {0} */
    /* Keys its rows' params carry that --param does not take (each case's own
     * value of a list parameter: stride=, ws=, distance=; values set-up
     * derives: part=), with their roles; NULL or terminated by {0}. A key of a
     * row that neither table declares is a case parameter. */
    const struct clb_param_def *row_keys;
    const char *size_help;             /* what -s accepts, with an example */
    int size_dims;                     /* extents in a size: 1, 2 or 4 */
    int size_in_bytes;                 /* a 1-D size counts bytes (else elements of the type) */
    const char *size_unit;             /* what a size counts, said after it where a person
                                        * reads it ("lane-FMAs per work-item"); NULL:
                                        * "elements" (bytes and lattices say themselves) */
    struct clb_size_rule sizes;        /* default sizes */
    /* Baselines the core relates each row to, comma list of workload/kernel:
     * "stream/copy" (of_stream_copy=, the same type's best copy of this run)
     * or "<this workload>/copy" (of_copy=, the same group's copy). */
    const char *baselines;
    size_t state_size;                 /* bytes of the group's state (clb_group.state) */
    size_t case_size;                  /* bytes of the per-case struct (clb_case.data) */
    /* Counts of a case or of the group (see struct clb_query). CLB_EUSAGE with a
     * message for a query it cannot count (unknown kernel, overflow). */
    int (*count)(const struct clb_query *q, struct clb_counts *out);
    /* Optional extra check of a parsed size (e.g. all extents even);
     * CLB_EUSAGE with a message. */
    int (*check_size)(const struct clb_size *s);
    /* Optional: how many cases setup will add for this group (for the
     * progress counter and ETA of the whole run); < 0 or NULL: unknown. It
     * must be exact: the total of the progress is the sum of the plans (a
     * test checks it). */
    int (*plan)(struct clb_env *env, const char *dtype, const struct clb_size *size);
    int (*setup)(struct clb_env *env, struct clb_group *g);
    int (*prepare)(struct clb_env *env, struct clb_group *g, struct clb_case *c);
    int (*run)(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s);
    int (*verify)(struct clb_env *env, struct clb_group *g, struct clb_case *c);
    int (*measured)(struct clb_env *env, struct clb_group *g, struct clb_case *c,
                    const struct clb_measure *m);
    void (*teardown)(struct clb_env *env, struct clb_group *g);
    /* Optional: extra summary lines from this workload's rows of this run,
     * on the device ctx describes. */
    void (*summarize)(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                      FILE *out);
    /* Optional: the ceilings this workload's rows measured. rows: its `ok`
     * rows of one device, from any number of runs; write up to max
     * candidates and return how many. The core keeps the best of each kind
     * (the highest rate, the lowest latency). */
    int (*ceilings)(const struct clb_row *rows, size_t n, struct clb_ceiling *out, int max);
    /* With ceilings: the kinds it can measure (bit k for enum clb_ceiling_kind
     * k) and which of its rows count, for people (the message when a file
     * has no row of a kind: "copy or triad rows that are not cache-resident"). */
    unsigned ceiling_kinds;
    const char *ceiling_rows;
    const struct clb_model_def *models;  /* optional, terminated by {0} */
    struct clb_figure figure;            /* optional: how `compare --plot` and `report` draw
                                          * the rows */
    /* What each of its rows must hold for `ceilings` and `figure` (rows from
     * files are untrusted): params keys whose values are numbers and metrics
     * that are numbers, comma lists (NULL: nothing). The core checks rows
     * against them (clb_row_has) and skips, with a counted warning, those
     * that lack one, so that these hooks only see rows that have what they
     * read. A hook still reads every other field defensively. */
    const char *row_params, *row_metrics;
    /* Optional: the changes of its kernels since clbench wrote results
     * (terminated by {0}), newest last. */
    const struct clb_kernel_rev *revisions;
    /* Optional: its figures of the headline (terminated by {0}). */
    const struct clb_headline *headline;
};

/* The position of a kernel in wl's figure.order (0..), the number of listed
 * kernels for one not listed, or when wl is NULL or declares no order. */
int clb_figure_pos(const struct clb_workload *wl, const char *kernel);

/* A [tuning] key every workload accepts: `<workload>.sizes = LIST` gives a
 * device's default sizes (instead of the size rule). */
#define CLB_TUNING_SIZES "sizes"

/* The steps every workload fills in, by their conventional names: a workload
 * defines static functions count, setup, run, verify and teardown and puts
 * CLB_STEPS in its descriptor (optional steps are named beside it). */
#define CLB_STEPS .count = count, .setup = setup, .run = run, .verify = verify, .teardown = teardown

/* ---- the registry (host/workloads/registry.c) -------------------------- */

/* Every workload, in the order `run all` uses; NULL-terminated. */
const struct clb_workload *const *clb_workload_list(void);
const struct clb_workload *clb_workload_find(const char *name);
/* "stream, copy2d, ..." of every registered workload (malloc'd). */
char *clb_workload_names(void);
/* Register one more (a test's workload; 16 at most): before main's work. */
int clb_workload_register(const struct clb_workload *wl);
/* The role of a key of a row's params for workload wl (NULL: a workload the
 * registry does not know): its declaration in params or row_keys; a key
 * neither declares, or declares without a role, is a case parameter (so a
 * key nobody called tuning keeps lines apart, never merges them). */
enum clb_param_role clb_param_role_of(const struct clb_workload *wl, const char *key);
/* Is key declared CLB_ROLE_RANK_PART (params or row_keys)? */
int clb_param_per_rank(const struct clb_workload *wl, const char *key);
const char *clb_param_role_name(enum clb_param_role role);

/* Is `key` a declared parameter of workload `name`? Else why not, in *why
 * (unknown workload, or the keys it knows). */
int clb_workload_param_known(const char *name, const char *key, struct clb_buf *why);

/* ---- cases ------------------------------------------------------------- */

/* Add a case: kernel, params (printf format, "k=v,k=v"), counted by the
 * workload's count(); *out is zeroed but for model = NAN, status = CLB_OK
 * and data. CLB_EUSAGE (message set) when the count refuses, CLB_ESYS on OOM. */
int clb_case_add(struct clb_group *g, struct clb_case **out, const char *kernel,
                 const char *fmt_params, ...) __attribute__((format(printf, 4, 5)));
/* Mark a case skipped with a reason. */
void clb_case_skip(struct clb_case *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append a note to a case's detail ("; " separated): text for people only;
 * no program reads it back (a figure a program reads is a metric). */
void clb_case_note(struct clb_case *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Record a measured figure of a case in its row's metrics column
 * (docs/RESULTS.md, "Metrics"): key in [a-z][a-z0-9_]* with its unit in the
 * name (ns_per_load, halo_ms_max, llc_bytes); a value that is not finite is
 * not recorded; a key set twice keeps the last value. A key outside the
 * grammar is a bug: said on stderr, nothing recorded. Read rows back with
 * clb_row_metric / clb_row_flag (clb_results.h). */
void clb_case_metric(struct clb_case *c, const char *key, double value);
/* A metric whose value is a word ([A-Za-z0-9_.+-], not a number). */
void clb_case_metric_token(struct clb_case *c, const char *key, const char *token);

/* Rows from files: does r hold what wl declares its rows hold (row_params,
 * row_metrics)? */
int clb_row_fits(const struct clb_workload *wl, const struct clb_row *r);
/* Say on stderr that n rows of wl (`where`: "of 'DEVICE'", "in the files")
 * were skipped for `use` because they lack what it declares: "clbench:
 * warning: 3 latency rows of 'X' lack params ws,stride and metrics
 * ns_per_load as numbers: skipped for ceilings". Nothing when n is 0. */
void clb_warn_unfit(const struct clb_workload *wl, size_t n, const char *where,
                    const char *use);

/* ---- parameters -------------------------------------------------------- */

/* Parameter value: --param, else the profile's [tuning] <workload>.<key>,
 * else the declared default. Never NULL for a declared key. */
const char *clb_param(const struct clb_env *env, const char *key);
/* Integer list of a parameter; CLB_EUSAGE with a message on a bad value. */
int clb_param_ints(const struct clb_env *env, const char *key, long lo, long hi, long *out,
                   int max, int *n);
/* Exactly one integer in lo..hi. */
int clb_param_int(const struct clb_env *env, const char *key, long lo, long hi, long *out);
/* Exactly one number in the open interval (lo, hi). */
int clb_param_real(const struct clb_env *env, const char *key, double lo, double hi, double *out);
/* Which source a value came from: "param", "profile" or "default". */
const char *clb_param_origin(const struct clb_env *env, const char *key);
/* A comma list of names, each one of `known` (comma list); sets bit i of
 * *mask for known name i. Empty value: `all_if_empty` selects all. */
int clb_param_names(const struct clb_env *env, const char *key, const char *known,
                    int all_if_empty, unsigned *mask);

/* ---- types ------------------------------------------------------------- */

/* Element size of a type name: float 4, double 8, float3 12 (packed),
 * float3_aligned 16, float2 8, float4 16, double2 16 ...; 0 if unknown. */
/* A size with its unit, as a person reads it: "2^28 elements", "8192x8192
 * elements", "64x64x64x16 lattice", "64 MiB", "2^17 lane-FMAs per work-item"
 * (size_unit); the text as it is for a workload (NULL) or a size this
 * clbench does not know (host/core/summary.c). */
void clb_size_words(const struct clb_workload *wl, const char *size, struct clb_buf *out);
size_t clb_dtype_size(const char *dtype);
/* Is the type double precision (double, double2, ...)? */
int clb_dtype_is_double(const char *dtype);
/* -D options for a type: "-DT=float -DT_SIZE=4" plus -DUSE_FP64=1 for doubles. */
void clb_dtype_defines(const char *dtype, char *out, size_t n);

/* ---- device memory, data and checks ------------------------------------ */

/* The set-up every copy-like workload shares: an input of in_bytes filled
 * with random floats (or doubles when dbl) over every byte, an output of
 * out_bytes, both on the host and on the device (output with out_flags), the
 * input uploaded. Whatever was made is in *io even on failure; release it
 * with clb_inout_free. */
struct clb_inout {
    void *in, *out;
    cl_mem din, dout;
};
int clb_inout_setup(struct clb_env *env, size_t in_bytes, size_t out_bytes, int dbl,
                    unsigned long long seed, cl_mem_flags out_flags, struct clb_inout *io);
void clb_inout_free(struct clb_inout *io);

/* Release helpers: NULL entries are skipped and every entry is set to NULL. */
void clb_release_mems(cl_mem *m, size_t n);
void clb_release_kernels(cl_kernel *k, size_t n);
#define CLB_RELEASE_MEMS(arr) clb_release_mems((cl_mem *)(arr), sizeof(arr) / sizeof(cl_mem))
#define CLB_RELEASE_KERNELS(arr) \
    clb_release_kernels((cl_kernel *)(arr), sizeof(arr) / sizeof(cl_kernel))

/* Exact check of n elements laid out every `stride` bytes: counts the
 * elements whose first `cmp` bytes differ (OpenMP), and the first such
 * index in *first (-1 if none). With period > 0, element i is held against
 * want's element i % period (one expected value per class). */
long clb_mismatches(const unsigned char *got, const unsigned char *want, size_t n, size_t stride,
                    size_t cmp, size_t period, long *first);
/* The same, noted on the case ("N of M elements wrong (first at I)") and
 * CLB_FAIL when any differ. */
int clb_check_exact(struct clb_case *c, const void *got, const void *want, size_t n,
                    size_t stride, size_t cmp);

/* The same for a row-major matrix `width` elements wide: the note names
 * the first wrong element's row and column. */
int clb_check_exact_2d(struct clb_case *c, const void *got, const void *want, size_t n,
                       size_t stride, size_t cmp, size_t width);

/* The last-level cache size in bytes that the device can use: the larger of
 * the queried global memory cache and the profile's L2, at most
 * CLB_LLC_PER_UNIT per compute unit (a CPU device owns a share of its
 * socket's L3: docs/MEASURING.md, "Default sizes"). */
#define CLB_LLC_PER_UNIT (16.0 * 1048576.0)
size_t clb_llc_bytes(const struct clb_env *env);

/* ---- caches (host/core/caches.c) ---------------------------------------- */

/* A cache level the device or the OS reports (host/core/caches.c): the only
 * levels a summary names. name: "L1d", "L2", "L3" (the OS's sysfs hierarchy,
 * for a CPU device), "global memory cache" (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE,
 * which does not say which level it is), "L2" (the profile's l2_kb); source
 * says where each came from (levels of equal size are one, with both
 * sources). */
struct clb_cache_level {
    char name[24];
    double bytes;
    char source[96];
};
/* The levels of a device (info and p may be NULL), smallest first; at most
 * max. clb_cache_levels_from reads the CPU hierarchy from sysfs_dir (the
 * layout of /sys/devices/system/cpu/cpu0/cache: index<N>/level, size, type),
 * clb_cache_levels from the real one. */
int clb_cache_levels(const struct clb_devinfo *info, const struct clb_profile *p,
                     struct clb_cache_level *out, int max);
int clb_cache_levels_from(const char *sysfs_dir, const struct clb_devinfo *info,
                          const struct clb_profile *p, struct clb_cache_level *out, int max);
/* The data and unified caches of one sysfs cache directory; bad entries are
 * left out. */
int clb_sysfs_caches(const char *dir, struct clb_cache_level *out, int max);

/* ---- the device's timer ------------------------------------------------ */

/* NULL while the device's event timestamps are trusted in this run, else
 * why not (docs/MEASURING.md "Timers"): the core then times every evented
 * run on the host clock, and a figure only device timestamps can give
 * (submit -> start, one kernel's share of a sequence) must be skipped with
 * that reason, never computed from the events. */
const char *clb_timer_untrusted(const struct clb_env *env);

/* ---- tuning probes ----------------------------------------------------- */

/* Time one launch configuration `runs` times (the first warms up and is not
 * counted) and give the fastest run in *tmin seconds. launch enqueues once
 * and returns its event. Used by the workloads' "fastest of" defaults. Where
 * the device's events are not trusted, each run is timed on the host clock.
 * Under MPI *tmin is the slowest rank's fastest run: every rank sees the
 * same times, so a "fastest of" choice is the job's, the same on every rank. */
typedef int (*clb_launch_fn)(struct clb_env *env, void *ctx, cl_event *ev);
int clb_probe_min(struct clb_env *env, clb_launch_fn launch, void *ctx, int runs, double *tmin);
/* A tuning figure a workload measured itself (dot's CPU/device split): under
 * MPI every rank takes rank 0's *v, so the ranks run one configuration;
 * one process: *v unchanged. Every rank calls it at the same point. */
int clb_probe_decide(struct clb_env *env, double *v);

/* ---- pinned host memory (host/core/pinned.c) ------------------------------ */

/* A pinned host buffer: an ALLOC_HOST_PTR buffer of bytes mapped for
 * reading and writing, *ptr its mapping (NULL when the map fails; what
 * names it in that message). */
int clb_pinned(struct clb_env *env, size_t bytes, const char *what, cl_mem *buf, void **ptr);

#endif
