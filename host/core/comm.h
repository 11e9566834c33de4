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

#endif
