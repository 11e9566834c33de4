/* Programs: kernel sources (embedded or from --kernel-dir), built once per
 * (file, options) and cached for the life of the device. */
#include "clb_cl.h"
#include "clbench.h"
#include "watchdog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct clb_progcache {
    struct clb_progcache *next;
    char *key;          /* "file\noptions" */
    cl_program prog;
};

void clb_progcache_free(struct clb_progcache *c)
{
    while (c) {
        struct clb_progcache *next = c->next;
        clReleaseProgram(c->prog);
        free(c->key);
        free(c);
        c = next;
    }
}

/* From kernel_dir, else $CLBENCH_KERNEL_DIR (when env), else embedded. */
static char *load_source(const char *kernel_dir, const char *file, int env)
{
    if ((!kernel_dir || !*kernel_dir) && env)
        kernel_dir = getenv("CLBENCH_KERNEL_DIR");
    if (kernel_dir && *kernel_dir) {
        /* a kernel source is text of a few tens of KiB: 4 MiB is plenty */
        char *path = clb_asprintf("%s/%s.cl", kernel_dir, file);
        char *src = path ? clb_read_regular(path, "kernel source", 4u << 20) : NULL;
        free(path);
        return src;
    }
    const char *src = clb_embedded_source(file);
    if (!src) {
        clb_seterr("no kernel source '%s.cl' is embedded in this binary", file);
        return NULL;
    }
    return clb_strdup(src);
}

char *clb_load_source(const char *kernel_dir, const char *file)
{
    return load_source(kernel_dir, file, 1);
}

static void print_build_log(cl_program prog, cl_device_id dev, const char *file,
                            const char *options)
{
    size_t len = 0;
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = len ? malloc(len + 1) : NULL;
    if (log && clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL) == CL_SUCCESS) {
        log[len] = 0;
        fprintf(stderr, "clbench: build log of %s.cl (options: %s):\n%s\n", file, options, log);
    }
    free(log);
}

/* clb_program; embedded: the copy in the binary whatever --kernel-dir says
 * (the core's own kernels), cached under a key of its own. */
static int program(struct clb_device *d, const char *file, const char *options, int embedded,
                   cl_program *out)
{
    size_t klen = strlen(file) + strlen(options) + 3;
    char *key = clb_xmalloc(klen);
    if (!key)
        return CLB_ESYS;
    snprintf(key, klen, "%s%s\n%s", embedded ? "=" : "", file, options);
    for (struct clb_progcache *c = d->cache; c; c = c->next)
        if (strcmp(c->key, key) == 0) {
            free(key);
            *out = c->prog;
            return CLB_OK;
        }
    const char *dir = embedded ? NULL : d->kernel_dir;
    char *common = load_source(dir, "common", !embedded);
    char *src = common ? load_source(dir, file, !embedded) : NULL;
    if (!src) {
        free(common);
        free(key);
        return CLB_EUSAGE;
    }
    const char *parts[2] = {common, src};
    cl_int err;
    cl_program prog = clCreateProgramWithSource(d->ctx, 2, parts, NULL, &err);
    free(common);
    free(src);
    if (err != CL_SUCCESS) {
        free(key);
        CLB_CHECK(err, "clCreateProgramWithSource");
    }
    /* -cl-std is not passed: 1.2 C is what every driver compiles by default. */
    double t0 = clb_now();
    char *outer = clb_watchdog_enter("clBuildProgram(%s.cl, \"%s\")", file, options);
    err = clBuildProgram(prog, 1, &d->info.device, options, NULL, NULL);
    clb_watchdog_leave(outer);
    if (err != CL_SUCCESS) {
        if (err == CL_BUILD_PROGRAM_FAILURE || err == CL_COMPILE_PROGRAM_FAILURE)
            print_build_log(prog, d->info.device, file, options);
        clReleaseProgram(prog);
        free(key);
        clb_seterr("clBuildProgram(%s.cl, %s): %s", file, options, clb_cl_errstr(err));
        return CLB_ECL;
    }
    clb_debug("built %s.cl [%s] in %.2f s\n", file, options, clb_now() - t0);
    struct clb_progcache *c = malloc(sizeof *c);
    if (!c) {
        clReleaseProgram(prog);
        free(key);
        clb_seterr("out of host memory");
        return CLB_ESYS;
    }
    c->key = key;
    c->prog = prog;
    c->next = d->cache;
    d->cache = c;
    *out = prog;
    return CLB_OK;
}

int clb_program(struct clb_device *d, const char *file, const char *options, cl_program *out)
{
    return program(d, file, options, 0, out);
}

static int kernel(struct clb_device *d, const char *file, const char *options, int embedded,
                  const char *name, cl_kernel *out)
{
    cl_program prog;
    *out = NULL;
    int rc = program(d, file, options, embedded, &prog);
    if (rc)
        return rc;
    cl_int err;
    /* some drivers compile here, not in clBuildProgram (Mesa Rusticl) */
    char *outer = clb_watchdog_enter("clCreateKernel(%s in %s.cl, \"%s\")", name, file, options);
    *out = clCreateKernel(prog, name, &err);
    clb_watchdog_leave(outer);
    if (err != CL_SUCCESS) {
        *out = NULL;
        clb_seterr("clCreateKernel(%s in %s.cl): %s", name, file, clb_cl_errstr(err));
        return CLB_ECL;
    }
    return CLB_OK;
}

int clb_kernel(struct clb_device *d, const char *file, const char *options, const char *name,
               cl_kernel *out)
{
    return kernel(d, file, options, 0, name, out);
}

int clb_core_kernel(struct clb_device *d, const char *file, const char *name, cl_kernel *out)
{
    return kernel(d, file, "", 1, name, out);
}
