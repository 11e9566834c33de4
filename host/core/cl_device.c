/* Devices: discovery over all platforms, selection, context and queue, buffers. */
#include "clb_cl.h"
#include "clb_params.h"
#include "clbench.h"
#include "core.h"
#include "watchdog.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A device string, whatever its length (malloc'd; NULL if none). */
static char *info_text(cl_device_id d, cl_device_info what)
{
    size_t n = 0;
    char *s = NULL;
    if (clGetDeviceInfo(d, what, 0, NULL, &n) == CL_SUCCESS && n && (s = malloc(n + 1)) &&
        clGetDeviceInfo(d, what, n, s, NULL) != CL_SUCCESS) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = 0;
    return s;
}

/* A device string into a field of the device description: a driver's
 * string longer than the field is cut (at n - 1 bytes), never lost. */
static void str_info(cl_device_id d, cl_device_info what, char *buf, size_t n)
{
    char *tmp = info_text(d, what);
    clb_strlcpy(buf, tmp ? tmp : "", n);
    free(tmp);
    /* drivers pad some strings with blanks */
    size_t len = strlen(buf);
    while (len && isspace((unsigned char)buf[len - 1]))
        buf[--len] = 0;
    size_t lead = 0;
    while (isspace((unsigned char)buf[lead]))
        lead++;
    memmove(buf, buf + lead, len - lead + 1);
}

/* The type a device is shown as and matched by (-d cpu|gpu|accelerator).
 * A device that claims more than one of CPU, GPU and ACCELERATOR is not one
 * of them: Oclgrind, a simulator, reports every bit. Such a device, or one
 * whose platform or name says Oclgrind, is an "emulator": listed, selectable
 * by index, P:D or name, never the default and never matched by a type. */
const char *clb_device_type_name(cl_device_type t, const char *platform, const char *name)
{
    int bits = !!(t & CL_DEVICE_TYPE_GPU) + !!(t & CL_DEVICE_TYPE_CPU) +
               !!(t & CL_DEVICE_TYPE_ACCELERATOR);
    if (bits > 1 || clb_stristr(platform, "oclgrind") || clb_stristr(name, "oclgrind"))
        return "emulator";
    if (t & CL_DEVICE_TYPE_GPU) return "gpu";
    if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
    if (t & CL_DEVICE_TYPE_CPU) return "cpu";
    if (t & CL_DEVICE_TYPE_CUSTOM) return "custom";
    return "other";
}

/* Where the device sits on the PCI bus, when the driver says: the Khronos
 * query (cl_khr_pci_bus_info), else NVIDIA's (cl_nv_device_attribute_query:
 * bus, and slot = device << 3 | function). Energy readings (NVML) match an
 * OpenCL device by this id, never by index. */
#define CLB_DEVICE_PCI_BUS_INFO_KHR 0x410F
#define CLB_DEVICE_PCI_BUS_ID_NV 0x4008
#define CLB_DEVICE_PCI_SLOT_ID_NV 0x4009
#define CLB_DEVICE_PCI_DOMAIN_ID_NV 0x400A
static void pci_bus_id(cl_device_id d, const char *ext, char *out, size_t n)
{
    out[0] = 0;
    cl_uint khr[4];
    if (ext && strstr(ext, "cl_khr_pci_bus_info") &&
        clGetDeviceInfo(d, CLB_DEVICE_PCI_BUS_INFO_KHR, sizeof khr, khr, NULL) == CL_SUCCESS) {
        snprintf(out, n, "%04x:%02x:%02x.%x", khr[0], khr[1] & 0xff, khr[2] & 0x1f, khr[3] & 7);
        return;
    }
    cl_uint bus, slot, domain = 0;
    if (ext && strstr(ext, "cl_nv_device_attribute_query") &&
        clGetDeviceInfo(d, CLB_DEVICE_PCI_BUS_ID_NV, sizeof bus, &bus, NULL) == CL_SUCCESS &&
        clGetDeviceInfo(d, CLB_DEVICE_PCI_SLOT_ID_NV, sizeof slot, &slot, NULL) == CL_SUCCESS) {
        if (clGetDeviceInfo(d, CLB_DEVICE_PCI_DOMAIN_ID_NV, sizeof domain, &domain, NULL) !=
            CL_SUCCESS)
            domain = 0;
        snprintf(out, n, "%04x:%02x:%02x.%x", domain, bus & 0xff, (slot >> 3) & 0x1f, slot & 7);
    }
}

