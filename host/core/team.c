/* The ranks of the job (clb_comm_*, clb_workload.h): one per process, or one
 * per device where a process drives several (--devices-per-rank;
 * docs/SCALING.md "One process, several devices"). Then each device runs on
 * a thread of its own, the team, and is a rank like any other: its rank is
 * process x devices + device. Between the ranks of one process a collective
 * meets at a barrier and the first device's thread (the leader) does the
 * process's part of it over MPI (comm.c); a message is handed over in memory
 * (a mailbox), one to a rank of another process goes through MPI with a tag
 * that names both devices. MPI is called one thread at a time (the team's
 * lock; MPI_THREAD_SERIALIZED), never blocking while holding the lock but
 * in the leader's collectives, which no other thread of the team can be in.
 * Without a team every call is comm.c's, as before. */
#define _GNU_SOURCE
#include "comm.h"
#include "core.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TEAM_MAX 64
/* A barrier spins (yielding) this long before it sleeps: the collectives of a
 * solve come every few hundred microseconds on a GPU. */
#define SPIN_S 200e-6

struct msg {
    int send, src, dst, tag;  /* ranks of the job */
    void *buf;
    size_t n;
    int err;
    atomic_int done;          /* matched: set last, after which the matcher touches it no
                               * more, so its owner tests it without the lock */
    struct msg *next;
};

/* A channel of collectives: the job's, and the tuning probes' rounds, which
 * (as on their MPI communicator of their own) never mix with the job's. */
struct chan {
    atomic_uint arrived, gen;
    /* what a collective's members hand the leader */
    void *ptr[TEAM_MAX];
    size_t len[TEAM_MAX];
    void *src;
    int rc;
};

struct team {
    int n;
    pthread_mutex_t mu;        /* the mailbox and every MPI call of the members */
    pthread_cond_t cv;
    struct chan job, probe;
    struct msg *mail;          /* posted, not yet matched: sends and receives */
    /* what each thread runs */
    int (*fn)(void *arg, int d);
    void *arg;
    int *status;
    int verbosity;
};

struct member {
    struct team *t;
    int d;
    struct clb_comm_info info;
};

static _Thread_local struct member *me;

struct clb_comm_req {
    struct clb_proc_req *proc;   /* a message to or from another process */
    struct msg *m;               /* one between ranks of this process */
};

const struct clb_comm_info *clb_comm(void) { return me ? &me->info : clb_proc_info(); }
int clb_comm_active(void) { return me != NULL || clb_proc_active(); }

/* ---- the team's barrier --------------------------------------------------------- */

static void barrier(struct team *t, struct chan *c)
{
    unsigned gen = atomic_load(&c->gen);
    if (atomic_fetch_add(&c->arrived, 1) + 1 == (unsigned)t->n) {
        atomic_store(&c->arrived, 0);
        pthread_mutex_lock(&t->mu);
        atomic_fetch_add(&c->gen, 1);
        pthread_cond_broadcast(&t->cv);
        pthread_mutex_unlock(&t->mu);
        return;
    }
    double t0 = clb_now();
    while (atomic_load(&c->gen) == gen && clb_now() - t0 < SPIN_S)
        sched_yield();
    pthread_mutex_lock(&t->mu);
    while (atomic_load(&c->gen) == gen)
        pthread_cond_wait(&t->cv, &t->mu);
    pthread_mutex_unlock(&t->mu);
}

/* The process's part of a collective, on the leader, under the lock. */
#define LEADER_MPI(t, c, call)                                                 \
    do {                                                                       \
        pthread_mutex_lock(&(t)->mu);                                          \
        (c)->rc = (call);                                                      \
        pthread_mutex_unlock(&(t)->mu);                                        \
    } while (0)

/* ---- collectives ------------------------------------------------------------------ */

static double combine(double a, double b, enum clb_comm_op op)
{
    if (op == CLB_SUM)
        return a + b;
    if (op == CLB_MAX)
        return b > a ? b : a;
    return b < a ? b : a;
}

/* An allreduce on channel c: combined in device order (every rank gets the
 * same bits), then the process's part (proc) on the leader. */
static int team_allreduce(struct chan *c, double *v, int n, enum clb_comm_op op,
                          int (*proc)(double *v, int n, enum clb_comm_op op))
{
    struct team *t = me->t;
    c->ptr[me->d] = v;
    c->len[me->d] = (size_t)n;
    barrier(t, c);
    if (me->d == 0) {
        int same = 1;
        for (int k = 1; k < t->n; k++) {
            same &= c->len[k] == (size_t)n;
            const double *o = c->ptr[k];
            for (int i = 0; i < n && same; i++)
                v[i] = combine(v[i], o[i], op);
        }
        c->rc = CLB_OK;
        if (!same) {
            clb_seterr("allreduce: the devices of a process passed different counts");
            c->rc = CLB_ESYS;
        } else if (clb_proc_active()) {
            LEADER_MPI(t, c, proc(v, n, op));
        }
    }
    barrier(t, c);
    if (me->d != 0)
        memcpy(v, c->ptr[0], (size_t)n * sizeof *v);
    int rc = c->rc;
    barrier(t, c); /* the leader's values stay until every member has them */
    return rc;
}

