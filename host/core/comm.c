/* The processes of the job: MPI (Open MPI) when the program was started by
 * an MPI launcher (mpirun, srun), else one process. Built without MPI, every
 * function is the one-process case. See docs/SCALING.md. The ranks the
 * workloads see (clb_comm_*) are team.c's: one per process, or one per
 * device where a process drives several (--devices-per-rank); team.c calls
 * these for the messages between processes. */
#define _GNU_SOURCE
#include "comm.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#ifdef CLB_HAVE_MPI
#include <mpi.h>
#endif

static struct clb_comm_info info = {0, 1, 0, 1, 1, 1};
static int active, threads_ok;

struct clb_comm_shm {
#ifdef CLB_HAVE_MPI
    MPI_Win win;
    int have_win, locked;
#endif
    void **peer;     /* by job rank: its segment, NULL off this node */
};

const struct clb_comm_info *clb_proc_info(void) { return &info; }
int clb_proc_active(void) { return active; }
int clb_proc_threads_ok(void) { return !active || threads_ok; }

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

/* The gathered texts of a job of one process: its own. */
static char **texts_alone(const char *mine)
{
    char **all = clb_xcalloc(1, sizeof *all);
    if (all && !(all[0] = clb_strdup(mine))) {
        free(all);
        return NULL;
    }
    return all;
}

#ifdef CLB_HAVE_MPI

static MPI_Comm world, node, probes;

/* "MPI_Allreduce: MPI_ERR_TRUNCATE: message truncated" */
static int mpi_fail(const char *what, int err)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(err, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "error %d", err);
    return clb_err(CLB_ESYS, "%s: %s", what, text);
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
    /* serialized: a process that drives several devices calls MPI from one
     * thread per device, one call at a time (team.c holds a lock) */
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
        return clb_err(CLB_ESYS, "MPI_Init_thread failed");
    active = 1;
    threads_ok = provided >= MPI_THREAD_SERIALIZED;
    MPI_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &world), "MPI_Comm_dup");
    /* errors come back as codes: every caller names them and the job agrees
     * on what to do, rather than one rank aborting the others mid-call */
    MPI_CHECK(MPI_Comm_set_errhandler(world, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    MPI_CHECK(MPI_Comm_rank(world, &info.rank), "MPI_Comm_rank");
    MPI_CHECK(MPI_Comm_size(world, &info.size), "MPI_Comm_size");
    MPI_CHECK(MPI_Comm_dup(world, &probes), "MPI_Comm_dup(probes)");
    MPI_CHECK(MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, info.rank, MPI_INFO_NULL, &node),
              "MPI_Comm_split_type");
    MPI_CHECK(MPI_Comm_rank(node, &info.local_rank), "MPI_Comm_rank(node)");
    MPI_CHECK(MPI_Comm_size(node, &info.local_size), "MPI_Comm_size(node)");
    info.procs = info.size;
    return CLB_OK;
}

void clb_comm_finalize(void)
{
    if (!active)
        return;
    MPI_Comm_free(&node);
    MPI_Comm_free(&probes);
    MPI_Comm_free(&world);
    MPI_Finalize();
    active = 0;
}

void clb_comm_abort(int status)
{
    if (active)
        MPI_Abort(world, status);
}

/* An allreduce on c: the job's communicator, or the probes' (`what` names it). */
static int reduce(MPI_Comm c, const char *what, double *v, int n, enum clb_comm_op op)
{
    if (!active)
        return CLB_OK;
    MPI_Op o = op == CLB_SUM ? MPI_SUM : op == CLB_MAX ? MPI_MAX : MPI_MIN;
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, o, c), what);
    return CLB_OK;
}

int clb_proc_allreduce(double *v, int n, enum clb_comm_op op)
{
    return reduce(world, "MPI_Allreduce", v, n, op);
}

int clb_proc_probe_round(double *v, int n, enum clb_comm_op op)
{
    return reduce(probes, "MPI_Allreduce(probes)", v, n, op);
}