/* The PCI device id at a bus id, from Linux's sysfs ("0x2330\n"); 0 when
 * there is none to read (another system, a bus id the VM does not show).
 * Profiles tell boards of one name apart by it (h100_sxm: 0x2330). */
static unsigned pci_device_id(const char *bus_id)
{
    if (!bus_id[0] || strchr(bus_id, '/') || strstr(bus_id, ".."))
        return 0;
    char path[96];
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/device", bus_id);
    FILE *f = fopen(path, "r");
    unsigned v = 0;
    if (f) {
        if (fscanf(f, "0x%x", &v) != 1 || v > 0xffff)
            v = 0;
        fclose(f);
    }
    return v;
}

static void read_info(struct clb_devinfo *di)
{
    cl_device_id d = di->device;
    str_info(d, CL_DEVICE_NAME, di->name, sizeof di->name);
    str_info(d, CL_DEVICE_VENDOR, di->vendor, sizeof di->vendor);
    str_info(d, CL_DRIVER_VERSION, di->driver, sizeof di->driver);
    str_info(d, CL_DEVICE_VERSION, di->version, sizeof di->version);
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof di->type, &di->type, NULL);
    di->type_name = clb_device_type_name(di->type, di->platform_name, di->name);
    clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof di->compute_units, &di->compute_units, NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof di->clock_mhz, &di->clock_mhz, NULL);
    clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof di->global_mem, &di->global_mem, NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof di->max_alloc, &di->max_alloc, NULL);
    clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof di->local_mem, &di->local_mem, NULL);
    clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof di->cache_size, &di->cache_size, NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof di->max_wg, &di->max_wg, NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof di->max_wi, di->max_wi, NULL);
    cl_device_fp_config fp = 0, sp = 0;
    clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL);
    clGetDeviceInfo(d, CL_DEVICE_SINGLE_FP_CONFIG, sizeof sp, &sp, NULL);
    char *ext = info_text(d, CL_DEVICE_EXTENSIONS);
    di->fp64 = fp != 0 || (ext && strstr(ext, "cl_khr_fp64") != NULL);
    di->fma_sp = (sp & CL_FP_FMA) != 0;
    di->fma_dp = (fp & CL_FP_FMA) != 0;
    size_t res = 0;
    clGetDeviceInfo(d, CL_DEVICE_PROFILING_TIMER_RESOLUTION, sizeof res, &res, NULL);
    di->timer_res_s = (double)res * 1e-9;
    di->fp16 = ext && strstr(ext, "cl_khr_fp16") != NULL;
    di->nv_compiler_options = ext && strstr(ext, "cl_nv_compiler_options") != NULL;
    str_info(d, CL_DEVICE_OPENCL_C_VERSION, di->c_version, sizeof di->c_version);
    clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, sizeof di->cache_line, &di->cache_line,
                    NULL);
    cl_device_mem_cache_type ct = CL_NONE;
    clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, sizeof ct, &ct, NULL);
    di->cache_type = ct == CL_READ_WRITE_CACHE ? "read-write" : ct == CL_READ_ONLY_CACHE ? "read-only"
                                                                                         : "none";
    cl_bool unified = CL_FALSE;
    if (clGetDeviceInfo(d, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL) !=
        CL_SUCCESS)
        unified = CL_FALSE;
    di->host_unified = unified == CL_TRUE || (di->type & CL_DEVICE_TYPE_CPU) != 0;
    pci_bus_id(d, ext, di->pci_bus_id, sizeof di->pci_bus_id);
    di->pci_device = pci_device_id(di->pci_bus_id);
    free(ext);
}

