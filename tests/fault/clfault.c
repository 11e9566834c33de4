/* clfault: a test-only OpenCL fault injector, preloaded (LD_PRELOAD) in front
 * of the ICD loader. Every wrapped call is forwarded to the real one
 * (dlsym(RTLD_NEXT)) except the one chosen to fail:
 *
 *   CLBENCH_FAULT=CALL:N[,CALL:N...]   fail the Nth call of CALL (1-based);
 *                 CALL:N+              fail the Nth and every later call.
 *   CLBENCH_CORRUPT=N | N+ | all       after the Nth (N+: every from the Nth;
 *                 all: every) successful clEnqueueReadBuffer,
 *                 clEnqueueReadBufferRect or blocking read clEnqueueMapBuffer,
 *                 overwrite one element in the middle of the data returned
 *                 with a huge finite value: a validation that reads the
 *                 output must see it.
 *   CLBENCH_FAULT_COUNTS=FILE          at exit, write the calls counted and
 *                 the OpenCL objects still alive (see write_counts).
 *   CLBENCH_HANG=CALL:N                the Nth call of CALL never returns
 *                 (a hung driver), so that a test can signal it. Besides the
 *                 calls above, clGetPlatformIDs, clGetDeviceInfo and
 *                 clReleaseContext can hang (never fail): a driver that hangs
 *                 while a device is opened or closed.
 *   CLBENCH_PAUSE=CALL:N               the process stops itself (SIGSTOP) at
 *                 the Nth call of CALL and goes on at SIGCONT, so that a test
 *                 can change the world (the results file) at a known point.
 *   CLBENCH_FAULT_LOG=FILE             append one line per injected fault,
 *                 so that a test knows the fault really fired.
 *   CLBENCH_FAKE_TIMER=1               a false timer, as Mesa Rusticl 22.3 on
 *                 llvmpipe has: every event's QUEUED, SUBMIT, START, END read
 *                 0, 1, 2, 3 ns, and the timer resolution reads 0.
 *   CLBENCH_SPILL_LOG=TEXT             the build log of a program whose build
 *                 options contain TEXT reads as NVIDIA's ptxas report (under
 *                 -cl-nv-verbose) of a kernel 'dslash' that spills: a CPU
 *                 test sees what a GPU driver says (dslash's passes).
 *
 * The failures are what a driver returns for that call: clCreateBuffer
 * CL_MEM_OBJECT_ALLOCATION_FAILURE, clBuildProgram CL_BUILD_PROGRAM_FAILURE
 * (a real failed build, so the build log is real), clEnqueueNDRangeKernel
 * CL_OUT_OF_RESOURCES, clWaitForEvents
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clFinish, reads, writes and
 * unmaps CL_OUT_OF_RESOURCES, clEnqueueMapBuffer CL_MAP_FAILURE,
 * clCreateContext CL_OUT_OF_HOST_MEMORY.
 * Waits and unmaps do the real work first and then report the error, so the
 * injector itself leaks nothing. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <dlfcn.h>
#include <signal.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { F_CREATE_BUFFER, F_BUILD, F_LAUNCH, F_WAIT, F_FINISH, F_MAP, F_UNMAP, F_READ, F_WRITE,
       F_CONTEXT, F_PLATFORMS, F_DEVINFO, F_RELEASE_CONTEXT, NF };
static const char *const fname[NF] = {
    "clCreateBuffer",    "clBuildProgram",          "clEnqueueNDRangeKernel",
    "clWaitForEvents",   "clFinish",                "clEnqueueMapBuffer",
    "clEnqueueUnmapMemObject", "clEnqueueReadBuffer", "clEnqueueWriteBuffer",
    "clCreateContext",   "clGetPlatformIDs",        "clGetDeviceInfo",
    "clReleaseContext"};

static struct {
    long at;     /* 0: never */
    int onward;  /* fail every call from `at` */
    long count;
} faults[NF];
static long hang_at[NF], pause_at[NF];
static long corrupt_at, corrupt_count;
static int corrupt_onward, configured;

