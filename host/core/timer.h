/* The device's event timer, checked against the host clock (host/core/timer.c;
 * docs/MEASURING.md "Timers"). Core-private. */
#ifndef CLB_TIMER_H
#define CLB_TIMER_H

#include "clb_cl.h"
#include "clbench.h"

/* At device open: measure the launch overhead (d->launch_s) and compare the
 * events of a long single-work-item kernel with the host clock; an
 * untrusted timer sets d->timer_host and d->timer_why. CLB_OK, or the error
 * of an OpenCL call. */
int clb_timer_probe(struct clb_device *d);

/* One case's timed runs: ev[i] the events' START -> END, wall[i] the host
 * clock of the same run between two clFinish. 0 when they agree, else 1
 * with the reason appended to *why. */
int clb_timer_check(const struct clb_device *d, const double *ev, const double *wall, int n,
                    struct clb_buf *why);

/* From now on the device's kernels are timed on the host clock, for `why`. */
void clb_timer_distrust(struct clb_device *d, const char *why);

/* "timer=host (WHY); ..." on a row whose kernels the host clock timed. */
void clb_timer_note(const struct clb_device *d, struct clb_buf *detail);

#endif