/* A test hook (docs/PORTABILITY.md, "Tiles that fit"): CLBENCH_MAX_WORK_GROUP=N
 * makes every device describe itself as allowing work-groups of at most N
 * work-items (N per dimension too), as a device with small work-groups
 * would; clb_wg_limit applies the same to every compiled kernel. Unset or
 * empty: no limit (*cap = 0). A bad value is refused. */
static int wg_cap(size_t *cap)
{
    const char *v = getenv("CLBENCH_MAX_WORK_GROUP");
    *cap = 0;
    if (!v || !*v)
        return CLB_OK;
    long x[1];
    char err[128];
    if (clb_parse_int_list(v, 1, 1L << 20, x, 1, err, sizeof err) != 1 || strchr(v, ','))
        return clb_eusage("CLBENCH_MAX_WORK_GROUP='%s' is not a work-group size (accepted: one "
                          "whole number 1..1048576, or unset)", v);
    *cap = (size_t)x[0];
    return CLB_OK;
}

static void apply_cap(struct clb_devinfo *di, size_t cap)
{
    if (!cap)
        return;
    if (di->max_wg > cap)
        di->max_wg = cap;
    for (int i = 0; i < 3; i++)
        if (di->max_wi[i] > cap)
            di->max_wi[i] = cap;
    di->wg_forced = cap;
}

/* The platforms the ICD loader lists. It asks every registered
 * implementation, any of which may hang: a watchdog step of its own. */
static int platforms(cl_platform_id **plats, cl_uint *np)
{
    clb_watchdog_where(NULL, NULL, "the ICD loader (every implementation it lists)");
    char *outer = clb_watchdog_enter("clGetPlatformIDs");
    cl_int err = clGetPlatformIDs(0, NULL, np);
    if (err == CL_SUCCESS && *np && !(*plats = clb_xmalloc(*np * sizeof **plats)))
        err = CL_OUT_OF_HOST_MEMORY;
    else if (err == CL_SUCCESS && *np)
        err = clGetPlatformIDs(*np, *plats, NULL);
    clb_watchdog_leave(outer);
    if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (err == CL_SUCCESS && *np == 0))
        return clb_err(CLB_ECL, "no OpenCL platform found (install pocl-opencl-icd for the CPU, or "
                                "a GPU driver)");
    if (err == CL_OUT_OF_HOST_MEMORY && !*plats)
        return CLB_ESYS;
    if (err != CL_SUCCESS) {
        free(*plats);
        *plats = NULL;
    }
    CLB_CHECK(err, "clGetPlatformIDs");
    return CLB_OK;
}

/* The devices of platform p appended to *v (*count of them so far). Every
 * call is a watchdog step naming the platform (the implementation). */
static int platform_devices(cl_platform_id plat, cl_uint p, size_t cap, struct clb_devinfo **v,
                            int *count)
{
    clb_watchdog_where(NULL, NULL, "platform %u (its name not read yet)", p);
    char pname[128] = "";
    char *outer = clb_watchdog_enter("clGetPlatformInfo(CL_PLATFORM_NAME)");
    clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    pname[sizeof pname - 1] = 0;
    clb_watchdog_where(NULL, NULL, "platform %u '%s'", p, pname);
    clb_watchdog_next("clGetDeviceIDs");
    cl_uint nd = 0;
    int rc = CLB_OK;
    cl_device_id *ids = NULL;
    if (clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || nd == 0)
        goto out; /* a platform without devices is not an error */
    ids = clb_xmalloc(nd * sizeof *ids);
    void *nv = ids ? realloc(*v, (size_t)(*count + (int)nd) * sizeof **v) : NULL;
    if (!ids || !nv) {
        rc = clb_err(CLB_ESYS, CLB_OOM " listing devices");
        goto out;
    }
    *v = nv;
    clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, nd, ids, NULL);
    clb_watchdog_next("clGetDeviceInfo (the devices' properties)");
    for (cl_uint d = 0; d < nd; d++) {
        struct clb_devinfo *di = &(*v)[*count];
        memset(di, 0, sizeof *di);
        di->index = *count;
        di->pidx = (int)p;
        di->didx = (int)d;
        di->platform = plat;
        di->device = ids[d];
        clb_strlcpy(di->platform_name, pname, sizeof di->platform_name);
        read_info(di);
        apply_cap(di, cap);
        (*count)++;
    }
