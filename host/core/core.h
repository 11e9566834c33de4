/* Private to the core, the models and the command-line front end (host/core,
 * host/models, host/cli): what a workload never sees. */
#ifndef CLB_CORE_H
#define CLB_CORE_H

#include "clb_ceilings.h"
#include "clb_comm.h"
#include "clb_fit.h"
#include "clb_workload.h"

#include <stdint.h>
#include <sys/types.h>

/* The fingerprint of what a case ran (fingerprint.c; docs/RESULTS.md, the
 * metric fp). Hashes of a kernel's visible source in its program's text
 * (comments and blanks out, the file's other kernels' bodies emptied) and of
 * its build options: */
uint64_t clb_fp_source(const char *source, const char *name);
uint64_t clb_fp_options(const char *options);
/* Note a kernel a group created (clb_kernel); name NULL: a note was lost,
 * no fingerprint for this group. */
int clb_fp_note(struct clb_device *d, const char *name, uint64_t src, uint64_t opt);
/* Forget the noted kernels (a group begins); free them (the device closes). */
void clb_fp_reset(struct clb_device *d);
void clb_fp_free(struct clb_device *d);
/* The fingerprint of a case of kernel `kernel`: its group's kernels of that
 * name, else all its group's kernels; "s<12 hex>-o<8 hex>" into out, 1; 0
 * when there is none (no kernel noted, a note lost). */
int clb_fp_case(const struct clb_device *d, const char *kernel, char *out, size_t n);

/* Everything `clbench run` was asked (host/cli/cmd_run.c fills it). */
struct clb_run_opts {
    const char *device;         /* -d */
    const char *profile;        /* -p */
    const char *types;          /* -t */
    const char *sizes;          /* -s */
    const char *output;         /* -o */
    const char *kernel_dir;     /* --kernel-dir or $CLBENCH_KERNEL_DIR */
    const char *platforms_dir;  /* --platforms-dir */
    int reps, warmup, quick;    /* reps: the most timed repetitions */
    int min_reps;               /* --min-reps: the fewest */
    double min_time, max_time;  /* --min-time/--max-time: seconds of timed runs per configuration */
    double tolerance;           /* --tolerance: stop when the median is known to this fraction; 0 off */
    double budget;              /* --budget: seconds the run's estimate may reach, the rule's
                                 * sizes stepped down where it does not; 0: none (driver.c) */
    enum clb_format format;     /* --format, else by the -o name */
    int format_set;
    double peak_bw, peak_sp, peak_dp;  /* --peak-bw/--peak-gflops/--peak-gflops-dp; NAN: the profile's */
    const char *ceilings;       /* --ceilings FILE: peaks measured on the device (ceilings.c) */
    double case_timeout;        /* --case-timeout: seconds a build, set-up or case may take
                                 * (watchdog.c); 0 off; NAN: the default (clb_case_timeout) */
    int energy;                 /* --energy: CLB_ENERGY_AUTO, _ON, _OFF */
    int cache;                  /* --cache: CLB_CACHE_AUTO, _ON, _OFF (--no-cache) */
    int devices_per_rank;       /* --devices-per-rank: devices a process drives, each a rank
                                 * (0, 1: one; -1: the node's, shared by its processes) */
    double energy_window;       /* --energy-window: the shortest timed window (s) an energy
                                 * reading is taken over; NAN: clb_energy_min_window's */
    struct clb_kvlist params;   /* --param */
    const char *report;         /* --report FILE: the page of this run's rows (cmd_run.c) */
    int dry_run;                /* --dry-run: the plan of each device, and nothing run */
    /* Filled by the driver: the results files it wrote and the run ids of
     * its devices ("a,b"); the caller frees them. */
    char **outs;
    int nouts;
    size_t outs_cap;
    struct clb_buf run_ids;
    const struct clb_workload **wls;  /* selected workloads, in order */
    int nwl;
};

enum { CLB_ENERGY_AUTO, CLB_ENERGY_ON, CLB_ENERGY_OFF };
enum { CLB_CACHE_AUTO, CLB_CACHE_ON, CLB_CACHE_OFF };
/* With energy on, a configuration's timed runs go on (up to this many)
 * until they span --energy-window. */
#define CLB_ENERGY_MAX_REPS 100000

/* The lines a device's run says under its summary: its reductions of tiles
 * and work-groups (host/core/fit.c), each once. */
struct clb_notes {
    char **v;
    size_t n, cap;
};
/* Print them under a heading (out NULL: not printed), then forget them. */
void clb_fit_summary(struct clb_notes *notes, FILE *out);

/* Run the selected workloads; returns the process exit status. */
int clb_driver_run(struct clb_run_opts *o);

/* A working set below this many times the last-level cache measures the
 * cache: such rows are marked cache_resident, and the default size rule aims
 * above it. */
#define CLB_RESIDENT_TIMES 4

/* The default sizes of a workload for a type on a device, as a comma list
 * (malloc'd), by its size rule (struct clb_size_rule). NULL with a message
 * when a count refuses. Where the rule's size stays below
 * CLB_RESIDENT_TIMES x the last-level cache (a cap, the device's memory or
 * allocation limit, the ladder's end), a line saying why is added to *why
 * (when why is not NULL). */
