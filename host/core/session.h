/* What one `clbench run` holds while it runs, shared by the driver's files:
 *   driver.c    devices, profiles, the plan of groups, the run of a group
 *   measure.c   the timing loop, statistics, models, energy of one case
 *   rows.c      rows, progress, baselines, the results file
 *   lockstep.c  agreeing with the other ranks of an MPI job, aggregate rows */
#ifndef CLB_SESSION_H
#define CLB_SESSION_H

#include <signal.h>
#include "clb_cache.h"
#include "core.h"
#include "energy.h"

extern volatile sig_atomic_t clb_signal;   /* the first SIGINT/SIGTERM, 0 if none */

/* The plan of the whole invocation, in run order, and what each workload
 * on each device has measured so far (progress.c). */
struct progress_group {
    int slot;                 /* device x workload: index into sec, work, n */
    long cases;               /* planned configurations */
    double work;              /* the group's device footprint, bytes */
};
/* Per slot: the wall seconds and work of its finished cases, the first of
 * each group (its set-up, builds and probes in it) apart from the others. */
struct progress_rate {
    double sec1, work1, secn, workn;
    long n1, nn;
    int groups;               /* its groups that ended */
};
struct progress {
    struct progress_group *g;
    int ng, cur;              /* cur: the running group, -1 before the first */
    size_t cap;
    long cur_done;            /* configurations of the running group done */
    struct progress_rate *rate;
    int nslot;
    size_t rate_cap;
    double t_last;            /* when the last configuration ended */
};

/* The whole invocation: the devices, the profiles, the progress. */
struct run {
    struct clb_run_opts *o;
    struct clb_profiles profiles;
    struct clb_devinfo *devs;
    int ndev;
    int *sel, nsel;           /* the devices this process runs (indices into devs) */
    long done, total;         /* configurations measured / planned, all devices */
    struct progress progress;
    struct clb_bincache bincache;  /* the program-binary cache of every device */
    struct clb_bincache *cache;    /* the process's (a device thread's run shares it) */
    int status;               /* the worst exit status so far */
    char *host;
    int mpi;                  /* one rank of an MPI job: lockstep, aggregate rows */
};

/* A list of rows and the strings they point to. */
struct rows {
    struct clb_row *v;
    size_t n, cap;
};

/* One device's part of the run. */
struct session {
    struct run *run;
    struct clb_run_opts *o;
    struct clb_profile generic, custom;
    const struct clb_profile *profile;
    const struct clb_profile *base_profile; /* the matched (or forced) one, before --peak-* and
                                             * --ceilings: the impossibility check's peaks */
    struct clb_device dev;
    int dev_open;
    struct clb_energy *energy; /* NULL: no source (or --energy off) */
    struct clb_writer out;     /* rank 0 only under MPI */
    int writing;
    char *outpath, *run_id;
    struct clb_arena arena;    /* the strings of this device's rows */
    struct rows rows;          /* this process's rows: the summary and the baselines */
    struct rows agg;           /* MPI, rank 0: the job's aggregate rows (rank=all) */
    int nunlike;               /* MPI, rank 0: configurations without an aggregate row, */
    struct clb_buf unlike;     /* the ranks ran different params; the first of them */
    int nfailed, nerror, nok, nskip;
    int nhost;                 /* rows whose kernels the host clock timed (untrusted events) */
    int nimpossible;           /* rows whose figure the device cannot reach (measure.c) */
    struct clb_buf first_bad;  /* the first error or failure, repeated at the end */
    struct clb_notes notes;    /* what the summary says of the run (fit.c's reductions) */
    /* what runs now, for the row the watchdog writes when it hangs */
    const struct clb_group *cur_group;
    const struct clb_case *cur_case;
};

/* What the timed runs of a configuration gave besides their times. */
struct timed {
    int n;                     /* timed runs */
    double *times;             /* seconds of each (n entries) */
    size_t times_cap;
    double wall;               /* seconds the timed runs took, wall clock */
    double joules;             /* energy over them; NAN when none was read */
    double *agg;               /* MPI: the slowest rank's time of each run (n entries) */
    size_t agg_cap;
    double *walls;             /* the host clock of each timed run, between two clFinish */
    size_t walls_cap;
    int evented;               /* the runs were timed by events (else by the workload) */
};

/* rows.c */
const char *clb_keep(struct session *s, const char *text);
void clb_base_row(struct session *s, struct clb_row *r, const struct clb_group *g);
const char *clb_status_name(int rc);
/* Record a finished row: this process's list, the counts, the results file
 * (under MPI: every rank's row gathered to rank 0, then the aggregate). */
int clb_emit(struct session *s, struct clb_row *r, const struct clb_row *agg);
/* The of_* notes of a case from this run's rows (aggregate rows for an
 * aggregate: rank "all"). */
void clb_note_ratios(struct session *s, const struct clb_group *g, struct clb_case *c,
                     double gbps, const struct rows *from);

/* progress.c */
/* Add a planned group (slot: device x workload; work: its footprint). */
int clb_progress_plan(struct run *run, int slot, long cases, double work);
void clb_progress_free(struct progress *p);
/* The measurements start; the next planned group starts. */
void clb_progress_start(struct run *run);
void clb_progress_next_group(struct run *run);
/* The running group's set-up added `cases` configurations. */
void clb_progress_recount(struct run *run, const char *what, long cases);
/* A row is done: its progress line ("[i/N] ... ETA"). A group row (skip or
 * error of a whole group) counts the group's planned cases that are left. */
void clb_progress(struct session *s, const struct clb_group *g, const char *kernel,
                  const char *params, const struct clb_row *r, enum clb_unit unit, int group_row);

/* measure.c */
/* Prepare, time, verify one case; its row (and, under MPI, the aggregate). */
int clb_measure_case(struct session *s, struct clb_env *env, struct clb_group *g,
                     struct clb_case *c);
void clb_fill_figures(struct session *s, struct clb_row *r, struct clb_env *env,
                      struct clb_group *g, struct clb_case *c, const double *t, int n,
                      const struct rows *baselines);

/* lockstep.c: every call is a no-op (returns rc) for one process. */
/* The job's outcome of a step: the worst rc of any rank; when it is not
 * CLB_OK, the message names the first rank that failed and why. */
int clb_agree(struct session *s, int rc);
/* One timed run of every rank: the slowest time, the worst rc, the most
 * spent; all ranks get the same figures. */
int clb_agree_rep(struct session *s, int rc, double *t, double *spent);
/* The aggregate row of a case from this rank's row and the slowest times. */
int clb_aggregate_row(struct session *s, const struct clb_row *mine, struct clb_env *env,
                      struct clb_group *g, struct clb_case *c, const struct timed *tm,
                      struct clb_row *agg);
/* Rank 0's plan of groups, for every rank (the configurations must match). */
int clb_share_plan(struct run *run, char **plan_text);
/* "rank i: host, device" lines on rank 0. */
int clb_print_ranks(struct session *s);
/* The job's exit status: the worst of every rank's. */
int clb_agree_status(int status);
/* The worse of two exit statuses (lockstep.c's order). */
int clb_worse_status(int a, int b);

#endif
