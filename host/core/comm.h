/* The core's side of the job: start-up, gathering rows, agreeing on
 * outcomes (what workloads may use: clb_comm.h). The ranks are team.c's;
 * comm.c is the processes (MPI). */
#ifndef CLB_COMM_H
#define CLB_COMM_H

#include "clb_comm.h"
#include "clb_workload.h"

/* MPI_Init when started by a launcher (mpirun, srun); else nothing. */
int clb_comm_init(int *argc, char ***argv);
void clb_comm_finalize(void);
void clb_comm_abort(int status);
int clb_comm_active(void);  /* one rank of several (MPI, or a device of a team)? */
int clb_comm_bcast(void *buf, size_t n, int root);
/* Broadcast a malloc'd string from root (others' *text replaced). */
int clb_comm_bcast_text(char **text, int root);
/* Every rank's text at rank 0 (an array of size entries, each malloc'd);
 * other ranks get an empty array. NULL on failure. Free with
 * clb_comm_free_texts. */
char **clb_comm_gather_text(const char *mine);
void clb_comm_free_texts(char **t);
/* An allreduce (MAX) of n doubles on a communicator of its own: the rounds
 * in which the ranks agree on what a tuning probe measured (lockstep.c),
 * never mixed up with the job's other collectives. */
int clb_comm_probe_round(double *v, int n);

/* The probe rounds (lockstep.c). A rank in a probe takes the slowest rank's
 * time of the candidate (clb_job_probe_time) or rank 0's choice
 * (clb_job_probe_decide), so that every rank tunes alike; a rank whose step
 * has ended drains the rounds the others still hold (before each
 * agreement), so the rounds never block on a rank that left a step early.
 * Without MPI: nothing. */
int clb_job_probe_time(double *t);
int clb_job_probe_decide(double *v);

/* ---- the devices of one process as ranks (team.c) ---------------------------- */

/* Run fn(arg, d) for d = 0..n-1, each on a thread of its own that is rank
 * procs_rank x n + d of the job (clb_comm()); returns when every one has,
 * status[d] what each returned. n = 1: fn on this thread, as before. Under
 * MPI every process runs the same n (CLB_EUSAGE with a message otherwise). */
int clb_team_run(int n, int (*fn)(void *arg, int d), void *arg, int *status);

/* ---- the processes (comm.c): team.c's layer under the ranks ------------------ */

struct clb_proc_req;
const struct clb_comm_info *clb_proc_info(void);
int clb_proc_active(void);
/* MPI lets several threads call it, one at a time (MPI_THREAD_SERIALIZED). */
int clb_proc_threads_ok(void);
long clb_proc_tag_ub(void);
int clb_proc_allreduce(double *v, int n, enum clb_comm_op op);
int clb_proc_probe_round(double *v, int n, enum clb_comm_op op); /* op: CLB_MAX */
int clb_proc_bcast(void *buf, size_t n, int root);
char **clb_proc_gather_text(const char *mine);
/* Free the texts a gather of the ranks c gave (clb_comm_free_texts: clb_comm()'s). */
void clb_free_texts(char **t, const struct clb_comm_info *c);
int clb_proc_isend(const void *buf, size_t n, int peer, int tag, struct clb_proc_req **req);
int clb_proc_irecv(void *buf, size_t n, int peer, int tag, struct clb_proc_req **req);
int clb_proc_waitall(struct clb_proc_req **reqs, int n);
int clb_proc_test(struct clb_proc_req **req, int *done);
int clb_proc_shm_open(size_t bytes, struct clb_comm_shm **w, void **mine);
void clb_proc_transport(char *btl, size_t nb, char *copy, size_t nc);

#endif
