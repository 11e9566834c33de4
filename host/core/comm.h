/* The core's side of the job (host/core/comm.c): start-up, gathering rows,
 * agreeing on outcomes. What workloads may use is declared in
 * clb_workload.h (clb_comm, clb_comm_allreduce, point-to-point). */
#ifndef CLB_COMM_H
#define CLB_COMM_H

#include "clb_workload.h"

/* MPI_Init when started by a launcher (mpirun, srun); else nothing. */
int clb_comm_init(int *argc, char ***argv);
void clb_comm_finalize(void);
void clb_comm_abort(int status);
/* Is this process one rank of several? */
int clb_comm_active(void);
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
 * has ended (success or failure) drains the rounds the others still hold
 * (clb_job_probe_drain, before each agreement): the rounds never block on a
 * rank that left a step early. Without MPI: nothing. */
int clb_job_probe_time(double *t);
int clb_job_probe_decide(double *v);
int clb_job_probe_drain(void);

#endif