out:
    clb_watchdog_leave(outer);
    free(ids);
    return rc;
}

/* The flat index: real devices first, in platform order, then emulators.
 * An emulator's ICD registered as platform 0 (Oclgrind's, on this
 * project's machine) would otherwise take index 0 and move every real
 * device's number: `-d 0` silently ran the simulator. P:D keeps the
 * driver's order. */
static void emulators_last(struct clb_devinfo *v, int n)
{
    struct clb_devinfo tmp;
    for (int i = 1; i < n; i++)   /* a stable insertion: few devices */
        for (int j = i; j > 0 && !strcmp(v[j - 1].type_name, "emulator") &&
                        strcmp(v[j].type_name, "emulator");
             j--) {
            tmp = v[j - 1];
            v[j - 1] = v[j];
            v[j] = tmp;
        }
    for (int i = 0; i < n; i++)
        v[i].index = i;
}

int clb_devices(struct clb_devinfo **out, int *n)
{
    *out = NULL;
    *n = 0;
    size_t cap;
    if (wg_cap(&cap))
        return CLB_EUSAGE;
    cl_uint np = 0;
    cl_platform_id *plats = NULL;
    int rc = platforms(&plats, &np);
    if (rc)
        return rc;
    struct clb_devinfo *v = NULL;
    int count = 0;
    for (cl_uint p = 0; p < np && !rc; p++)
        rc = platform_devices(plats[p], p, cap, &v, &count);
    free(plats);
    if (!rc && count == 0)
        rc = clb_err(CLB_ECL, "no OpenCL device found on any platform");
    if (rc) {
        free(v);
        return rc;
    }
    emulators_last(v, count);
    *out = v;
    *n = count;
    return CLB_OK;
}

static int all_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

int clb_select_device(const struct clb_devinfo *devs, int n, const char *spec)
{
    if (!spec || !*spec) {
        /* The first GPU, else accelerator, else CPU; never an emulator. */
        static const char *const order[] = {"gpu", "accelerator", "cpu", "custom", "other"};
        for (int o = 0; o < 5; o++)
            for (int i = 0; i < n; i++)
                if (strcmp(devs[i].type_name, order[o]) == 0)
                    return i;
        clb_seterr("only emulated devices were found (e.g. '%s'); clbench does not pick one by "
                   "itself: name it with -d INDEX (see 'clbench list')", n ? devs[0].name : "");
        return -1;
    }
    if (all_digits(spec)) {
        long k = strtol(spec, NULL, 10);
        if (k < n && !strcmp(devs[k].type_name, "emulator"))
            clb_info("note: device %ld is an emulator ('%s' of %s): its figures are a "
                     "simulator's, not a device's\n", k, devs[k].name, devs[k].platform_name);
        if (k < n)
            return (int)k;
        clb_seterr("device index %s out of range (%d device%s: 0..%d; see 'clbench list')", spec, n,
                   n == 1 ? "" : "s", n - 1);
        return -1;
    }
    const char *colon = strchr(spec, ':');
    size_t plen = colon ? (size_t)(colon - spec) : 0;
    if (plen && plen < 16 && strspn(spec, "0123456789") == plen && all_digits(colon + 1)) {
        /* strtol saturates where atoi would overflow */
        long p = strtol(spec, NULL, 10), d = strtol(colon + 1, NULL, 10);
        for (int i = 0; i < n; i++)
            if (devs[i].pidx == p && devs[i].didx == d)
                return i;
        clb_seterr("no device %s (platform:device; see 'clbench list')", spec);
        return -1;
    }
    static const char *const kinds[] = {"gpu", "cpu", "accelerator"};
    for (int k = 0; k < 3; k++)
        if (clb_strieq(spec, kinds[k])) {
            for (int i = 0; i < n; i++)
                if (strcmp(devs[i].type_name, kinds[k]) == 0)
                    return i;
            clb_seterr("no %s device found (emulators such as Oclgrind are never matched by a "
                       "type; see 'clbench list')", kinds[k]);
            return -1;
        }
    for (int i = 0; i < n; i++)
        if (clb_stristr(devs[i].name, spec))
            return i;
    clb_seterr("no device matches '%s' (accepted: an index, P:D, cpu, gpu, accelerator, or part "
               "of a device name; see 'clbench list')",
               spec);
    return -1;
}

