/* The job a run belongs to: MPI (Open MPI) when the program was started by
 * an MPI launcher (mpirun, srun), else one process. Built without MPI, every
 * function is the one-process case. See docs/SCALING.md. */
#define _GNU_SOURCE
#include "comm.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#ifdef CLB_HAVE_MPI
#include <mpi.h>
#endif

static struct clb_comm_info info = {0, 1, 0, 1};
static int active;

const struct clb_comm_info *clb_comm(void) { return &info; }
int clb_comm_active(void) { return active; }

/* Started by a launcher? Open MPI, PMIx, PMI (MPICH, Slurm) set these. */
static int launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE",
                                       "PMI_RANK", "MPI_LOCALNRANKS", NULL};
    for (int i = 0; vars[i]; i++)
        if (getenv(vars[i]))
            return 1;
    return 0;
}

#ifdef CLB_HAVE_MPI

static MPI_Comm world, node;

/* "MPI_Allreduce: MPI_ERR_TRUNCATE: message truncated" */
static int mpi_fail(const char *what, int err)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(err, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "error %d", err);
    clb_seterr("%s: %s", what, text);
    return CLB_ESYS;
}
#define MPI_CHECK(call, what)                                                   \
    do {                                                                        \
        int e_ = (call);                                                        \
        if (e_ != MPI_SUCCESS)                                                  \
            return mpi_fail((what), e_);                                        \
    } while (0)

int clb_comm_init(int *argc, char ***argv)
{
    if (!launched())
        return CLB_OK;
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        clb_seterr("MPI_Init_thread failed");
        return CLB_ESYS;
    }
    active = 1;
    MPI_Comm_dup(MPI_COMM_WORLD, &world);
    /* errors come back as codes: every caller names them and the job agrees
     * on what to do, rather than one rank aborting the others mid-call */
    MPI_Comm_set_errhandler(world, MPI_ERRORS_RETURN);
    MPI_Comm_rank(world, &info.rank);
    MPI_Comm_size(world, &info.size);
    MPI_CHECK(MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, info.rank, MPI_INFO_NULL, &node),
              "MPI_Comm_split_type");
    MPI_Comm_rank(node, &info.local_rank);
    MPI_Comm_size(node, &info.local_size);
    return CLB_OK;
}

void clb_comm_finalize(void)
{
    if (!active)
        return;
    MPI_Comm_free(&node);
    MPI_Comm_free(&world);
    MPI_Finalize();
    active = 0;
}

void clb_comm_abort(int status)
{
    if (active)
        MPI_Abort(world, status);
}

int clb_comm_barrier(void)
{
    if (active)
        MPI_CHECK(MPI_Barrier(world), "MPI_Barrier");
    return CLB_OK;
}

int clb_comm_allreduce(double *v, int n, enum clb_comm_op op)
{
    if (!active)
        return CLB_OK;
    MPI_Op o = op == CLB_SUM ? MPI_SUM : op == CLB_MAX ? MPI_MAX : MPI_MIN;
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, o, world), "MPI_Allreduce");
    return CLB_OK;
}

int clb_comm_bcast(void *buf, size_t n, int root)
{
    if (!active)
        return CLB_OK;
    if (n > INT_MAX) {
        clb_seterr("MPI_Bcast: %zu bytes is more than one message holds", n);
        return CLB_ESYS;
    }
    MPI_CHECK(MPI_Bcast(buf, (int)n, MPI_BYTE, root, world), "MPI_Bcast");
    return CLB_OK;
}

int clb_comm_bcast_text(char **text, int root)
{
    if (!active)
        return CLB_OK;
    double len = info.rank == root ? (double)strlen(*text) + 1 : 0;
    int rc = clb_comm_bcast(&len, sizeof len, root);
    if (rc)
        return rc;
    if (info.rank != root) {
        free(*text);
        if (!(*text = clb_xmalloc((size_t)len)))
            return CLB_ESYS;
    }
    return clb_comm_bcast(*text, (size_t)len, root);
}