/* The injector is for clbench's own process only: an implementation may start
 * programs of its own (PoCL links every kernel with ld), which must neither
 * run through the injector nor, in the sanitizer build, under the ASan
 * runtime preloaded with it (LeakSanitizer then reports the linker's leaks and
 * the kernel's link fails). The dynamic loader has read LD_PRELOAD by the time
 * this runs: taking it out of the environment keeps it from every child,
 * whether or not the implementation forks one. */
__attribute__((constructor)) static void own_process_only(void)
{
    unsetenv("LD_PRELOAD");
}

/* Parse "CALL:N[+][,CALL:N...]" into at[] (and onward[] where given). */
static void parse_spec(const char *spec, long *at, int *onward, size_t stride)
{
    while (spec && *spec) {
        const char *colon = strchr(spec, ':');
        if (!colon)
            break;
        for (int i = 0; i < NF; i++)
            if (strlen(fname[i]) == (size_t)(colon - spec) &&
                strncmp(fname[i], spec, (size_t)(colon - spec)) == 0) {
                char *end;
                *(long *)((char *)at + i * stride) = strtol(colon + 1, &end, 10);
                if (onward)
                    *(int *)((char *)onward + i * stride) = *end == '+';
            }
        spec = strchr(colon, ',');
        spec = spec ? spec + 1 : NULL;
    }
}

static void configure(void)
{
    if (__atomic_exchange_n(&configured, 1, __ATOMIC_SEQ_CST))
        return;
    parse_spec(getenv("CLBENCH_FAULT"), &faults[0].at, &faults[0].onward, sizeof faults[0]);
    parse_spec(getenv("CLBENCH_HANG"), hang_at, NULL, sizeof hang_at[0]);
    parse_spec(getenv("CLBENCH_PAUSE"), pause_at, NULL, sizeof pause_at[0]);
    const char *c = getenv("CLBENCH_CORRUPT");
    if (c && strcmp(c, "all") == 0) {
        corrupt_at = 1;
        corrupt_onward = 1;
    } else if (c && *c) {
        char *end;
        corrupt_at = strtol(c, &end, 10);
        corrupt_onward = *end == '+';
    }
}

static void log_line(const char *what, long n, const char *err)
{
    const char *path = getenv("CLBENCH_FAULT_LOG");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (!f)
        return;
    fprintf(f, "%s #%ld %s\n", what, n, err);
    fclose(f);
}

/* Count a call of f; true when this one must fail. */
static int inject(int f, const char *errname)
{
    configure();
    long n = __atomic_add_fetch(&faults[f].count, 1, __ATOMIC_SEQ_CST);
    if (hang_at[f] == n) {
        /* a driver call that never returns: only a signal ends it */
        log_line(fname[f], n, "hangs");
        for (;;)
            pause();
    }
    if (pause_at[f] == n) {
        log_line(fname[f], n, "pauses");
        raise(SIGSTOP);
    }
    long at = faults[f].at;
    int hit = *errname && at > 0 && (n == at || (faults[f].onward && n > at));
    if (hit)
        log_line(fname[f], n, errname);
    return hit;
}

/* Overwrite one element in the middle of a returned block: the 4 bytes at
 * offset 4 of a 16-byte aligned group. That is one float (~3e38, the y of a
 * float3/float4, never padding) or the high half of one double (~1e306): a
 * finite value no tolerance accepts, in exactly one element. */
static void corrupt(void *p, size_t bytes, const char *what)
{
    configure();
    if (!corrupt_at || !p || bytes == 0)
        return;
    long n = __atomic_add_fetch(&corrupt_count, 1, __ATOMIC_SEQ_CST);
    if (!(n == corrupt_at || (corrupt_onward && n > corrupt_at)))
        return;
    size_t off = (bytes / 2) & ~(size_t)15;
    if (bytes - off >= 8)
        memset((char *)p + off + 4, 0x7f, 4);
    else
        memset((char *)p + off, 0x7f, bytes - off);
    log_line(what, n, "corrupted");
}

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

/* ---- live objects: every reference created or retained must be released */

enum { O_CONTEXT, O_QUEUE, O_MEM, O_PROGRAM, O_KERNEL, NO };
static const char *const oname[NO] = {"context", "queue", "mem", "program", "kernel"};
static long live[NO];

