/* The programs of a device: each (file, options) built once and kept for
 * the life of the device, and built ahead of need (docs/MEASURING.md,
 * "Building ahead"). The plan queues the programs the workloads will ask
 * for (clb_plan_program); builder threads take them in plan order while the
 * run goes on, but never while a case is timed or a probe runs (the core
 * pauses them). A program asked for that is queued is built by the asking
 * thread; one in flight is waited for. A build ahead that fails is built
 * again by the asking thread, which prints its log and error. */
#include "clb_cl.h"
#include "clbench.h"
#include "watchdog.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum state { QUEUED, BUILDING, READY, FAILED };

struct entry {
    struct entry *next;        /* in the order asked or queued */
    char *file, *options;      /* immutable once added */
    unsigned core;             /* CLB_BUILD_CORE: the core's own program (the embedded source) */
    cl_program prog;
    enum state state;
    int planned, asked;        /* queued ahead; asked for by a set-up (-vv says the misses) */
};

/* One lock for every device's table: builders of one device build on the
 * host that another device's timed runs share (a CPU device's own cores,
 * or the host thread that drives a GPU), so a pause stops them all. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int paused;             /* pause depth, for every device */
static int running_all;        /* builds ahead in flight, every device */

struct clb_programs {
    struct entry *head, **tail;
    pthread_t *threads;
    int nthreads;
    int running;               /* this device's builds ahead in flight */
    int stop;
};

/* The device's table, made at the first use (by the device's own thread). */
static struct clb_programs *table(struct clb_device *d)
{
    if (d->progs)
        return d->progs;
    struct clb_programs *t = clb_xcalloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->tail = &t->head;
    return d->progs = t;
}

static struct entry *find(struct clb_programs *t, const char *file, const char *options,
                          unsigned core)
{
    for (struct entry *e = t->head; e; e = e->next)
        if (strcmp(e->file, file) == 0 && strcmp(e->options, options) == 0 && e->core == core)
            return e;
    return NULL;
}

/* A new entry at the end (under the lock); NULL when out of memory. */
static struct entry *add(struct clb_programs *t, const char *file, const char *options,
                         unsigned core, enum state st)
{
    struct entry *e = clb_xcalloc(1, sizeof *e);
    if (e && (!(e->file = clb_strdup(file)) || !(e->options = clb_strdup(options)))) {
        free(e->file);
        free(e);
        return NULL;
    }
    if (e) {
        e->core = core;
        e->state = st;
        *t->tail = e;
        t->tail = &e->next;
    }
    return e;
}

/* Wait (under the lock) while e is built in another thread, under the
 * watchdog: a build ahead that hangs is named as the step that hung. */
static void wait_built(struct entry *e)
{
    if (e->state != BUILDING)
        return;
    pthread_mutex_unlock(&lock);
    char *outer = clb_watchdog_enter("clBuildProgram(%s.cl, \"%s\") built ahead", e->file,
                                     e->options);
    pthread_mutex_lock(&lock);
    while (e->state == BUILDING)
        pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
    clb_watchdog_leave(outer);
    pthread_mutex_lock(&lock);
}

static int get(struct clb_device *d, const char *file, const char *options, unsigned core,
               cl_program *out)
{
    struct clb_programs *t = table(d);
    if (!t)
        return CLB_ESYS;
    pthread_mutex_lock(&lock);
    struct entry *e = find(t, file, options, core);
    if (!e && t->nthreads && !core)
        clb_debug("build ahead: %s.cl [%s] was not planned\n", file, options);
    if (e) {
        e->asked = 1;
        wait_built(e);
    }
    if (e && e->state == READY) {
        *out = e->prog;
        pthread_mutex_unlock(&lock);
        return CLB_OK;
    }
    if (e)
        e->state = BUILDING; /* queued, or failed ahead: built here, with its log */
    else if (!(e = add(t, file, options, core, BUILDING))) {
        pthread_mutex_unlock(&lock);
        return CLB_ESYS;
    }
    e->asked = 1;
    pthread_mutex_unlock(&lock);
    cl_program prog = NULL;
    int rc = clb_program_build(d, file, options, core, &prog);
    pthread_mutex_lock(&lock);
    e->prog = prog;
    e->state = rc ? FAILED : READY;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
    *out = prog;
    return rc;
}