int clb_proc_bcast(void *buf, size_t n, int root)
{
    if (!active)
        return CLB_OK;
    if (n > INT_MAX)
        return clb_err(CLB_ESYS, "MPI_Bcast: %zu bytes is more than one message holds", n);
    MPI_CHECK(MPI_Bcast(buf, (int)n, MPI_BYTE, root, world), "MPI_Bcast");
    return CLB_OK;
}

char **clb_proc_gather_text(const char *mine)
{
    size_t n = strlen(mine) + 1;
    if (!active)
        return texts_alone(mine);
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
        buf = total > 0 && total <= INT_MAX ? clb_xmalloc((size_t)total) : NULL;
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
    if (info.rank != 0) /* others get an empty list: only rank 0 writes */
        return err == MPI_SUCCESS ? clb_xcalloc(1, sizeof(char *)) : NULL;
    return all;
}

struct clb_proc_req {
    MPI_Request r;
};

/* The request a send or a receive of n bytes fills in; MPI counts a
 * message's bytes in an int. */
static int req_new(size_t n, const char *call, struct clb_proc_req **req)
{
    *req = clb_xcalloc(1, sizeof **req);
    if (!*req)
        return CLB_ESYS;
    if (n > INT_MAX)
        return clb_err(CLB_ESYS, "%s: %zu bytes is more than one message holds", call, n);
    return CLB_OK;
}

int clb_proc_isend(const void *buf, size_t n, int peer, int tag, struct clb_proc_req **req)
{
    if (req_new(n, "MPI_Isend", req))
        return CLB_ESYS;
    MPI_CHECK(MPI_Isend(buf, (int)n, MPI_BYTE, peer, tag, world, &(*req)->r), "MPI_Isend");
    return CLB_OK;
}

int clb_proc_irecv(void *buf, size_t n, int peer, int tag, struct clb_proc_req **req)
{
    if (req_new(n, "MPI_Irecv", req))
        return CLB_ESYS;
    MPI_CHECK(MPI_Irecv(buf, (int)n, MPI_BYTE, peer, tag, world, &(*req)->r), "MPI_Irecv");
    return CLB_OK;
}

int clb_proc_waitall(struct clb_proc_req **reqs, int n)
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

int clb_proc_test(struct clb_proc_req **req, int *done)
{
    *done = 1;
    if (!*req)
        return CLB_OK;
    int flag = 0, e = MPI_Test(&(*req)->r, &flag, MPI_STATUS_IGNORE);
    if (e != MPI_SUCCESS) {
        free(*req);
        *req = NULL;
        return mpi_fail("MPI_Test", e);
    }
    *done = flag != 0;
    if (flag) {
        free(*req);
        *req = NULL;
    }
    return CLB_OK;
}

long clb_proc_tag_ub(void)
{
    void *v = NULL;
    int flag = 0;
    if (!active || MPI_Comm_get_attr(world, MPI_TAG_UB, &v, &flag) != MPI_SUCCESS || !flag || !v)
        return 32767; /* the least bound MPI allows */
    return *(int *)v;
}

/* ---- shared memory between the ranks of one node ---------------------------- */

/* The segments of the node's ranks, by job rank. */
static int shm_peers(struct clb_comm_shm *w)
{
    MPI_Group gw, gn;
    int *in = clb_xcalloc((size_t)info.size, sizeof *in);
    int *out = clb_xcalloc((size_t)info.size, sizeof *out);
    w->peer = clb_xcalloc((size_t)info.size, sizeof *w->peer);
    int rc = in && out && w->peer ? CLB_OK : CLB_ESYS, e = MPI_SUCCESS;
    for (int r = 0; r < info.size && in; r++)
        in[r] = r;
    if (rc == CLB_OK && (e = MPI_Comm_group(world, &gw)) == MPI_SUCCESS) {
        if ((e = MPI_Comm_group(node, &gn)) == MPI_SUCCESS) {
            e = MPI_Group_translate_ranks(gw, info.size, in, gn, out);
            MPI_Group_free(&gn);
        }
        MPI_Group_free(&gw);
    }
    if (rc == CLB_OK && e != MPI_SUCCESS)
        rc = mpi_fail("MPI_Group_translate_ranks", e);
    for (int r = 0; r < info.size && rc == CLB_OK; r++) {
        MPI_Aint size;
        int disp;
        if (out[r] == MPI_UNDEFINED)
            continue;
        if ((e = MPI_Win_shared_query(w->win, out[r], &size, &disp, &w->peer[r])) != MPI_SUCCESS)
            rc = mpi_fail("MPI_Win_shared_query", e);
    }
    free(in);
    free(out);
    return rc;
}