static void *track(int kind, void *obj)
{
    if (obj)
        __atomic_add_fetch(&live[kind], 1, __ATOMIC_SEQ_CST);
    return obj;
}

static cl_int untrack(int kind, cl_int err)
{
    if (err == CL_SUCCESS)
        __atomic_sub_fetch(&live[kind], 1, __ATOMIC_SEQ_CST);
    return err;
}

static cl_int retrack(int kind, cl_int err)
{
    if (err == CL_SUCCESS)
        __atomic_add_fetch(&live[kind], 1, __ATOMIC_SEQ_CST);
    return err;
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(
    const cl_context_properties *props, cl_uint n, const cl_device_id *devs,
    void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *user,
    cl_int *err)
{
    if (inject(F_CONTEXT, "CL_OUT_OF_HOST_MEMORY")) {
        if (err)
            *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    return track(O_CONTEXT, REAL(clCreateContext)(props, n, devs, notify, user, err));
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContextFromType(
    const cl_context_properties *props, cl_device_type type,
    void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *), void *user,
    cl_int *err)
{
    return track(O_CONTEXT, REAL(clCreateContextFromType)(props, type, notify, user, err));
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context ctx, cl_device_id dev,
                                                              cl_command_queue_properties props,
                                                              cl_int *err)
{
    return track(O_QUEUE, REAL(clCreateCommandQueue)(ctx, dev, props, err));
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buf, cl_mem_flags flags,
                                                  cl_buffer_create_type type, const void *info,
                                                  cl_int *err)
{
    return track(O_MEM, REAL(clCreateSubBuffer)(buf, flags, type, info, err));
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context ctx, cl_uint n,
                                                             const char **src,
                                                             const size_t *len, cl_int *err)
{
    return track(O_PROGRAM, REAL(clCreateProgramWithSource)(ctx, n, src, len, err));
}

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program prog, const char *name, cl_int *err)
{
    return track(O_KERNEL, REAL(clCreateKernel)(prog, name, err));
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context o) { return retrack(O_CONTEXT, REAL(clRetainContext)(o)); }
/* clReleaseContext may hang (CLBENCH_HANG) but never fails. */
CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context o)
{
    (void)inject(F_RELEASE_CONTEXT, "");
    return untrack(O_CONTEXT, REAL(clReleaseContext)(o));
}
CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue o) { return retrack(O_QUEUE, REAL(clRetainCommandQueue)(o)); }
CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue o) { return untrack(O_QUEUE, REAL(clReleaseCommandQueue)(o)); }
CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem o) { return retrack(O_MEM, REAL(clRetainMemObject)(o)); }
CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem o) { return untrack(O_MEM, REAL(clReleaseMemObject)(o)); }
CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program o) { return retrack(O_PROGRAM, REAL(clRetainProgram)(o)); }
CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program o) { return untrack(O_PROGRAM, REAL(clReleaseProgram)(o)); }
CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel o) { return retrack(O_KERNEL, REAL(clRetainKernel)(o)); }
CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel o) { return untrack(O_KERNEL, REAL(clReleaseKernel)(o)); }

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context ctx, cl_mem_flags flags, size_t size,
                                               void *host_ptr, cl_int *err)
{
    if (inject(F_CREATE_BUFFER, "CL_MEM_OBJECT_ALLOCATION_FAILURE")) {
        if (err)
            *err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
        return NULL;
    }
    return track(O_MEM, REAL(clCreateBuffer)(ctx, flags, size, host_ptr, err));
}

/* A real build that fails: every kernel qualifier becomes an unknown type
 * name, so the compiler writes a genuine build log naming the injection. */
CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program prog, cl_uint ndev,
                                               const cl_device_id *devs, const char *options,
                                               void(CL_CALLBACK *notify)(cl_program, void *),
                                               void *user)
{
    if (!inject(F_BUILD, "CL_BUILD_PROGRAM_FAILURE"))
        return REAL(clBuildProgram)(prog, ndev, devs, options, notify, user);
    static const char poison[] = " -D__kernel=clbench_injected_build_failure"
                                 " -Dkernel=clbench_injected_build_failure";
    size_t n = (options ? strlen(options) : 0) + sizeof poison;
    char *opts = malloc(n);
    if (!opts)
        return CL_OUT_OF_HOST_MEMORY;
    snprintf(opts, n, "%s%s", options ? options : "", poison);
    cl_int err = REAL(clBuildProgram)(prog, ndev, devs, opts, notify, user);
    free(opts);
    return err == CL_SUCCESS ? CL_BUILD_PROGRAM_FAILURE : err;
}

