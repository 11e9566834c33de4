/* The programs of a device: each (file, options) built once, when a set-up
 * first asks for it, and kept for the life of the device. Every build runs
 * on the device's own thread (docs/PORTABILITY.md, "Threads"). */
#include "clb_cl.h"
#include "clbench.h"

#include <stdlib.h>
#include <string.h>

/* A program built, in the device's list (d->progs). */
struct clb_programs {
    struct clb_programs *next;
    char *file, *options;
    unsigned core;             /* CLB_BUILD_CORE: the core's own program (the embedded source) */
    cl_program prog;           /* built (a build that fails is not kept: asked again, built again) */
};

static struct clb_programs *find(struct clb_programs *e, const char *file, const char *options,
                                 unsigned core)
{
    for (; e; e = e->next)
        if (strcmp(e->file, file) == 0 && strcmp(e->options, options) == 0 && e->core == core)
            return e;
    return NULL;
}

/* Keep a built program in the device's list; CLB_ESYS (the program
 * released) when out of memory. */
static int keep(struct clb_device *d, const char *file, const char *options, unsigned core,
                cl_program prog)
{
    struct clb_programs *e = clb_xcalloc(1, sizeof *e);
    if (e && (!(e->file = clb_strdup(file)) || !(e->options = clb_strdup(options)))) {
        free(e->file);
        free(e);
        e = NULL;
    }
    if (!e) {
        clReleaseProgram(prog);
        return CLB_ESYS;
    }
    e->core = core;
    e->prog = prog;
    e->next = d->progs;
    d->progs = e;
    return CLB_OK;
}

static int get(struct clb_device *d, const char *file, const char *options, unsigned core,
               cl_program *out)
{
    const struct clb_programs *e = find(d->progs, file, options, core);
    if (e) {
        *out = e->prog;
        return CLB_OK;
    }
    cl_program prog = NULL;
    int rc = clb_program_build(d, file, options, core, &prog);
    if (rc == CLB_OK)
        rc = keep(d, file, options, core, prog);
    *out = rc == CLB_OK ? prog : NULL;
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

void clb_programs_free(struct clb_device *d)
{
    for (struct clb_programs *e = d->progs, *next; e; e = next) {
        next = e->next;
        clReleaseProgram(e->prog);
        free(e->file);
        free(e->options);
        free(e);
    }
    d->progs = NULL;
}
