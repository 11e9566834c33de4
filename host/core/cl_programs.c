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

struct clb_programs {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    struct entry *head, **tail;
    pthread_t *threads;
    int nthreads;
    int running;               /* builds ahead in flight */
    int paused;                /* pause depth */
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
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->changed, NULL);
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
static void wait_built(struct clb_programs *t, struct entry *e)
{
    if (e->state != BUILDING)
        return;
    pthread_mutex_unlock(&t->lock);
    char *outer = clb_watchdog_enter("clBuildProgram(%s.cl, \"%s\") built ahead", e->file,
                                     e->options);
    pthread_mutex_lock(&t->lock);
    while (e->state == BUILDING)
        pthread_cond_wait(&t->changed, &t->lock);
    pthread_mutex_unlock(&t->lock);
    clb_watchdog_leave(outer);
    pthread_mutex_lock(&t->lock);
}

static int get(struct clb_device *d, const char *file, const char *options, unsigned core,
               cl_program *out)
{
    struct clb_programs *t = table(d);
    if (!t)
        return CLB_ESYS;
    pthread_mutex_lock(&t->lock);
    struct entry *e = find(t, file, options, core);
    if (!e && t->nthreads && !core)
        clb_debug("build ahead: %s.cl [%s] was not planned\n", file, options);
    if (e) {
        e->asked = 1;
        wait_built(t, e);
    }
    if (e && e->state == READY) {
        *out = e->prog;
        pthread_mutex_unlock(&t->lock);
        return CLB_OK;
    }
    if (e)
        e->state = BUILDING; /* queued, or failed ahead: built here, with its log */
    else if (!(e = add(t, file, options, core, BUILDING))) {
        pthread_mutex_unlock(&t->lock);
        return CLB_ESYS;
    }
    e->asked = 1;
    pthread_mutex_unlock(&t->lock);
    cl_program prog = NULL;
    int rc = clb_program_build(d, file, options, core, &prog);
    pthread_mutex_lock(&t->lock);
    e->prog = prog;
    e->state = rc ? FAILED : READY;
    pthread_cond_broadcast(&t->changed);
    pthread_mutex_unlock(&t->lock);
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
    pthread_mutex_lock(&t->lock);
    for (;;) {
        struct entry *e = NULL;
        while (!t->stop && (t->paused || !(e = first_queued(t))))
            pthread_cond_wait(&t->changed, &t->lock);
        if (t->stop)
            break;
        e->state = BUILDING;
        t->running++;
        pthread_mutex_unlock(&t->lock);
        cl_program prog = NULL;
        int rc = clb_program_build(d, e->file, e->options, e->core | CLB_BUILD_AHEAD, &prog);
        pthread_mutex_lock(&t->lock);
        e->prog = prog;
        e->state = rc ? FAILED : READY;
        t->running--;
        pthread_cond_broadcast(&t->changed);
    }
    pthread_mutex_unlock(&t->lock);
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
    pthread_mutex_lock(&t->lock);
    struct entry *e = find(t, file, options, 0);
    if (!e && (e = add(t, file, options, 0, QUEUED)))
        e->planned = 1;
    int rc = e ? CLB_OK : CLB_ESYS;
    pthread_cond_broadcast(&t->changed);
    pthread_mutex_unlock(&t->lock);
    return rc;
}

/* Wait (under the lock) until no build ahead is in flight, under the
 * watchdog as `what` when one is. */
static void wait_idle(struct clb_programs *t, const char *what)
{
    if (!t->running)
        return;
    pthread_mutex_unlock(&t->lock);
    char *outer = clb_watchdog_enter("%s", what);
    pthread_mutex_lock(&t->lock);
    while (t->running)
        pthread_cond_wait(&t->changed, &t->lock);
    pthread_mutex_unlock(&t->lock);
    clb_watchdog_leave(outer);
    pthread_mutex_lock(&t->lock);
}

void clb_builds_pause(struct clb_device *d)
{
    struct clb_programs *t = d->progs;
    if (!t || !t->nthreads)
        return;
    pthread_mutex_lock(&t->lock);
    t->paused++;
    wait_idle(t, "the builds ahead in flight (waited for before timed runs)");
    pthread_mutex_unlock(&t->lock);
}

void clb_builds_resume(struct clb_device *d)
{
    struct clb_programs *t = d->progs;
    if (!t || !t->nthreads)
        return;
    pthread_mutex_lock(&t->lock);
    if (t->paused > 0)
        t->paused--;
    pthread_cond_broadcast(&t->changed);
    pthread_mutex_unlock(&t->lock);
}

void clb_programs_free(struct clb_device *d)
{
    struct clb_programs *t = d->progs;
    if (!t)
        return;
    pthread_mutex_lock(&t->lock);
    t->stop = 1;
    pthread_cond_broadcast(&t->changed);
    wait_idle(t, "the builds ahead in flight (waited for before the device is closed)");
    pthread_mutex_unlock(&t->lock);
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
    pthread_cond_destroy(&t->changed);
    pthread_mutex_destroy(&t->lock);
    free(t);
    d->progs = NULL;
}