char *clb_default_sizes(const struct clb_env *env, const char *dtype, struct clb_buf *why);
/* Which of clb_default_sizes' decisions gave `size` (one of its list), the
 * metric size_from: "quick", "profile" (its [tuning] sizes), "extra" (the
 * study's own size besides the rule's), "ladder" (a sweep's), "rule" (the
 * size rule's choice for this device; docs/COMPARE.md, --cross-device). */
const char *clb_size_from(const struct clb_env *env, const char *dtype, const char *size);

/* A rough estimate of a group's seconds (its cases, set-up and checks), made
 * before the first case from its counts c and the timing options: --budget
 * weighs the run with it (docs/MEASURING.md, "Default sizes"). */
double clb_estimate_group(const struct clb_env *env, const struct clb_counts *c, long cases,
                          const struct clb_run_opts *o);
/* The next smaller size of the workload's ladder below `size` (by footprint),
 * in out: 1, or 0 when there is none (a sweep's sizes are its ladder). */
int clb_size_below(const struct clb_env *env, const char *dtype, const struct clb_size *size,
                   char *out, size_t n);

/* Where clb_llc_bytes' figure comes from: "reported" (the device's
 * CL_DEVICE_GLOBAL_MEM_CACHE_SIZE), "profile" (the profile's larger L2) or
 * "unit_cap" (capped at CLB_LLC_PER_UNIT per compute unit). Written to the
 * rows whose size the rule chose as the metric llc_from. */
const char *clb_llc_from(const struct clb_env *env);

/* Count a workload's group for (dtype, size) with the --param values. */
int clb_count_group(const struct clb_workload *wl, const char *dtype, const struct clb_size *size,
                    const struct clb_kvlist *params, struct clb_counts *out);

/* "k=v,k=v" -> list (a part without '=' is a key with an empty value). */
int clb_params_parse(const char *text, struct clb_kvlist *out);
void clb_case_free(struct clb_case *c);

/* Exit statuses (docs: 0 ok, 1 validation failed, 2 bad usage, 3 OpenCL or system error). */
enum { CLB_EXIT_OK = 0, CLB_EXIT_FAILED = 1, CLB_EXIT_USAGE = 2, CLB_EXIT_ERROR = 3,
       CLB_EXIT_NOTHING = 4, /* every configuration was skipped: nothing was measured */
       CLB_EXIT_TIMEOUT = 6  /* a build, set-up or case ran past --case-timeout: the run ended there */ };

/* The watchdog's seconds per step: --case-timeout, else CLB_CASE_TIMEOUT_S,
 * or 3 x --max-time (or --energy-window) where that is longer. */
#define CLB_CASE_TIMEOUT_S 300.0
double clb_case_timeout(const struct clb_run_opts *o);
int clb_exit_status(int rc);

/* ---- measured ceilings (ceilings.c): `--ceilings FILE` ------------------- */

/* The ceilings of one device found in a results file: for each kind the best
 * candidate of every workload that offers them (struct clb_workload's
 * `ceilings`), from `ok` rows of that device only. */
struct clb_ceilings {
    char *file;                          /* the path as given */
    const char *device;                  /* the device whose rows were used (in rows' arena) */
    struct clb_ceiling c[CLB_NCEILINGS];
    int have[CLB_NCEILINGS];
    struct clb_row row[CLB_NCEILINGS];   /* the rows they came from (c[k].row points here) */
    struct clb_rowset rows;              /* the file's rows: the strings live here */
};
/* How the device is chosen: `exact` (a run: its CL_DEVICE_NAME), else
 * `part` (model --device: a case-insensitive part of the name), else
 * `match` (model --profile: the profile's comma-separated name substrings,
 * named `profile` in messages), else the only device in the file. No
 * device, or more than one, is CLB_EUSAGE with one line naming the devices
 * the file holds. */
struct clb_ceil_pick {
    const char *exact, *part, *match, *profile;
};
int clb_ceilings_load(const char *path, const struct clb_ceil_pick *pick, struct clb_ceilings *out);
/* "measured: stream triad double vec=2 3076.1 GB/s, run 6b02-..., file x.csv"
 * (malloc'd; NULL when the kind was not measured or out of memory). */
char *clb_ceiling_origin(const struct clb_ceilings *c, enum clb_ceiling_kind kind);
/* Why a kind is missing: "--ceilings FILE: no row of 'DEVICE' there measures
 * its memory bandwidth (stream: ...; roofline: ...); run `clbench run stream`
 * at default sizes on it" (malloc'd; NULL on OOM), from the workloads' declarations. */
char *clb_ceiling_missing(const struct clb_ceilings *c, enum clb_ceiling_kind kind);
void clb_ceilings_free(struct clb_ceilings *c);

/* Remember a file this process reads (rows 0) or appends rows to (rows 1),
 * by device and inode (util.c); clb_output_ok refuses to replace it. */
void clb_files_note(dev_t dev, ino_t ino, int rows);
/* 0: unknown; 1: read; 2: rows are written to it. */
int clb_files_known(dev_t dev, ino_t ino);

#endif
