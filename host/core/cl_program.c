/* Building one program: its source (embedded or from --kernel-dir, with
 * common.cl in front), through the program-binary cache where the device
 * has one, else compiled. Which programs a device holds is cl_programs.c's. */
#include "clb_cache.h"
#include "clb_cl.h"
#include "clb_workload.h"
#include "clbench.h"
#include "core.h"
#include "watchdog.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

static void print_build_log(cl_program prog, cl_device_id dev, const char *file,
                            const char *options)
{
    char *log = clb_build_log(prog, dev, SIZE_MAX);
    if (log)
        fprintf(stderr, "clbench: build log of %s.cl (options: %s):\n%s\n", file, options, log);
    free(log);
}

/* cl/common.cl and cl/<file>.cl as one text: the source as compiled. The
 * core's own programs (CLB_BUILD_CORE) are always the copies in the binary,
 * whatever --kernel-dir or CLBENCH_KERNEL_DIR say. */
static char *full_source(struct clb_device *d, const char *file, unsigned flags)
{
    int embedded = (flags & CLB_BUILD_CORE) != 0;
    const char *dir = embedded ? NULL : d->kernel_dir;
    char *common = load_source(dir, "common", !embedded);
    char *src = common ? load_source(dir, file, !embedded) : NULL;
    char *all = src ? clb_asprintf("%s%s", common, src) : NULL;
    free(common);
    free(src);
    return all;
}

/* A watchdog step for a driver call that may compile: `call(file.cl, "options")`. */
static char *step_enter(const char *call, const char *file, const char *options)
{
    return clb_watchdog_enter("%s(%s.cl, \"%s\")", call, file, options);
}

/* Compile a program from its source; the build log on stderr when it fails. */
static int build_source(struct clb_device *d, const char *file, const char *source,
                        const char *options, cl_program *out)
{
    cl_int err;
    cl_program prog = clCreateProgramWithSource(d->ctx, 1, &source, NULL, &err);
    CLB_CHECK(err, "clCreateProgramWithSource");
    /* -cl-std is not passed: 1.2 C is what every driver compiles by default. */
    double t0 = clb_now();
    char *outer = step_enter("clBuildProgram", file, options);
    err = clBuildProgram(prog, 1, &d->info.device, options, NULL, NULL);
    clb_watchdog_leave(outer);
    if (err != CL_SUCCESS) {
        if (err == CL_BUILD_PROGRAM_FAILURE || err == CL_COMPILE_PROGRAM_FAILURE)
            print_build_log(prog, d->info.device, file, options);
        clReleaseProgram(prog);
        return clb_err(CLB_ECL, "clBuildProgram(%s.cl, %s): %s", file, options, clb_cl_errstr(err));
    }
    clb_debug("built %s.cl [%s] in %.2f s\n", file, options, clb_now() - t0);
    *out = prog;
    return CLB_OK;
}

/* ---- the program-binary cache (host/cache) ------------------------------- */

/* A program's key for the binary cache; *owned holds what it allocated. */
static int cache_key(struct clb_device *d, const char *file, const char *source,
                     const char *options, struct clb_cache_key *k, char **owned)
{
    size_t n = 0;
    char *pver = NULL;
    if (clGetPlatformInfo(d->info.platform, CL_PLATFORM_VERSION, 0, NULL, &n) == CL_SUCCESS &&
        (pver = clb_xcalloc(n + 1, 1)))
        clGetPlatformInfo(d->info.platform, CL_PLATFORM_VERSION, n, pver, NULL);
    char *what = pver ? clb_asprintf("%s.cl [%s]", file, options) : NULL;
    if (!what) {
        free(pver);
        return CLB_ESYS;
    }
    owned[0] = pver;
    owned[1] = what;
    *k = (struct clb_cache_key){
        .field = {[CLB_KEY_PLATFORM] = d->info.platform_name, [CLB_KEY_PLATFORM_VERSION] = pver,
                  [CLB_KEY_DEVICE] = d->info.name, [CLB_KEY_VENDOR] = d->info.vendor,
                  [CLB_KEY_DEVICE_VERSION] = d->info.version, [CLB_KEY_DRIVER] = d->info.driver,
                  [CLB_KEY_OPTIONS] = options, [CLB_KEY_SOURCE] = source},
        .what = what};
    return CLB_OK;
}

/* The program from a cached binary, built (linked) for the device; NULL on
 * a miss, or when the driver refuses the binary (said, and rebuilt). */
