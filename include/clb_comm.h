/* The job (host/core/comm.c, team.c): one process, or one rank of an MPI
 * job or of a process that drives several devices, every rank running the
 * same configurations in lockstep (docs/SCALING.md). Beside
 * include/clb_workload.h, for the workloads that split their problem over
 * the ranks (dslash and cg, through host/workloads/lattice). */
#ifndef CLB_COMM_API_H
#define CLB_COMM_API_H

#include <stddef.h>

/* A rank is one device: an MPI process drives `devices` of them
 * (--devices-per-rank), each on a thread of its own, so rank r is device
 * r % devices of process r / devices; between the ranks of one process the
 * messages below are handed over in memory. */
struct clb_comm_info {
    int rank, size;             /* in the job: 0..size-1 (0 of 1 alone) */
    int local_rank, local_size; /* on this node */
    int procs, devices;         /* the job's processes (MPI ranks), devices of each */
};
const struct clb_comm_info *clb_comm(void);
enum clb_comm_op { CLB_SUM, CLB_MAX, CLB_MIN };
int clb_comm_allreduce(double *v, int n, enum clb_comm_op op);
/* Non-blocking messages of n bytes (halo exchange); wait for all with
 * clb_comm_waitall, which frees the requests. */
struct clb_comm_req;
int clb_comm_isend(const void *buf, size_t n, int peer, int tag, struct clb_comm_req **req);
int clb_comm_irecv(void *buf, size_t n, int peer, int tag, struct clb_comm_req **req);
int clb_comm_waitall(struct clb_comm_req **reqs, int n);
/* Has *req completed? *done 1 (and *req freed, set NULL) or 0; a NULL *req
 * is done. It also lets MPI progress the job's other messages. */
int clb_comm_test(struct clb_comm_req **req, int *done);
/* MPI-3 shared memory between the ranks of one node (MPI_Win_allocate_shared
 * over the node's ranks): every rank of the job calls open with the bytes of
 * its own segment (*mine); peer gives the segment of a job rank on this node
 * (NULL for a rank elsewhere); sync orders this rank's stores before a
 * message that tells a peer to read them (MPI_Win_sync; the message itself
 * carries the synchronisation). Without MPI: one segment, rank 0's. close is
 * collective. */
struct clb_comm_shm;
int clb_comm_shm_open(size_t bytes, struct clb_comm_shm **w, void **mine);
void *clb_comm_shm_peer(struct clb_comm_shm *w, int rank);
int clb_comm_shm_sync(struct clb_comm_shm *w);
void clb_comm_shm_close(struct clb_comm_shm *w);
/* Pointers of the ranks of this process (its devices), shared: every rank of
 * the job calls open together with its own (mine); peer gives that of a
 * rank of this process, NULL for one elsewhere (and for a bad rank). The
 * node path of a halo exchange: a device writes its neighbour's halos
 * straight from the pinned buffer the neighbour read them into. close is
 * collective. CLB_ESYS when out of memory. */
struct clb_comm_local;
int clb_comm_local_open(void *mine, struct clb_comm_local **l);
void *clb_comm_local_peer(const struct clb_comm_local *l, int rank);
void clb_comm_local_close(struct clb_comm_local *l);
/* What carries messages between ranks of one node, as the MPI library says
 * (its MPI_T control variables): Open MPI's shared-memory BTL ("vader" in
 * 4.x, "sm" in 5.x) and its single-copy mechanism ("cma", "xpmem", "knem",
 * "none"...); "" when it cannot tell or without MPI. */
void clb_comm_transport(char *btl, size_t nb, char *copy, size_t nc);

#endif
