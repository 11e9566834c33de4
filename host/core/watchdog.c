/* The watchdog. A thread polls, ten times a second, the deadline of the step
 * that runs (a build, a set-up, a case: each re-arms it) and the signal flag.
 * When the deadline passes, it names the step and the implementation on
 * stderr, lets the driver write an `error` row for it, and ends the process
 * with CLB_EXIT_TIMEOUT. When a first signal was not obeyed within
 * CLB_STOP_GRACE_S seconds, it ends the process as a second signal would.
 * Nothing goes on after a hung step: the driver call holds the driver's locks,
 * its memory and a core, and cannot be abandoned safely. */
#define _GNU_SOURCE
#include "watchdog.h"
#include "comm.h"
#include "core.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* If the exit path itself blocks (a lock the stuck thread holds), SIGALRM's
 * default action ends the process after this many seconds. */
#define BACKSTOP_S 10

static struct {
    pthread_mutex_t mu;
    pthread_t thread;
    int running, stop;
    double timeout;             /* seconds per step; 0: none */
    double deadline;            /* clb_now() at which the step is late; 0: disarmed */
    char *what;                 /* the step (malloc'd) */
    char *where;                /* device and implementation (malloc'd) */
    clb_watchdog_fn fn;
    void *ctx;
    const volatile sig_atomic_t *sig;
    double signal_at;           /* when the first signal was seen; 0: none */
} wd = {.mu = PTHREAD_MUTEX_INITIALIZER};

static char *vformat(const char *fmt, va_list ap)
{
    char *s = NULL;
    return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

/* Called with the lock held; never returns. */
static void fire_timeout(void)
{
    alarm(BACKSTOP_S);
    char *text = clb_asprintf("timeout: %s did not finish within %g s (--case-timeout) on %s",
                              wd.what ? wd.what : "a step", wd.timeout,
                              wd.where ? wd.where : "the device");
    const char *why = text ? text : "timeout";
    const char *file = wd.fn ? wd.fn(wd.ctx, why) : NULL;
    int peer = clb_comm_active() && clb_comm()->rank != 0;
    if (peer) /* silent ranks too: the rank that hung names itself */
        fprintf(stderr, "clbench: %s; the job ends here (exit %d)\n", why, CLB_EXIT_TIMEOUT);
    else
        clb_print_error("%s; the run ends here (exit %d)%s%s", why, CLB_EXIT_TIMEOUT,
                        file ? "; the rows measured before are in " : "", file ? file : "");
    /* Under MPI the first rank to end has the launcher kill the others: rank
     * 0 waits a second for the rank that hung to name itself, the others two
     * for rank 0 to write the job's row (the ranks entered the step
     * together, so their deadlines are as near). */
    if (clb_comm_active()) {
        const struct timespec wait = {peer ? 2 : 1, 0};
        nanosleep(&wait, NULL);
    }
    _exit(CLB_EXIT_TIMEOUT);
}

static void fire_signal(void)
{
    alarm(BACKSTOP_S);
    int sig = (int)*wd.sig;
    clb_print_error("interrupted, and %s did not return within %g s of the signal on %s: ended "
                    "there (exit %d); rows already written are whole",
                    wd.what ? wd.what : "the current step", CLB_STOP_GRACE_S,
                    wd.where ? wd.where : "the device", 128 + sig);
    _exit(128 + sig);
}

static void *watch(void *arg)
{
    (void)arg;
    const struct timespec tick = {0, 100 * 1000 * 1000};
    for (;;) {
        nanosleep(&tick, NULL);
        pthread_mutex_lock(&wd.mu);
        if (wd.stop) {
            pthread_mutex_unlock(&wd.mu);
            return NULL;
        }
        double now = clb_now();
        if (wd.timeout > 0 && wd.deadline > 0 && now >= wd.deadline)
            fire_timeout();
        if (*wd.sig && wd.signal_at == 0)
            wd.signal_at = now;
        if (wd.signal_at > 0 && now - wd.signal_at >= CLB_STOP_GRACE_S)
            fire_signal();
        pthread_mutex_unlock(&wd.mu);
    }
}

int clb_watchdog_start(double timeout, const volatile sig_atomic_t *sig)
{
    wd.timeout = timeout;
    wd.sig = sig;
    wd.stop = 0;
    wd.signal_at = 0;
    int err = pthread_create(&wd.thread, NULL, watch, NULL);
    if (err)
        return clb_err(CLB_ESYS, "cannot start the watchdog thread: %s", strerror(err));
    wd.running = 1;
    return CLB_OK;
}

void clb_watchdog_stop(void)
{
    if (!wd.running)
        return;
    pthread_mutex_lock(&wd.mu);
    wd.stop = 1;
    pthread_mutex_unlock(&wd.mu);
    pthread_join(wd.thread, NULL);
    wd.running = 0;
    free(wd.what);
    free(wd.where);
    wd.what = wd.where = NULL;
    wd.deadline = 0;
    wd.fn = NULL;
}

void clb_watchdog_where(clb_watchdog_fn fn, void *ctx, const char *fmt, ...)
{
    if (!wd.running)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *where = vformat(fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&wd.mu);
    free(wd.where);
    wd.where = where;
    wd.fn = fn;
    wd.ctx = ctx;
    pthread_mutex_unlock(&wd.mu);
}

/* Make `what` the step (NULL: none), with a fresh deadline; the old label out. */
static char *swap(char *what)
{
    pthread_mutex_lock(&wd.mu);
    char *old = wd.what;
    wd.what = what;
    wd.deadline = what ? clb_now() + wd.timeout : 0;
    pthread_mutex_unlock(&wd.mu);
    return old;
}

char *clb_watchdog_enter(const char *fmt, ...)
{
    if (!wd.running)
        return NULL;
    va_list ap;
    va_start(ap, fmt);
    char *what = vformat(fmt, ap);
    va_end(ap);
    return swap(what ? what : clb_strdup("a step"));
}

void clb_watchdog_leave(char *previous)
{
    if (wd.running)
        free(swap(previous));
}