static cl_program load_cached(struct clb_device *d, const struct clb_cache_key *k,
                              const char *file, const char *options)
{
    unsigned char *bin;
    size_t n;
    if (clb_cache_load(d->bincache, k, &bin, &n) != CLB_OK)
        return NULL;
    cl_int err, status = CL_SUCCESS;
    const unsigned char *bins[1] = {bin};
    double t0 = clb_now();
    cl_program prog = clCreateProgramWithBinary(d->ctx, 1, &d->info.device, &n, bins, &status, &err);
    free(bin);
    const char *call = "clCreateProgramWithBinary";
    if (err == CL_SUCCESS && status != CL_SUCCESS)
        err = status;
    if (err == CL_SUCCESS) {
        call = "clBuildProgram";
        char *outer = step_enter(call, file, options);
        err = clBuildProgram(prog, 1, &d->info.device, options, NULL, NULL);
        clb_watchdog_leave(outer);
    }
    if (err != CL_SUCCESS) {
        char why[128];
        snprintf(why, sizeof why, "the driver refused it (%s: %s)", call, clb_cl_errstr(err));
        clb_cache_reject(d->bincache, k, why);
        if (prog)
            clReleaseProgram(prog);
        return NULL;
    }
    clb_debug("loaded %s from the program cache in %.2f s\n", k->what, clb_now() - t0);
    return prog;
}

/* Keep a program's binary. Some drivers compile at clCreateKernel: every
 * kernel of the program is created (and released) first. */
static void save_cached(struct clb_device *d, cl_program prog, const struct clb_cache_key *k,
                        const char *file, const char *options)
{
    cl_uint nk = 0;
    if (clCreateKernelsInProgram(prog, 0, NULL, &nk) == CL_SUCCESS && nk) {
        cl_kernel *ks = clb_xcalloc(nk, sizeof *ks);
        char *outer = step_enter("clCreateKernelsInProgram", file, options);
        if (ks && clCreateKernelsInProgram(prog, nk, ks, NULL) == CL_SUCCESS)
            clb_release_kernels(ks, nk);
        clb_watchdog_leave(outer);
        free(ks);
    }
    size_t n = 0;
    cl_int err = clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof n, &n, NULL);
    unsigned char *bin = err == CL_SUCCESS && n ? malloc(n) : NULL;
    unsigned char *bins[1] = {bin};
    if (bin && (err = clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL)) ==
                   CL_SUCCESS)
        clb_cache_store(d->bincache, k, bin, n);
    else
        clb_debug("program cache: no binary of %s (%s)\n", k->what,
                  err != CL_SUCCESS ? clb_cl_errstr(err) : "empty or out of memory");
    free(bin);
}

/* Build a program through the binary cache: load it, else compile and keep. */
static int build_cached(struct clb_device *d, const char *file, const char *source,
                        const char *options, cl_program *out)
{
    struct clb_cache_key k;
    char *owned[2] = {NULL, NULL};
    int rc = cache_key(d, file, source, options, &k, owned);
    if (rc == CLB_OK && !(*out = load_cached(d, &k, file, options)) &&
        (rc = build_source(d, file, source, options, out)) == CLB_OK)
        save_cached(d, *out, &k, file, options);
    free(owned[0]);
    free(owned[1]);
    return rc;
}

/* ---- one program ------------------------------------------------------------ */

int clb_program_build(struct clb_device *d, const char *file, const char *options,
                      unsigned flags, cl_program *out)
{
    char *source = full_source(d, file, flags);
    if (!source)
        return CLB_EUSAGE;
    *out = NULL;
    /* A build that asks for the compiler's report in its log (-cl-nv-verbose:
     * registers and spills, clb_kernel_resources) is compiled every time: a
     * program loaded from a binary has no such log. */
    int cached = d->bincache && !strstr(options, "-cl-nv-verbose");
    int rc = cached ? build_cached(d, file, source, options, out)
                    : build_source(d, file, source, options, out);
    free(source);
    return rc;
}

/* Note what the kernel is made of for its cases' fingerprints (the metric
 * fp): its visible source as compiled, and its options. */
static void fingerprint(struct clb_device *d, const char *file, const char *options,
                        const char *name)
{
    char *source = full_source(d, file, 0);
    if (!source || clb_fp_note(d, name, clb_fp_source(source, name), clb_fp_options(options)))
        clb_fp_note(d, NULL, 0, 0);   /* lost: no fingerprint for this group */
    free(source);
}

static int kernel(struct clb_device *d, const char *file, const char *options, int core,
                  const char *name, cl_kernel *out)
{
    cl_program prog;
    *out = NULL;
    int rc = core ? clb_core_program(d, file, &prog) : clb_program(d, file, options, &prog);
    if (rc)
        return rc;
    cl_int err;
    /* some drivers compile here, not in clBuildProgram (Mesa Rusticl) */
    char *outer = clb_watchdog_enter("clCreateKernel(%s in %s.cl, \"%s\")", name, file, options);
    *out = clCreateKernel(prog, name, &err);
    clb_watchdog_leave(outer);
    if (err != CL_SUCCESS) {
        *out = NULL;
        return clb_err(CLB_ECL, "clCreateKernel(%s in %s.cl): %s", name, file, clb_cl_errstr(err));
    }
    if (!core)
        fingerprint(d, file, options, name);
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