int clb_program(struct clb_device *d, const char *file, const char *options, cl_program *out)
{
    return get(d, file, options, 0, out);
}

int clb_core_program(struct clb_device *d, const char *file, cl_program *out)
{
    return get(d, file, "", CLB_BUILD_CORE, out);
}

/* ---- building ahead --------------------------------------------------------- */

static struct entry *first_queued(struct clb_programs *t)
{
    for (struct entry *e = t->head; e; e = e->next)
        if (e->state == QUEUED)
            return e;
    return NULL;
}

static void *builder(void *arg)
{
    struct clb_device *d = arg;
    struct clb_programs *t = d->progs;
    pthread_mutex_lock(&lock);
    for (;;) {
        struct entry *e = NULL;
        while (!t->stop && (paused || !(e = first_queued(t))))
            pthread_cond_wait(&changed, &lock);
        if (t->stop)
            break;
        e->state = BUILDING;
        t->running++;
        running_all++;
        pthread_mutex_unlock(&lock);
        cl_program prog = NULL;
        int rc = clb_program_build(d, e->file, e->options, e->core | CLB_BUILD_AHEAD, &prog);
        pthread_mutex_lock(&lock);
        e->prog = prog;
        e->state = rc ? FAILED : READY;
        t->running--;
        running_all--;
        pthread_cond_broadcast(&changed);
    }
    pthread_mutex_unlock(&lock);
    clb_lasterr_release(); /* this thread's last message, thread-local */
    return NULL;
}

int clb_builds_start(struct clb_device *d, int threads)
{
    struct clb_programs *t = table(d);
    if (!t)
        return CLB_ESYS;
    if (threads <= 0 || t->threads)
        return CLB_OK;
    if (!(t->threads = clb_xcalloc((size_t)threads, sizeof *t->threads)))
        return CLB_ESYS;
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&t->threads[i], NULL, builder, d) != 0) {
            clb_debug("build ahead: %d of %d threads started\n", i, threads);
            break;
        }
        t->nthreads++;
    }
    return CLB_OK;
}

int clb_program_ahead(struct clb_device *d, const char *file, const char *options)
{
    struct clb_programs *t = d->progs;
    if (!t || !t->nthreads)
        return CLB_OK; /* no builders: each program is built when asked for */
    pthread_mutex_lock(&lock);
    struct entry *e = find(t, file, options, 0);
    if (!e && (e = add(t, file, options, 0, QUEUED)))
        e->planned = 1;
    int rc = e ? CLB_OK : CLB_ESYS;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
    return rc;
}

/* Wait (under the lock) until *inflight builds ahead are done, under the
 * watchdog as `what` when there are any. */
static void wait_idle(const int *inflight, const char *what)
{
    if (!*inflight)
        return;
    pthread_mutex_unlock(&lock);
    char *outer = clb_watchdog_enter("%s", what);
    pthread_mutex_lock(&lock);
    while (*inflight)
        pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
    clb_watchdog_leave(outer);
    pthread_mutex_lock(&lock);
}

/* Every device's builders pause, not only d's (see the lock). */
void clb_builds_pause(struct clb_device *d)
{
    (void)d;
    pthread_mutex_lock(&lock);
    paused++;
    wait_idle(&running_all, "the builds ahead in flight (waited for before timed runs)");
    pthread_mutex_unlock(&lock);
}

void clb_builds_resume(struct clb_device *d)
{
    (void)d;
    pthread_mutex_lock(&lock);
    if (paused > 0)
        paused--;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
}

void clb_programs_free(struct clb_device *d)
{
    struct clb_programs *t = d->progs;
    if (!t)
        return;
    pthread_mutex_lock(&lock);
    t->stop = 1;
    pthread_cond_broadcast(&changed);
    wait_idle(&t->running, "the builds ahead in flight (waited for before the device is closed)");
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < t->nthreads; i++)
        pthread_join(t->threads[i], NULL);
    for (struct entry *e = t->head, *next; e; e = next) {
        next = e->next;
        if (e->planned && !e->asked)
            clb_debug("build ahead: %s.cl [%s] was planned, never asked for\n", e->file,
                      e->options);
        if (e->prog)
            clReleaseProgram(e->prog);
        free(e->file);
        free(e->options);
        free(e);
    }
    free(t->threads);
    free(t);
    d->progs = NULL;
}
