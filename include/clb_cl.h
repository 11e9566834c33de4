/* clbench OpenCL layer: device discovery and selection, context and queue,
 * programs built from the embedded kernel sources, checked buffers. */
#ifndef CLB_CL_H
#define CLB_CL_H

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stddef.h>

/* Name of an OpenCL error code: "CL_OUT_OF_RESOURCES", or "CL error -9999". */
const char *clb_cl_errstr(cl_int err);

/* Check an OpenCL call: on failure record "<what>: <CL_NAME>" and return CLB_ECL. */
#define CLB_CHECK(call, what)                                                   \
    do {                                                                        \
        cl_int clb_err_ = (call);                                               \
        if (clb_err_ != CL_SUCCESS) {                                           \
            clb_seterr("%s: %s", (what), clb_cl_errstr(clb_err_));              \
            return CLB_ECL;                                                     \
        }                                                                       \
    } while (0)

/* What clbench needs to know about a device, read once. */
struct clb_devinfo {
    int index;                    /* flat index over all platforms */
    int pidx, didx;               /* platform and device index (P:D) */
    cl_platform_id platform;
    cl_device_id device;
    char platform_name[128], name[128], vendor[128], driver[64];
    char version[128];            /* CL_DEVICE_VERSION */
    cl_device_type type;
    const char *type_name;        /* "gpu", "cpu", "accelerator", "emulator", "custom", "other" */
    cl_uint compute_units, clock_mhz;
    cl_ulong global_mem, max_alloc, local_mem;
    cl_ulong cache_size;          /* CL_DEVICE_GLOBAL_MEM_CACHE_SIZE */
    size_t max_wg, max_wi[3];
    size_t wg_forced;             /* N when CLBENCH_MAX_WORK_GROUP=N lowered max_wg and max_wi
                                   * (a test hook), else 0 */
    int fp64;                     /* double supported */
    int fp16;                     /* cl_khr_fp16 */
    int fma_sp, fma_dp;           /* CL_FP_FMA in CL_DEVICE_SINGLE/DOUBLE_FP_CONFIG: fma() is a
                                   * hardware operation (else the driver emulates it) */
    double timer_res_s;           /* CL_DEVICE_PROFILING_TIMER_RESOLUTION in seconds (as
                                   * reported: 0 on some drivers) */
    char c_version[64];           /* CL_DEVICE_OPENCL_C_VERSION */
    cl_uint cache_line;           /* CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE */
    const char *cache_type;       /* "none", "read-only", "read-write" */
    int host_unified;             /* the device works in host memory: a CPU device, or
                                   * CL_DEVICE_HOST_UNIFIED_MEMORY */
    char pci_bus_id[32];          /* "0000:3b:00.0" from cl_khr_pci_bus_info or the NVIDIA
                                   * query; "" when the driver does not say */
    unsigned pci_device;          /* the PCI device id at that bus id (Linux sysfs: 0x2330 is
                                   * the H100 SXM5 80GB), 0 when unknown */
    int nv_compiler_options;      /* cl_nv_compiler_options: -cl-nv-verbose is accepted */
};

/* All devices of all platforms, flat-indexed: CLB_OK or an error. */
int clb_devices(struct clb_devinfo **out, int *n);

/* The type a device is shown as and matched by (type_name above; "emulator":
 * a device that claims several of CPU/GPU/ACCELERATOR, or says Oclgrind). */
const char *clb_device_type_name(cl_device_type t, const char *platform, const char *name);

/* Select by SPEC: NULL (default order gpu, accelerator, cpu; never an
 * emulator), a flat index, "P:D", "cpu|gpu|accelerator" (by shown type), or
 * a case-insensitive name substring. The index into devs, or -1 with a message. */
int clb_select_device(const struct clb_devinfo *devs, int n, const char *spec);

/* A device opened for work. */
struct clb_device {
    struct clb_devinfo info;
    cl_context ctx;
    cl_command_queue queue;      /* in order, profiling enabled */
    const char *kernel_dir;      /* NULL: embedded sources */
    struct clb_programs *progs;    /* the programs built (cl_programs.c) */
    struct clb_bincache *bincache; /* the program-binary cache; NULL: off for this device */
    /* The events' timer, checked against the host clock when the device is
     * opened for a run (host/core/timer.c, docs/MEASURING.md "Timers"). */
    int timer_host;              /* 1: not trusted, every kernel is timed on the host clock */
    char *timer_why;             /* why (malloc'd), NULL while trusted */
    double launch_s;             /* host wall of one empty launch + clFinish (median), NAN unmeasured */
    size_t loop_limit;           /* clb_loop_limit's finding (0: none), once loop_probed */
    int loop_probed;
    struct clb_fplog *fp;        /* the kernels the current group created (fingerprint.c) */
};