int clb_comm_allreduce(double *v, int n, enum clb_comm_op op)
{
    if (!me)
        return clb_proc_allreduce(v, n, op);
    return team_allreduce(&me->t->job, v, n, op, clb_proc_allreduce);
}

int clb_comm_probe_round(double *v, int n)
{
    if (!me)
        return clb_proc_probe_round(v, n, CLB_MAX);
    return team_allreduce(&me->t->probe, v, n, CLB_MAX, clb_proc_probe_round);
}

int clb_comm_bcast(void *buf, size_t n, int root)
{
    if (!me)
        return clb_proc_bcast(buf, n, root);
    struct team *t = me->t;
    struct chan *c = &t->job;
    c->ptr[me->d] = buf;
    barrier(t, c);
    if (me->d == 0) {
        int here = root / t->n == clb_proc_info()->rank;
        c->src = here ? c->ptr[root % t->n] : buf;
        c->rc = CLB_OK;
        if (clb_proc_active())
            LEADER_MPI(t, c, clb_proc_bcast(c->src, n, root / t->n));
    }
    barrier(t, c);
    if (buf != c->src && n)
        memcpy(buf, c->src, n);
    int rc = c->rc;
    barrier(t, c);
    return rc;
}

int clb_comm_bcast_text(char **text, int root)
{
    if (!clb_comm_active())
        return CLB_OK;
    int mine = clb_comm()->rank == root;
    double len = mine ? (double)strlen(*text) + 1 : 0;
    int rc = clb_comm_bcast(&len, sizeof len, root);
    if (rc)
        return rc;
    if (!mine) {
        free(*text);
        if (!(*text = clb_xmalloc((size_t)len)))
            return CLB_ESYS; /* the job's next agreement fails on this rank */
    }
    return clb_comm_bcast(*text, (size_t)len, root);
}

/* The leader: every member's text at rank 0 of the job, device by device. */
static char **gather_team(struct team *t)
{
    const struct clb_comm_info *p = clb_proc_info();
    int top = p->rank == 0;
    char **all = top ? clb_xcalloc((size_t)p->size * (size_t)t->n, sizeof *all) : NULL;
    int ok = !top || all;
    for (int k = 0; k < t->n; k++) {
        char **got;
        pthread_mutex_lock(&t->mu);
        got = clb_proc_gather_text(t->job.ptr[k]);
        pthread_mutex_unlock(&t->mu);
        ok &= got != NULL;
        for (int q = 0; got && top && all && q < p->size; q++) {
            all[(size_t)q * (size_t)t->n + (size_t)k] = got[q];
            got[q] = NULL;
            ok &= all[(size_t)q * (size_t)t->n + (size_t)k] != NULL;
        }
        clb_free_texts(got, p);
    }
    if (!ok && all) {
        for (int i = 0; i < p->size * t->n; i++)
            free(all[i]);
        free(all);
        return NULL;
    }
    return top ? all : clb_xcalloc(1, sizeof(char *));
}

char **clb_comm_gather_text(const char *mine)
{
    if (!me)
        return clb_proc_gather_text(mine);
    struct team *t = me->t;
    t->job.ptr[me->d] = (void *)mine;
    barrier(t, &t->job);
    char **all = me->d == 0 ? gather_team(t) : NULL;
    barrier(t, &t->job); /* every member's text was read */
    if (me->d != 0) /* others get an empty list: only rank 0 writes */
        all = clb_xcalloc(1, sizeof *all);
    return all;
}

void clb_comm_free_texts(char **t) { clb_free_texts(t, clb_comm()); }

/* ---- messages ----------------------------------------------------------------------- */

/* A peer rank of this process? Its device then. */
static int local_peer(int peer)
{
    return peer / me->t->n == clb_proc_info()->rank ? peer % me->t->n : -1;
}

/* The MPI tag of a message between ranks of two processes: the tag and both
 * devices, within MPI's bound. */
static int proc_tag(int tag, int src_d, int dst_d, int *out)
{
    long n = me->t->n, v = ((long)tag * n + src_d) * n + dst_d;
    if (tag < 0 || v > clb_proc_tag_ub())
        return clb_err(CLB_ESYS, "message tag %d with %ld devices a process is beyond MPI's bound "
                                 "%ld", tag, n, clb_proc_tag_ub());
    *out = (int)v;
    return CLB_OK;
}