/* CLBENCH_SPILL_LOG: ptxas's lines for a 'dslash' entry that spills (the
 * form CUDA 13's ptxas -v prints them), for the programs built with TEXT. */
CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program prog, cl_device_id dev,
                                                      cl_program_build_info what, size_t size,
                                                      void *value, size_t *ret)
{
    static const char report[] =
        "ptxas info    : Compiling entry function 'dslash' for 'sm_90'\n"
        "ptxas info    : Function properties for dslash\n"
        "    1344 bytes stack frame, 1428 bytes spill stores, 1428 bytes spill loads\n"
        "ptxas info    : Used 255 registers, used 0 barriers\n";
    const char *text = getenv("CLBENCH_SPILL_LOG");
    char opts[2048];
    if (!text || !*text || what != CL_PROGRAM_BUILD_LOG ||
        REAL(clGetProgramBuildInfo)(prog, dev, CL_PROGRAM_BUILD_OPTIONS, sizeof opts, opts,
                                    NULL) != CL_SUCCESS ||
        !strstr(opts, text))
        return REAL(clGetProgramBuildInfo)(prog, dev, what, size, value, ret);
    if (ret)
        *ret = sizeof report;
    if (value && size < sizeof report)
        return CL_INVALID_VALUE;
    if (value) {
        memcpy(value, report, sizeof report);
        log_line("clGetProgramBuildInfo", 0, "spill report");
    }
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k,
                                                       cl_uint dims, const size_t *offset,
                                                       const size_t *global, const size_t *local,
                                                       cl_uint nwait, const cl_event *wait,
                                                       cl_event *ev)
{
    if (inject(F_LAUNCH, "CL_OUT_OF_RESOURCES"))
        return CL_OUT_OF_RESOURCES;
    return REAL(clEnqueueNDRangeKernel)(q, k, dims, offset, global, local, nwait, wait, ev);
}

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint n, const cl_event *evs)
{
    cl_int err = REAL(clWaitForEvents)(n, evs);
    if (inject(F_WAIT, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"))
        return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    return err;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue q)
{
    cl_int err = REAL(clFinish)(q);
    if (inject(F_FINISH, "CL_OUT_OF_RESOURCES"))
        return CL_OUT_OF_RESOURCES;
    return err;
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem buf,
                                                  cl_bool blocking, cl_map_flags flags,
                                                  size_t offset, size_t size, cl_uint nwait,
                                                  const cl_event *wait, cl_event *ev,
                                                  cl_int *err)
{
    if (inject(F_MAP, "CL_MAP_FAILURE")) {
        if (err)
            *err = CL_MAP_FAILURE;
        return NULL;
    }
    void *p = REAL(clEnqueueMapBuffer)(q, buf, blocking, flags, offset, size, nwait, wait, ev,
                                       err);
    if (p && blocking && (flags & CL_MAP_READ))
        corrupt(p, size, "clEnqueueMapBuffer");
    return p;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q, cl_mem mem,
                                                        void *ptr, cl_uint nwait,
                                                        const cl_event *wait, cl_event *ev)
{
    cl_int err = REAL(clEnqueueUnmapMemObject)(q, mem, ptr, nwait, wait, ev);
    if (inject(F_UNMAP, "CL_OUT_OF_RESOURCES")) {
        if (err == CL_SUCCESS && ev) {
            /* the caller will not see the event of a failed call */
            REAL(clWaitForEvents)(1, ev);
            clReleaseEvent(*ev);
            *ev = NULL;
        }
        return CL_OUT_OF_RESOURCES;
    }
    return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem buf,
                                                    cl_bool blocking, size_t offset, size_t size,
                                                    void *ptr, cl_uint nwait,
                                                    const cl_event *wait, cl_event *ev)
{
    if (inject(F_READ, "CL_OUT_OF_RESOURCES"))
        return CL_OUT_OF_RESOURCES;
    cl_int err = REAL(clEnqueueReadBuffer)(q, buf, blocking, offset, size, ptr, nwait, wait, ev);
    if (err == CL_SUCCESS && corrupt_at) {
        /* a non-blocking read is complete only after a wait: make it so */
        if (!blocking)
            REAL(clFinish)(q);
        corrupt(ptr, size, "clEnqueueReadBuffer");
    }
    return err;
}

/* Rectangular reads are corrupted too: the first element of the middle row. */
CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(
    cl_command_queue q, cl_mem buf, cl_bool blocking, const size_t *buf_origin,
    const size_t *host_origin, const size_t *region, size_t buf_row_pitch, size_t buf_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, void *ptr, cl_uint nwait, const cl_event *wait,
    cl_event *ev)
{
    cl_int err = REAL(clEnqueueReadBufferRect)(q, buf, blocking, buf_origin, host_origin, region,
                                               buf_row_pitch, buf_slice_pitch, host_row_pitch,
                                               host_slice_pitch, ptr, nwait, wait, ev);
    if (err == CL_SUCCESS && corrupt_at && region[0] > 0 && region[1] > 0) {
        if (!blocking)
            REAL(clFinish)(q);
        size_t rp = host_row_pitch ? host_row_pitch : region[0];
        size_t sp = host_slice_pitch ? host_slice_pitch : region[1] * rp;
        size_t off = host_origin[2] * sp + (host_origin[1] + region[1] / 2) * rp + host_origin[0];
        corrupt((char *)ptr + off, region[0] < 8 ? region[0] : 8, "clEnqueueReadBufferRect");
    }
    return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem buf,
                                                     cl_bool blocking, size_t offset, size_t size,
                                                     const void *ptr, cl_uint nwait,
                                                     const cl_event *wait, cl_event *ev)
{
    if (inject(F_WRITE, "CL_OUT_OF_RESOURCES"))
        return CL_OUT_OF_RESOURCES;
    return REAL(clEnqueueWriteBuffer)(q, buf, blocking, offset, size, ptr, nwait, wait, ev);
}

/* CLBENCH_FAULT_COUNTS=FILE: the number of calls of each wrapped function,
 * written at exit, so a test can aim a fault at the middle of a run. */
__attribute__((destructor)) static void write_counts(void)
{
    const char *path = getenv("CLBENCH_FAULT_COUNTS");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f)
        return;
    for (int i = 0; i < NF; i++)
        fprintf(f, "%s %ld\n", fname[i], faults[i].count);
    for (int i = 0; i < NO; i++)
        fprintf(f, "live %s %ld\n", oname[i], live[i]);
    fclose(f);
}

/* ---- CLBENCH_FAKE_TIMER ---------------------------------------------------- */

static int fake_timer(void)
{
    const char *f = getenv("CLBENCH_FAKE_TIMER");
    return f && *f && strcmp(f, "0") != 0;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event ev, cl_profiling_info what,
                                                        size_t size, void *value, size_t *ret)
{
    cl_int err = REAL(clGetEventProfilingInfo)(ev, what, size, value, ret);
    if (err == CL_SUCCESS && fake_timer() && value && size >= sizeof(cl_ulong))
        *(cl_ulong *)value = what == CL_PROFILING_COMMAND_QUEUED   ? 0
                             : what == CL_PROFILING_COMMAND_SUBMIT ? 1
                             : what == CL_PROFILING_COMMAND_START  ? 2
                                                                   : 3;
    return err;
}

/* The platform query may hang (CLBENCH_HANG) but never fails. */
CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint n, cl_platform_id *plats, cl_uint *np)
{
    (void)inject(F_PLATFORMS, "");
    return REAL(clGetPlatformIDs)(n, plats, np);
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id dev, cl_device_info what, size_t size,
                                                void *value, size_t *ret)
{
    (void)inject(F_DEVINFO, ""); /* it may hang; it never fails */
    cl_int err = REAL(clGetDeviceInfo)(dev, what, size, value, ret);
    if (err == CL_SUCCESS && fake_timer() && what == CL_DEVICE_PROFILING_TIMER_RESOLUTION && value &&
        size >= sizeof(size_t))
        *(size_t *)value = 0;
    return err;
}