/* The window of the node's ranks, each with a segment of `bytes`. */
static int shm_window(size_t bytes, struct clb_comm_shm *w, void **mine)
{
    MPI_Info hint;
    MPI_CHECK(MPI_Info_create(&hint), "MPI_Info_create");
    /* each rank's segment where it is first touched (near its GPU) */
    int e = MPI_Info_set(hint, "alloc_shared_noncontig", "true");
    if (e == MPI_SUCCESS)
        e = MPI_Win_allocate_shared((MPI_Aint)(bytes ? bytes : 1), 1, hint, node, mine, &w->win);
    MPI_Info_free(&hint);
    if (e != MPI_SUCCESS)
        return mpi_fail("MPI_Win_allocate_shared", e);
    w->have_win = 1;
    /* its errors come back as codes, as the job's communicator's do */
    MPI_CHECK(MPI_Win_set_errhandler(w->win, MPI_ERRORS_RETURN), "MPI_Win_set_errhandler");
    /* one passive epoch for the window's life: MPI_Win_sync is valid in it */
    MPI_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, w->win), "MPI_Win_lock_all");
    w->locked = 1;
    return shm_peers(w);
}

/* ---- what MPI uses between the ranks of one node ---------------------------- */

/* The value of control variable i as text (an enum's name, else the number
 * or the string). */
static void cvar_text(int i, MPI_Datatype type, MPI_T_enum en, char *out, size_t n)
{
    MPI_T_cvar_handle h;
    int count = 0, v = 0;
    char buf[256] = "";
    out[0] = 0;
    if (MPI_T_cvar_handle_alloc(i, NULL, &h, &count) != MPI_SUCCESS)
        return;
    if (type == MPI_INT && count == 1 && MPI_T_cvar_read(h, &v) == MPI_SUCCESS) {
        int len = (int)sizeof buf, num = 0;
        if (en != MPI_T_ENUM_NULL && MPI_T_enum_get_info(en, &num, NULL, NULL) == MPI_SUCCESS)
            for (int k = 0; k < num; k++) {
                int val;
                len = (int)sizeof buf;
                if (MPI_T_enum_get_item(en, k, &val, buf, &len) == MPI_SUCCESS && val == v) {
                    snprintf(out, n, "%s", buf);
                    break;
                }
            }
        if (!out[0])
            snprintf(out, n, "%d", v);
    } else if (type == MPI_CHAR && count > 0 && count < (int)sizeof buf &&
               MPI_T_cvar_read(h, buf) == MPI_SUCCESS) {
        snprintf(out, n, "%s", buf);
    }
    MPI_T_cvar_handle_free(&h);
}

/* Find the control variable `name`; its value in out ("" when absent). */
static void cvar_find(const char *name, char *out, size_t n)
{
    int num = 0;
    out[0] = 0;
    if (MPI_T_cvar_get_num(&num) != MPI_SUCCESS)
        return;
    for (int i = 0; i < num; i++) {
        char nm[256];
        int nl = (int)sizeof nm, verb, bind, scope;
        MPI_Datatype type;
        MPI_T_enum en;
        if (MPI_T_cvar_get_info(i, nm, &nl, &verb, &type, &en, NULL, NULL, &bind, &scope) !=
            MPI_SUCCESS)
            continue;
        if (strcmp(nm, name) == 0) {
            cvar_text(i, type, en, out, n);
            return;
        }
    }
}

#else /* one process */