int clb_open(struct clb_device *d, const struct clb_devinfo *info, const char *kernel_dir);
void clb_close(struct clb_device *d);

/* Build cl/<file>.cl (with cl/common.cl in front) with the given -D options.
 * Programs are cached per (file, options) for the life of the device; the
 * caller does not release them. On a build failure the build log is printed
 * on stderr and CLB_ECL returned. */
int clb_program(struct clb_device *d, const char *file, const char *options, cl_program *out);
void clb_programs_free(struct clb_device *d); /* clb_close does it */
/* Build one program now (its source, the binary cache). CLB_BUILD_CORE: one
 * of the core's own programs, always the source embedded in the binary. */
#define CLB_BUILD_CORE 1u
int clb_program_build(struct clb_device *d, const char *file, const char *options,
                      unsigned flags, cl_program *out);
/* clb_program for a program of the core's own (cl/timer.cl), without
 * options: always the copy in the binary (whatever --kernel-dir or
 * CLBENCH_KERNEL_DIR say), kept apart from a --kernel-dir copy of the file. */
int clb_core_program(struct clb_device *d, const char *file, cl_program *out);
/* clb_program (clb_core_program) + clCreateKernel; the caller releases the kernel. */
int clb_kernel(struct clb_device *d, const char *file, const char *options, const char *name,
               cl_kernel *out);
int clb_core_kernel(struct clb_device *d, const char *file, const char *name, cl_kernel *out);

/* What the device says about a built kernel's resources (cl_kernel_info.c):
 * CL_KERNEL_PRIVATE_MEM_SIZE (bytes per work-item; -1 when the query fails)
 * and, where the program's build log has the compiler's lines for the kernel
 * (NVIDIA's ptxas with -cl-nv-verbose), its registers and spill-store bytes
 * (-1 where the log does not say). */
struct clb_kres {
    long long private_mem;
    long registers, spill_stores;
};
void clb_kernel_resources(const struct clb_device *d, cl_kernel k, const char *name,
                          struct clb_kres *out);
/* Does the kernel keep work-item data in memory rather than registers? Spill
 * stores in the build log; where the log does not say, private memory on a
 * GPU (a CPU's private memory is its stack, which says nothing). */
int clb_kres_spills(const struct clb_device *d, const struct clb_kres *r);
/* The build option that makes the build log report registers and spills
 * (" -cl-nv-verbose" where the device has cl_nv_compiler_options), else "". */
const char *clb_verbose_build_option(const struct clb_devinfo *di);
/* The build log of prog on dev (malloc'd), NULL when none, or longer than cap bytes. */
char *clb_build_log(cl_program prog, cl_device_id dev, size_t cap);
/* The registers and spill-store bytes that ptxas-style lines of a build log
 * give for entry function `name` (-1 each where they do not). */
void clb_parse_ptxas_log(const char *log, const char *name, long *registers, long *spill_stores);

/* A buffer of `bytes`, refused with one clear line when it exceeds
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE or the global memory (then CLB_SKIP). */
int clb_buffer(struct clb_device *d, cl_mem_flags flags, size_t bytes, cl_mem *out);
/* Does a set of allocations fit? CLB_OK or CLB_SKIP with the reason recorded. */
int clb_fits(const struct clb_device *d, size_t largest, size_t total);

/* Set kernel arguments: pairs of (size, pointer), terminated by 0. */
int clb_args(cl_kernel k, ...);

/* "32x8" for a shape of dims extents (at most 3). */
void clb_shape_text(unsigned dims, const size_t *v, char *out, size_t n);

/* Enqueue an ND-range; local may be NULL. A work-group above the device's
 * limits (max_wg, max_wi) is refused with CLB_ECL, as the driver would. */
int clb_launch(struct clb_device *d, cl_kernel k, cl_uint dims, const size_t *global,
               const size_t *local, cl_event *ev);

/* Wait until every command enqueued on an in-order queue q is complete: a
 * marker's event, then clFinish. Use it wherever the queue may have been
 * flushed: Mesa's Rusticl 22.3.6 returns from a clFinish that follows a
 * clFlush before the flushed commands are done (docs/PORTABILITY.md). */
int clb_finish(cl_command_queue q);

int clb_poison(struct clb_device *d, cl_mem buf, size_t bytes); /* all bits set, and wait */
/* Blocking write / read. */
int clb_write(struct clb_device *d, cl_mem buf, const void *src, size_t bytes);
int clb_read(struct clb_device *d, cl_mem buf, void *dst, size_t bytes);

/* Seconds between START of first and END of last (both complete). */
int clb_event_seconds(cl_event first, cl_event last, double *seconds);
/* Wait for an event and give the host wall clock from t0 (clb_now) to its end. */
int clb_event_wall(cl_event last, double t0, double *seconds);

/* Embedded kernel sources (generated at build time). */
const char *clb_embedded_source(const char *file);

#endif