/* Post m in the mailbox, or match it with the first posted message of the
 * other kind between the same ranks with the same tag (message order is
 * kept, as MPI's), copying the data. Under the lock. */
static void post(struct team *t, struct msg *m)
{
    struct msg **at = &t->mail;
    for (; *at; at = &(*at)->next) {
        struct msg *o = *at;
        if (o->send == m->send || o->src != m->src || o->dst != m->dst || o->tag != m->tag)
            continue;
        struct msg *s = m->send ? m : o, *r = m->send ? o : m;
        if (s->n > r->n) {
            r->err = s->err = 1;
        } else if (s->n) {
            memcpy(r->buf, s->buf, s->n);
        }
        *at = o->next;
        atomic_store(&s->done, 1);
        atomic_store(&r->done, 1);
        return;
    }
    m->next = NULL;
    *at = m;
}

static int message(void *buf, size_t n, int peer, int tag, int send, struct clb_comm_req **req)
{
    if (!(*req = clb_xcalloc(1, sizeof **req)))
        return CLB_ESYS;
    if (!me)
        return send ? clb_proc_isend(buf, n, peer, tag, &(*req)->proc)
                    : clb_proc_irecv(buf, n, peer, tag, &(*req)->proc);
    struct team *t = me->t;
    int d = local_peer(peer);
    if (d < 0) {
        int ptag, rc;
        if ((rc = proc_tag(tag, send ? me->d : peer % t->n, send ? peer % t->n : me->d, &ptag)))
            return rc;
        pthread_mutex_lock(&t->mu);
        rc = send ? clb_proc_isend(buf, n, peer / t->n, ptag, &(*req)->proc)
                  : clb_proc_irecv(buf, n, peer / t->n, ptag, &(*req)->proc);
        pthread_mutex_unlock(&t->mu);
        return rc;
    }
    struct msg *m = clb_xcalloc(1, sizeof *m);
    if (!m)
        return CLB_ESYS;
    *m = (struct msg){.send = send, .src = send ? me->info.rank : peer,
                      .dst = send ? peer : me->info.rank, .tag = tag, .buf = buf, .n = n};
    atomic_init(&m->done, 0);
    (*req)->m = m;
    pthread_mutex_lock(&t->mu);
    post(t, m);
    pthread_mutex_unlock(&t->mu);
    return CLB_OK;
}

int clb_comm_isend(const void *buf, size_t n, int peer, int tag, struct clb_comm_req **req)
{
    return message((void *)buf, n, peer, tag, 1, req);
}

int clb_comm_irecv(void *buf, size_t n, int peer, int tag, struct clb_comm_req **req)
{
    return message(buf, n, peer, tag, 0, req);
}

int clb_comm_test(struct clb_comm_req **req, int *done)
{
    *done = 1;
    if (!*req)
        return CLB_OK;
    struct clb_comm_req *q = *req;
    int rc = CLB_OK, err = 0;
    if (q->proc) {
        if (me)
            pthread_mutex_lock(&me->t->mu);
        rc = clb_proc_test(&q->proc, done);
        if (me)
            pthread_mutex_unlock(&me->t->mu);
    } else if (q->m) {
        /* no lock: the halo exchange tests every chunk's note in a loop, and
         * the devices' threads would take turns at it */
        *done = atomic_load(&q->m->done);
        err = *done && q->m->err;
    }
    if (*done || rc) {
        free(q->m);
        free(q);
        *req = NULL;
        *done = 1;
    }
    if (rc == CLB_OK && err)
        rc = clb_err(CLB_ESYS, "a message between two devices of one process was longer than its "
                               "receive");
    return rc;
}

int clb_comm_waitall(struct clb_comm_req **reqs, int n)
{
    int rc = CLB_OK;
    if (!me) { /* blocking MPI waits, as before */
        for (int i = 0; i < n; i++) {
            if (!reqs[i])
                continue;
            int e = clb_proc_waitall(&reqs[i]->proc, 1);
            rc = rc ? rc : e;
            free(reqs[i]);
            reqs[i] = NULL;
        }
        return rc;
    }
    /* a team never blocks in MPI holding the lock: it tests, and yields */
    for (;;) {
        int left = 0;
        for (int i = 0; i < n; i++) {
            int done, e = clb_comm_test(&reqs[i], &done);
            rc = rc ? rc : e;
            left += !done;
        }
        if (!left)
            return rc;
        sched_yield();
    }
}

/* ---- shared memory -------------------------------------------------------------------- */

int clb_comm_shm_open(size_t bytes, struct clb_comm_shm **w, void **mine)
{
    if (me && me->t->n > 1) {
        *w = NULL;
        *mine = NULL;
        return clb_eusage("exchange=shm: the MPI-3 window is between processes; the devices of one "
                          "process exchange their halos through the node path (exchange=pipe)");
    }
    return clb_proc_shm_open(bytes, w, mine);
}

