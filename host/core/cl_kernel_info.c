/* What a driver says about a built kernel's resources (clb_cl.h): private
 * memory per work-item, and the registers and spills of the compiler's
 * report in the build log where the driver writes one (NVIDIA's ptxas lines
 * under -cl-nv-verbose). The log is the driver's text: read with a size cap
 * and parsed without trusting its shape. */
#include "clb_cl.h"
#include "clbench.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* a build log of many kernels is tens of KiB; more is not a compiler report */
#define LOG_CAP ((size_t)16 << 20)

const char *clb_verbose_build_option(const struct clb_devinfo *di)
{
    return di->nv_compiler_options ? " -cl-nv-verbose" : "";
}

/* The number that ends just before `at` in [lo, at) ("... 748 bytes spill
 * stores": at points at " bytes"); -1 when there is none. */
static long number_before(const char *lo, const char *at)
{
    const char *p = at;
    while (p > lo && isdigit((unsigned char)p[-1]))
        p--;
    if (p == at || at - p > 9)
        return -1;
    return strtol(p, NULL, 10);
}

/* The first "<N><what>" in [from, to): N, or -1. */
static long figure_in(const char *from, const char *to, const char *what)
{
    size_t wl = strlen(what);
    for (const char *p = from; p + wl <= to; p++) {
        p = strstr(p, what);
        if (!p || p + wl > to)
            return -1;
        long n = number_before(from, p);
        if (n >= 0)
            return n;
    }
    return -1;
}

void clb_parse_ptxas_log(const char *log, const char *name, long *registers, long *spill_stores)
{
    static const char entry[] = "Compiling entry function '";
    *registers = *spill_stores = -1;
    if (!log || !name || !name[0])
        return;
    size_t nl = strlen(name);
    const char *p = log;
    while ((p = strstr(p, entry))) {
        p += sizeof entry - 1;
        if (strncmp(p, name, nl) || p[nl] != '\'')
            continue;
        /* this entry's lines: up to the next entry; its own properties come
         * before those of the functions it calls */
        const char *end = strstr(p, entry);
        if (!end)
            end = p + strlen(p);
        *spill_stores = figure_in(p, end, " bytes spill stores");
        const char *used = strstr(p, "Used ");
        size_t nd = used && used < end ? strspn(used + 5, "0123456789") : 0;
        if (nd && nd <= 9 && strncmp(used + 5 + nd, " registers", 10) == 0)
            *registers = strtol(used + 5, NULL, 10);
        return;
    }
}

char *clb_build_log(cl_program prog, cl_device_id dev, size_t cap)
{
    size_t len = 0;
    if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) != CL_SUCCESS ||
        len == 0 || len > cap)
        return NULL;
    char *log = malloc(len + 1);
    if (log && clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL) !=
                   CL_SUCCESS) {
        free(log);
        return NULL;
    }
    if (log)
        log[len] = 0;
    return log;
}

void clb_kernel_resources(const struct clb_device *d, cl_kernel k, const char *name,
                          struct clb_kres *out)
{
    cl_ulong pm = 0;
    out->private_mem = clGetKernelWorkGroupInfo(k, d->info.device, CL_KERNEL_PRIVATE_MEM_SIZE,
                                                sizeof pm, &pm, NULL) == CL_SUCCESS
                           ? (long long)pm
                           : -1;
    cl_program prog;
    char *log = clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof prog, &prog, NULL) == CL_SUCCESS
                    ? clb_build_log(prog, d->info.device, LOG_CAP)
                    : NULL;
    clb_parse_ptxas_log(log, name, &out->registers, &out->spill_stores);
    free(log);
}

int clb_kres_spills(const struct clb_device *d, const struct clb_kres *r)
{
    if (r->spill_stores >= 0)
        return r->spill_stores > 0;
    return strcmp(d->info.type_name, "gpu") == 0 && r->private_mem > 0;
}