char **clb_comm_gather_text(const char *mine)
{
    size_t n = strlen(mine) + 1;
    if (!active) {
        char **all = clb_xcalloc(1, sizeof *all);
        if (all && !(all[0] = clb_strdup(mine))) {
            free(all);
            return NULL;
        }
        return all;
    }
    if (n > INT_MAX / 4) {
        clb_seterr("MPI_Gatherv: a text of %zu bytes is too long", n);
        return NULL;
    }
    int len = (int)n, *lens = NULL, *displs = NULL;
    char *buf = NULL, **all = NULL;
    if (info.rank == 0) {
        lens = clb_xcalloc((size_t)info.size, sizeof *lens);
        displs = clb_xcalloc((size_t)info.size, sizeof *displs);
    }
    int err = MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, world);
    long total = 0;
    if (info.rank == 0 && lens && displs) {
        for (int i = 0; i < info.size; i++) {
            displs[i] = (int)total;
            total += lens[i];
        }
        if (total > INT_MAX)
            total = -1;
        buf = total > 0 ? clb_xmalloc((size_t)total) : NULL;
    }
    if (err == MPI_SUCCESS)
        err = MPI_Gatherv(mine, len, MPI_CHAR, buf, lens, displs, MPI_CHAR, 0, world);
    if (err == MPI_SUCCESS && info.rank == 0 && buf) {
        all = clb_xcalloc((size_t)info.size, sizeof *all);
        for (int i = 0; all && i < info.size; i++)
            all[i] = clb_strdup(buf + displs[i]);
    }
    if (err != MPI_SUCCESS)
        mpi_fail("MPI_Gatherv", err);
    free(buf);
    free(lens);
    free(displs);
    if (info.rank != 0) {
        /* others get an empty list: only rank 0 writes */
        return err == MPI_SUCCESS ? clb_xcalloc(1, sizeof(char *)) : NULL;
    }
    return all;
}

struct clb_comm_req {
    MPI_Request r;
};

/* The request a send or a receive of n bytes fills in; MPI counts a
 * message's bytes in an int. */
static int req_new(size_t n, const char *call, struct clb_comm_req **req)
{
    *req = clb_xcalloc(1, sizeof **req);
    if (!*req)
        return CLB_ESYS;
    if (n > INT_MAX) {
        clb_seterr("%s: %zu bytes is more than one message holds", call, n);
        return CLB_ESYS;
    }
    return CLB_OK;
}

int clb_comm_isend(const void *buf, size_t n, int peer, int tag, struct clb_comm_req **req)
{
    if (req_new(n, "MPI_Isend", req))
        return CLB_ESYS;
    MPI_CHECK(MPI_Isend(buf, (int)n, MPI_BYTE, peer, tag, world, &(*req)->r), "MPI_Isend");
    return CLB_OK;
}

int clb_comm_irecv(void *buf, size_t n, int peer, int tag, struct clb_comm_req **req)
{
    if (req_new(n, "MPI_Irecv", req))
        return CLB_ESYS;
    MPI_CHECK(MPI_Irecv(buf, (int)n, MPI_BYTE, peer, tag, world, &(*req)->r), "MPI_Irecv");
    return CLB_OK;
}

int clb_comm_waitall(struct clb_comm_req **reqs, int n)
{
    int rc = CLB_OK;
    for (int i = 0; i < n; i++) {
        if (!reqs[i])
            continue;
        int e = MPI_Wait(&reqs[i]->r, MPI_STATUS_IGNORE);
        if (e != MPI_SUCCESS && rc == CLB_OK)
            rc = mpi_fail("MPI_Wait", e);
        free(reqs[i]);
        reqs[i] = NULL;
    }
    return rc;
}

#else /* one process */

int clb_comm_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (launched() && getenv("OMPI_COMM_WORLD_SIZE") && atoi(getenv("OMPI_COMM_WORLD_SIZE")) > 1) {
        clb_seterr("started by an MPI launcher, but this clbench was built without MPI "
                   "(install libopenmpi-dev and rebuild)");
        return CLB_EUSAGE;
    }
    return CLB_OK;
}
void clb_comm_finalize(void) {}
void clb_comm_abort(int status) { (void)status; }
int clb_comm_barrier(void) { return CLB_OK; }
int clb_comm_allreduce(double *v, int n, enum clb_comm_op op)
{
    (void)v;
    (void)n;
    (void)op;
    return CLB_OK;
}
int clb_comm_bcast(void *buf, size_t n, int root)
{
    (void)buf;
    (void)n;
    (void)root;
    return CLB_OK;
}
int clb_comm_bcast_text(char **text, int root)
{
    (void)text;
    (void)root;
    return CLB_OK;
}
char **clb_comm_gather_text(const char *mine)
{
    char **all = clb_xcalloc(1, sizeof *all);
    if (all && !(all[0] = clb_strdup(mine))) {
        free(all);
        return NULL;
    }
    return all;
}
struct clb_comm_req {
    int unused;
};
int clb_comm_isend(const void *buf, size_t n, int peer, int tag, struct clb_comm_req **req)
{
    (void)buf;
    (void)n;
    (void)tag;
    *req = NULL;
    clb_seterr("no MPI in this build: cannot send to rank %d", peer);
    return CLB_ESYS;
}
int clb_comm_irecv(void *buf, size_t n, int peer, int tag, struct clb_comm_req **req)
{
    return clb_comm_isend(buf, n, peer, tag, req);
}
int clb_comm_waitall(struct clb_comm_req **reqs, int n)
{
    (void)reqs;
    (void)n;
    return CLB_OK;
}

#endif

void clb_comm_free_texts(char **t)
{
    if (!t)
        return;
    for (int i = 0; i < info.size && (info.rank == 0 || i == 0); i++)
        free(t[i]);
    free(t);
}