int clb_open(struct clb_device *d, const struct clb_devinfo *info, const char *kernel_dir)
{
    memset(d, 0, sizeof *d);
    d->launch_s = NAN;
    d->info = *info;
    d->kernel_dir = kernel_dir;
    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)info->platform, 0};
    d->ctx = clCreateContext(props, 1, &info->device, NULL, NULL, &err);
    CLB_CHECK(err, "clCreateContext");
    d->queue = clCreateCommandQueue(d->ctx, info->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) {
        clReleaseContext(d->ctx);
        d->ctx = NULL;
        CLB_CHECK(err, "clCreateCommandQueue");
    }
    return CLB_OK;
}

void clb_close(struct clb_device *d)
{
    clb_programs_free(d);
    clb_fp_free(d);
    free(d->timer_why);
    d->timer_why = NULL;
    if (d->queue) {
        /* every row was synchronised, validated and written before this
         * drain: a failure here changes no row, but it is still said */
        cl_int err = clFinish(d->queue);
        if (err != CL_SUCCESS)
            clb_print_error("warning: clFinish while closing the device: %s (after every row was "
                            "written)", clb_cl_errstr(err));
        clReleaseCommandQueue(d->queue);
    }
    if (d->ctx)
        clReleaseContext(d->ctx);
    d->queue = NULL;
    d->ctx = NULL;
}

int clb_fits(const struct clb_device *d, size_t largest, size_t total)
{
    if ((cl_ulong)largest > d->info.max_alloc)
        return clb_err(CLB_SKIP, "buffer of %zu bytes exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE (%llu "
                                 "bytes)", largest, (unsigned long long)d->info.max_alloc);
    if ((cl_ulong)total > d->info.global_mem)
        return clb_err(CLB_SKIP, "buffers of %zu bytes in all exceed CL_DEVICE_GLOBAL_MEM_SIZE "
                                 "(%llu bytes)", total, (unsigned long long)d->info.global_mem);
    return CLB_OK;
}

int clb_buffer(struct clb_device *d, cl_mem_flags flags, size_t bytes, cl_mem *out)
{
    *out = NULL;
    int rc = clb_fits(d, bytes, bytes);
    if (rc)
        return rc;
    cl_int err;
    *out = clCreateBuffer(d->ctx, flags, bytes ? bytes : 1, NULL, &err);
    if (err != CL_SUCCESS) {
        *out = NULL;
        return clb_err(CLB_ECL, "clCreateBuffer (%zu bytes): %s", bytes, clb_cl_errstr(err));
    }
    return CLB_OK;
}

int clb_args(cl_kernel k, ...)
{
    va_list ap;
    va_start(ap, k);
    cl_uint idx = 0;
    for (size_t sz; (sz = va_arg(ap, size_t)) != 0; idx++) {
        const void *p = va_arg(ap, const void *);
        cl_int err = clSetKernelArg(k, idx, sz, p);
        if (err != CL_SUCCESS) {
            va_end(ap);
            return clb_err(CLB_ECL, "clSetKernelArg(%u): %s", idx, clb_cl_errstr(err));
        }
    }
    va_end(ap);
    return CLB_OK;
}

void clb_shape_text(unsigned dims, const size_t *v, char *out, size_t n)
{
    out[0] = 0;
    size_t len = 0;
    for (unsigned i = 0; i < dims && i < 3 && len < n; i++)
        len += (size_t)snprintf(out + len, n - len, "%s%zu", i ? "x" : "", v[i]);
}