/* Never active: these ignore the arguments only MPI would use. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"

int clb_comm_init(int *argc, char ***argv)
{
    if (launched() && getenv("OMPI_COMM_WORLD_SIZE") && atoi(getenv("OMPI_COMM_WORLD_SIZE")) > 1)
        return clb_eusage("started by an MPI launcher, but this clbench was built without MPI "
                          "(install libopenmpi-dev and rebuild)");
    return CLB_OK;
}
void clb_comm_finalize(void) {}
void clb_comm_abort(int status) {}
int clb_proc_allreduce(double *v, int n, enum clb_comm_op op) { return CLB_OK; }
int clb_proc_probe_round(double *v, int n, enum clb_comm_op op) { return CLB_OK; }
int clb_proc_bcast(void *buf, size_t n, int root) { return CLB_OK; }
char **clb_proc_gather_text(const char *mine) { return texts_alone(mine); }
int clb_proc_isend(const void *buf, size_t n, int peer, int tag, struct clb_proc_req **req)
{
    *req = NULL;
    return clb_err(CLB_ESYS, "no MPI in this build: cannot send to rank %d", peer);
}
int clb_proc_irecv(void *buf, size_t n, int peer, int tag, struct clb_proc_req **req)
{
    return clb_proc_isend(buf, n, peer, tag, req);
}
int clb_proc_waitall(struct clb_proc_req **reqs, int n) { return CLB_OK; }
int clb_proc_test(struct clb_proc_req **req, int *done)
{
    *done = 1;
    *req = NULL;
    return CLB_OK;
}
long clb_proc_tag_ub(void) { return 32767; }
#pragma GCC diagnostic pop
#endif

/* ---- shared memory between the ranks of one node ---------------------------- */

int clb_proc_shm_open(size_t bytes, struct clb_comm_shm **w, void **mine)
{
    *w = clb_xcalloc(1, sizeof **w);
    if (!*w)
        return CLB_ESYS;
#ifdef CLB_HAVE_MPI
    if (active)
        return shm_window(bytes, *w, mine);
#endif
    (*w)->peer = clb_xcalloc(1, sizeof *(*w)->peer);
    *mine = (*w)->peer ? clb_xmalloc(bytes ? bytes : 1) : NULL;
    if ((*w)->peer)
        (*w)->peer[0] = *mine;
    return *mine ? CLB_OK : CLB_ESYS;
}

/* The rest of the window is the processes' alone (team.c opens it). */
void *clb_comm_shm_peer(struct clb_comm_shm *w, int rank)
{
    if (!w || !w->peer || rank < 0 || rank >= (active ? info.size : 1))
        return NULL;
    return w->peer[rank];
}

int clb_comm_shm_sync(struct clb_comm_shm *w)
{
#ifdef CLB_HAVE_MPI
    if (active && w && w->locked)
        MPI_CHECK(MPI_Win_sync(w->win), "MPI_Win_sync");
#else
    (void)w;
#endif
    return CLB_OK;
}

void clb_comm_shm_close(struct clb_comm_shm *w)
{
    if (!w)
        return;
#ifdef CLB_HAVE_MPI
    /* at teardown an error has nobody left to tell: the window goes either way */
    if (w->locked)
        MPI_Win_unlock_all(w->win);
    if (w->have_win)
        MPI_Win_free(&w->win);
#endif
    if (!active && w->peer)
        free(w->peer[0]);
    free(w->peer);
    free(w);
}

void clb_proc_transport(char *btl, size_t nb, char *copy, size_t nc)
{
    if (nb)
        btl[0] = 0;
    if (nc)
        copy[0] = 0;
#ifdef CLB_HAVE_MPI
    if (!active || nb < 2 || nc < 2)
        return;
    int provided;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
        return;
    /* Open MPI 4 names its shared-memory BTL vader, 5 sm */
    static const char *const names[] = {"vader", "sm"};
    for (int k = 0; k < 2 && !btl[0]; k++) {
        char name[64];
        snprintf(name, sizeof name, "btl_%s_single_copy_mechanism", names[k]);
        cvar_find(name, copy, nc);
        if (copy[0])
            snprintf(btl, nb, "%s", names[k]);
    }
    MPI_T_finalize();
#endif
}

void clb_free_texts(char **t, const struct clb_comm_info *c)
{
    if (!t)
        return;
    for (int i = 0; i < c->size && (c->rank == 0 || i == 0); i++)
        free(t[i]);
    free(t);
}