void clb_comm_transport(char *btl, size_t nb, char *copy, size_t nc)
{
    if (me)
        pthread_mutex_lock(&me->t->mu);
    clb_proc_transport(btl, nb, copy, nc);
    if (me)
        pthread_mutex_unlock(&me->t->mu);
}

struct clb_comm_local {
    int first, n;          /* the ranks of this process */
    void **peer;
};

int clb_comm_local_open(void *mine, struct clb_comm_local **l)
{
    int n = me ? me->t->n : 1;
    *l = clb_xcalloc(1, sizeof **l);
    void **peer = *l ? clb_xcalloc((size_t)n, sizeof *peer) : NULL;
    if (me) {
        struct team *t = me->t;
        t->job.ptr[me->d] = mine;
        barrier(t, &t->job);
        for (int k = 0; peer && k < n; k++)
            peer[k] = t->job.ptr[k];
        barrier(t, &t->job);
    } else if (peer) {
        peer[0] = mine;
    }
    if (!peer) {
        free(*l);
        *l = NULL;
        return CLB_ESYS;
    }
    **l = (struct clb_comm_local){clb_comm()->rank - (me ? me->d : 0), n, peer};
    return CLB_OK;
}

void *clb_comm_local_peer(const struct clb_comm_local *l, int rank)
{
    if (!l || rank < l->first || rank >= l->first + l->n)
        return NULL;
    return l->peer[rank - l->first];
}

void clb_comm_local_close(struct clb_comm_local *l)
{
    if (!l)
        return;
    free(l->peer);
    free(l);
}

/* ---- the team's threads ------------------------------------------------------------- */

static void *member_main(void *arg)
{
    struct member *m = arg;
    struct team *t = m->t;
    me = m;
    /* rank 0 of the job speaks for it, as under MPI */
    clb_thread_quiet(m->info.rank != 0 || t->verbosity < 0);
    t->status[m->d] = t->fn(t->arg, m->d);
    me = NULL;
    clb_lasterr_release(); /* this thread's last message, thread-local */
    return NULL;
}

int clb_team_run(int n, int (*fn)(void *arg, int d), void *arg, int *status)
{
    const struct clb_comm_info *p = clb_proc_info();
    double same[2] = {n, -n};   /* every process, a team of one too */
    int rc = clb_proc_allreduce(same, 2, CLB_MAX);
    if (rc)
        return rc;
    if (same[0] != -same[1])
        return clb_eusage("--devices-per-rank: the processes drive %g to %g devices each; every "
                          "one must drive as many", -same[1], same[0]);
    if (n == 1) {
        status[0] = fn(arg, 0);
        return CLB_OK;
    }
    if (n < 1 || n > TEAM_MAX)
        return clb_eusage("--devices-per-rank: at most %d devices a process", TEAM_MAX);
    if (!clb_proc_threads_ok())
        return clb_eusage("--devices-per-rank: this MPI library does not let several threads call "
                          "it (MPI_THREAD_SERIALIZED)");
    struct team t = {.n = n, .fn = fn, .arg = arg, .status = status, .verbosity = clb_verbosity};
    pthread_mutex_init(&t.mu, NULL);
    pthread_cond_init(&t.cv, NULL);
    struct chan *cs[2] = {&t.job, &t.probe};
    for (int k = 0; k < 2; k++) {
        atomic_init(&cs[k]->arrived, 0);
        atomic_init(&cs[k]->gen, 0);
    }
    struct member *m = clb_xcalloc((size_t)n, sizeof *m);
    pthread_t *th = clb_xcalloc((size_t)n, sizeof *th);
    int started = 0;
    rc = m && th ? CLB_OK : CLB_ESYS;
    for (int d = 0; d < n && rc == CLB_OK; d++, started++) {
        m[d].t = &t;
        m[d].d = d;
        m[d].info = (struct clb_comm_info){p->rank * n + d, p->size * n, p->local_rank * n + d,
                                           p->local_size * n, p->size, n};
        int e = pthread_create(&th[d], NULL, member_main, &m[d]);
        if (e) {
            rc = clb_err(CLB_ESYS, "cannot start the thread of device %d: %s", d, strerror(e));
            started--;
        }
    }
    /* a team that could not start whole cannot meet at its barriers: the
     * threads that did start are already waiting there, so the process ends */
    if (rc && started) {
        clb_print_error("%s", clb_lasterr());
        _exit(CLB_EXIT_ERROR);
    }
    for (int d = 0; d < started; d++)
        pthread_join(th[d], NULL);
    free(m);
    free(th);
    pthread_mutex_destroy(&t.mu);
    pthread_cond_destroy(&t.cv);
    return rc;
}
