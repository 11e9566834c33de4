/* The watchdog (host/core/watchdog.c; docs/MEASURING.md "Hangs"): no build,
 * set-up or case may run longer than --case-timeout, and a run asked to stop
 * by a signal ends within CLB_STOP_GRACE_S seconds even when a driver call
 * never returns. Core-private. */
#ifndef CLB_WATCHDOG_H
#define CLB_WATCHDOG_H

#include <signal.h>
#include <stdlib.h>

/* After a first SIGINT/SIGTERM the run stops after the current repetition;
 * past this many seconds (a call into the driver that does not return) it
 * ends where it is. */
#define CLB_STOP_GRACE_S 3.0

/* What the run does when the deadline passes, on the watchdog's thread while
 * the main thread is stuck: write a row for `why` (a whole line, rows written
 * before stay whole) and give the results file's path for the message (NULL
 * when there is none). */
typedef const char *(*clb_watchdog_fn)(void *ctx, const char *why);

/* Start the thread: `timeout` seconds per step (0: no deadline, only the
 * signal's grace); `sig` is the flag the signal handler sets. */
int clb_watchdog_start(double timeout, const volatile sig_atomic_t *sig);
void clb_watchdog_stop(void);
/* The device and implementation the messages name, and who writes the row. */
void clb_watchdog_where(clb_watchdog_fn fn, void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A step starts: `what` must finish within the timeout from now. Returns the
 * step it interrupts (NULL: none), which clb_watchdog_leave restores (with a
 * fresh deadline) and frees. Without a running watchdog both do nothing. */
char *clb_watchdog_enter(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void clb_watchdog_leave(char *previous);
/* The next part of the running step: `what`, with a fresh deadline (after
 * clb_watchdog_enter; clb_watchdog_leave still restores the outer step). */
#define clb_watchdog_next(...) free(clb_watchdog_enter(__VA_ARGS__))

#endif
