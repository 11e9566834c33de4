/* What a command made and must not leave behind when a signal ends it
 * (SIGINT, SIGTERM, SIGHUP): temporary files and directories, and child
 * processes (gnuplot). The command registers each as it makes it and drops
 * it when done; the handler kills and reaps the children, removes the files,
 * then the directories, and ends the process with the signal (exit status
 * 128 + N). The handler only calls async-signal-safe functions (kill,
 * waitpid, unlink, rmdir, sigaction, raise) on slots that registration
 * fills completely before publishing them. */
#define _GNU_SOURCE
#include "clbench.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define SLOTS 1024

static struct {
    char *volatile path;
    volatile pid_t pid;
    volatile sig_atomic_t used;
} slots[SLOTS];

static int take_slot(void)
{
    for (int i = 0; i < SLOTS; i++)
        if (!slots[i].used) {
            slots[i].used = 1;
            return i;
        }
    return -1;
}

int clb_cleanup_path(const char *path)
{
    char *copy = strdup(path);
    int i = copy ? take_slot() : -1;
    if (i < 0) {
        free(copy);
        return -1;
    }
    slots[i].path = copy;
    return i;
}

int clb_cleanup_child(int pid)
{
    int i = take_slot();
    if (i >= 0)
        slots[i].pid = pid;
    return i;
}

void clb_cleanup_drop(int id)
{
    if (id < 0 || id >= SLOTS)
        return;
    char *p = slots[id].path;
    slots[id].path = NULL;
    slots[id].pid = 0;
    slots[id].used = 0;
    free(p);
}

static void on_signal(int sig)
{
    int saved = errno;
    for (int i = 0; i < SLOTS; i++)
        if (slots[i].used && slots[i].pid > 0) {
            kill(slots[i].pid, SIGTERM);
            while (waitpid(slots[i].pid, NULL, 0) < 0 && errno == EINTR)
                ;
        }
    /* the files (unlink fails on a directory), then the directories, last made first */
    for (int i = 0; i < SLOTS; i++)
        if (slots[i].used && slots[i].path)
            unlink(slots[i].path);
    for (int i = SLOTS - 1; i >= 0; i--)
        if (slots[i].used && slots[i].path)
            rmdir(slots[i].path);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigaction(sig, &sa, NULL);
    errno = saved;
    raise(sig);
}

void clb_cleanup_guard(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++) {
        struct sigaction old, sa;
        /* a signal the process was started ignoring (nohup, a background
         * job) stays ignored */
        if (sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigfillset(&sa.sa_mask);
        sigaction(sigs[k], &sa, NULL);
    }
}