int clb_launch(struct clb_device *d, cl_kernel k, cl_uint dims, const size_t *global,
               const size_t *local, cl_event *ev)
{
    /* What the driver would refuse (CL_INVALID_WORK_GROUP_SIZE), refused here
     * too, against the limits as clbench sees them (CLBENCH_MAX_WORK_GROUP
     * included): a launch that was not fitted fails on every device alike. */
    size_t items = 1;
    int over = 0;
    for (cl_uint i = 0; local && i < dims && i < 3; i++) {
        items *= local[i];
        over |= local[i] > d->info.max_wi[i];
    }
    if (local && (over || items > d->info.max_wg)) {
        char shape[96];
        clb_shape_text(dims, local, shape, sizeof shape);
        return clb_err(CLB_ECL, "clEnqueueNDRangeKernel: a work-group of %s work-items exceeds the "
                                "device's limit (%zu; %zu x %zu x %zu per dimension)", shape,
                                d->info.max_wg, d->info.max_wi[0], d->info.max_wi[1],
                                d->info.max_wi[2]);
    }
    CLB_CHECK(clEnqueueNDRangeKernel(d->queue, k, dims, NULL, global, local, 0, NULL, ev),
              "clEnqueueNDRangeKernel");
    return CLB_OK;
}

int clb_finish(cl_command_queue q)
{
    cl_event mark = NULL;
    CLB_CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &mark), "clEnqueueMarkerWithWaitList");
    cl_int err = clWaitForEvents(1, &mark);
    clReleaseEvent(mark);
    CLB_CHECK(err, "clWaitForEvents (marker)");
    CLB_CHECK(clFinish(q), "clFinish");
    return CLB_OK;
}

int clb_poison(struct clb_device *d, cl_mem buf, size_t bytes)
{
    /* All bits set: a NaN in float and double, so an unwritten element can
     * never compare equal to a reference value. The widest pattern that
     * divides the size keeps the fill's element count small: a run with
     * 2 GiB buffers stalled on the H100, and 2^31 one-byte elements (past a
     * signed 32-bit count) is the suspect. */
    static const unsigned char pattern[16] = {[0 ... 15] = 0xFF};
    size_t psize = 16;
    while (psize > 1 && bytes % psize)
        psize /= 2;
    CLB_CHECK(clEnqueueFillBuffer(d->queue, buf, pattern, psize, 0, bytes, 0, NULL, NULL),
              "clEnqueueFillBuffer");
    CLB_CHECK(clFinish(d->queue), "clFinish");
    return CLB_OK;
}

int clb_write(struct clb_device *d, cl_mem buf, const void *src, size_t bytes)
{
    CLB_CHECK(clEnqueueWriteBuffer(d->queue, buf, CL_TRUE, 0, bytes, src, 0, NULL, NULL),
              "clEnqueueWriteBuffer");
    return CLB_OK;
}

int clb_read(struct clb_device *d, cl_mem buf, void *dst, size_t bytes)
{
    CLB_CHECK(clEnqueueReadBuffer(d->queue, buf, CL_TRUE, 0, bytes, dst, 0, NULL, NULL),
              "clEnqueueReadBuffer");
    return CLB_OK;
}

int clb_event_seconds(cl_event first, cl_event last, double *seconds)
{
    cl_ulong start = 0, end = 0;
    CLB_CHECK(clWaitForEvents(1, &last), "clWaitForEvents");
    CLB_CHECK(clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL),
              "clGetEventProfilingInfo(START)");
    CLB_CHECK(clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL),
              "clGetEventProfilingInfo(END)");
    *seconds = end > start ? (double)(end - start) * 1e-9 : 0.0;
    return CLB_OK;
}

int clb_event_wall(cl_event last, double t0, double *seconds)
{
    CLB_CHECK(clWaitForEvents(1, &last), "clWaitForEvents");
    *seconds = clb_now() - t0;
    return CLB_OK;
}
