/* bus: host<->device transfers, the ceiling of every computation whose data
 * starts in host memory: pageable (malloc'd, blocking) and pinned (a mapped
 * CL_MEM_ALLOC_HOST_PTR buffer, non-blocking, then clFinish), H2D and D2H;
 * size = bytes per transfer, wall-clock timed, every byte checked
 * (docs/workloads/bus.md). */
#include "clb_workload.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { PAGEABLE_H2D, PAGEABLE_D2H, PINNED_H2D, PINNED_D2H, NKERNELS };
static const char *const kernel_names[NKERNELS] = {"pageable_h2d", "pageable_d2h",
                                                   "pinned_h2d", "pinned_d2h"};

#define KNOWN_KERNELS "pageable_h2d,pageable_d2h,pinned_h2d,pinned_d2h"
static const struct clb_param_def params[] = {
    {"kernels", "", "subset of " KNOWN_KERNELS " to run (default: all)", CLB_ROLE_CASE},
    {0, 0, 0, 0}};

/* One case: the transfer. */
struct bus_case {
    int k;
};

struct bus {
    size_t bytes;
    unsigned char *src;     /* pageable: the data every transfer carries */
    unsigned char *dst;     /* pageable: read-back target */
    cl_mem pin;             /* pinned host buffer ... */
    void *pptr;             /* ... and its mapped pointer */
    cl_mem dev;             /* the device buffer */
};

/* Host memory we are willing to use: a quarter of the physical memory. */
static size_t host_budget(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || psize <= 0)
        return (size_t)1 << 30;
    return (size_t)pages / 4 * (size_t)psize;
}

/* The default-size ladder: 4 KiB .. 1 GiB in powers of 4, as far as host
 * memory allows (three host copies: source, read-back, pinned); the rule
 * (sweep) runs every one the device can hold. */
static int ladder(int i, char *out, size_t n)
{
    if (i < 0 || i > 9) /* 4096 << 18 = 1 GiB */
        return 0;
    size_t b = (size_t)4096 << (2 * i);
    if (i > 0 && b > host_budget() / 3)
        return 0;
    snprintf(out, n, "%zu", b);
    return 1;
}

/* A transfer moves its size once (host work: no device roofline, no cache
 * mark). The group's device memory is the device buffer: the pinned buffer
 * (CL_MEM_ALLOC_HOST_PTR) is host memory, which set-up checks itself (see
 * there). An empty kernel name counts as any transfer (all count the same). */
static int count(const struct clb_query *q, struct clb_counts *out)
{
    size_t b = q->size->total;
    if (q->kernel && q->kernel[0] && !clb_list_has(KNOWN_KERNELS, q->kernel))
        return clb_eusage("unknown bus kernel '%s' (known: " KNOWN_KERNELS ")", q->kernel);
    if (q->kernel)
        out->host_bound = 1;
    return clb_count_done(q, 0, out, b, 0, b, b, CLB_UNIT_GBPS);
}

/* Random bytes (from the shared generator, never all zero). */
static void fill_bytes(unsigned char *p, size_t n)
{
    size_t nf = n / sizeof(float);
    clb_fill_f32((float *)(void *)p, nf, 7);
    unsigned long long s = 0x9E3779B97F4A7C15ULL;
    for (size_t i = nf * sizeof(float); i < n; i++)
        p[i] = (unsigned char)(clb_rand_next(&s) | 1);
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct bus *st = g->state;
    st->bytes = g->size.total;
    size_t b = st->bytes;
    unsigned want;
    int rc = clb_param_names(env, "kernels", KNOWN_KERNELS, 1, &want);
    if (rc)
        return rc;
    if (3 * b > host_budget() + b / 2)
        return clb_err(CLB_SKIP, "bus: %zu bytes need 3 host copies, more than a quarter of host "
                                 "memory", b);
    /* Drivers may count the pinned buffer against the device's memory too
     * (PoCL's are one memory): both must fit, as they always had to. */
    if ((rc = clb_fits(env->dev, b, 2 * b)))
        return rc;
    st->src = clb_xmalloc(b);
    st->dst = clb_xmalloc(b);
    if (!st->src || !st->dst)
        return CLB_ESYS;
    fill_bytes(st->src, b);
    if ((rc = clb_buffer(env->dev, CL_MEM_READ_WRITE, b, &st->dev)) ||
        (rc = clb_pinned(env, b, "pinned", &st->pin, &st->pptr)))
        return rc;
    for (int k = 0; k < NKERNELS; k++) {
        struct clb_case *c;
        if (!(want >> k & 1))
            continue;
        if ((rc = clb_case_add(g, &c, kernel_names[k], NULL)))
            return rc;
        ((struct bus_case *)c->data)->k = k;
    }
    return CLB_OK;
}

/* Inputs in place and outputs poisoned: a transfer that did not happen fails. */
static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct bus *st = g->state;
    size_t b = st->bytes;
    switch (((const struct bus_case *)c->data)->k) {
    case PAGEABLE_H2D:
        return clb_poison(env->dev, st->dev, b);
    case PINNED_H2D:
        memcpy(st->pptr, st->src, b);
        return clb_poison(env->dev, st->dev, b);
    case PAGEABLE_D2H:
        memset(st->dst, 0xFF, b);
        return clb_write(env->dev, st->dev, st->src, b);
    default:
        memset(st->pptr, 0xFF, b);
        return clb_write(env->dev, st->dev, st->src, b);
    }
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct bus *st = g->state;
    cl_command_queue q = env->dev->queue;
    int k = ((const struct bus_case *)c->data)->k, pinned = k >= PINNED_H2D;
    /* pageable: blocking, from src or into dst; pinned: non-blocking, the mapped pointer */
    cl_bool block = pinned ? CL_FALSE : CL_TRUE;
    void *host = pinned ? st->pptr : k == PAGEABLE_H2D ? st->src : st->dst;
    double t0 = clb_now();
    if (k == PAGEABLE_H2D || k == PINNED_H2D)
        CLB_CHECK(clEnqueueWriteBuffer(q, st->dev, block, 0, st->bytes, host, 0, NULL, NULL),
                  pinned ? "clEnqueueWriteBuffer (pinned)" : "clEnqueueWriteBuffer (pageable)");
    else
        CLB_CHECK(clEnqueueReadBuffer(q, st->dev, block, 0, st->bytes, host, 0, NULL, NULL),
                  pinned ? "clEnqueueReadBuffer (pinned)" : "clEnqueueReadBuffer (pageable)");
    CLB_CHECK(clFinish(q), "clFinish");
    s->seconds = clb_now() - t0;
    return CLB_OK;
}

static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct bus *st = g->state;
    size_t b = st->bytes;
    const unsigned char *got = st->dst;
    int k = ((const struct bus_case *)c->data)->k;
    if (k == PAGEABLE_H2D || k == PINNED_H2D) {
        int rc = clb_read(env->dev, st->dev, st->dst, b);
        if (rc)
            return rc;
    } else if (k == PINNED_D2H) {
        got = st->pptr;
    }
    long first;
    long bad = clb_mismatches(got, st->src, b, 1, 1, 0, &first);
    if (bad) {
        clb_case_note(c, "%ld of %zu bytes wrong (first at %ld)", bad, b, first);
        return CLB_FAIL;
    }
    return CLB_OK;
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    struct bus *st = g->state;
    if (st->pin && st->pptr &&
        clEnqueueUnmapMemObject(env->dev->queue, st->pin, st->pptr, 0, NULL, NULL) == CL_SUCCESS)
        clFinish(env->dev->queue);
    clb_release_mems(&st->pin, 1);
    clb_release_mems(&st->dev, 1);
    free(st->src);
    free(st->dst);
}

/* Does the device work in host memory (a CPU, an integrated GPU)? Then its
 * "transfers" are host-to-host copies and there is no bus to name. Without
 * the device's queries, the rows' device type says it for a CPU. */
static int shares_host_memory(const struct clb_summary_ctx *ctx, const struct clb_row *r)
{
    if (ctx && ctx->info)
        return ctx->info->host_unified;
    return strcmp(r->device_type, "cpu") == 0;
}

/* One line per direction: the best pinned and pageable rates of this run
 * ("-" for a transfer not run: kernels= leaves some out). */
static void summarize(const struct clb_summary_ctx *ctx, const struct clb_row *rows, size_t n,
                      FILE *out)
{
    double best[NKERNELS] = {0};
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < NKERNELS; k++)
            if (strcmp(rows[i].kernel, kernel_names[k]) == 0 && strcmp(rows[i].status, "ok") == 0 &&
                rows[i].gbps > best[k])
                best[k] = rows[i].gbps;
    char f[NKERNELS][16];
    for (int k = 0; k < NKERNELS; k++)
        snprintf(f[k], sizeof f[k], best[k] > 0 ? "%.2f" : "-", best[k]);
    if (n && shares_host_memory(ctx, &rows[0]))
        fprintf(out, "\nbus: no bus: host-to-host copies (the device works in host memory); "
                     "best GB/s  into its buffers pinned %s, pageable %s;  out of them pinned "
                     "%s, pageable %s\n",
                f[PINNED_H2D], f[PAGEABLE_H2D], f[PINNED_D2H], f[PAGEABLE_D2H]);
    else
        fprintf(out, "\nbus: best GB/s  H2D pinned %s, pageable %s;  D2H pinned %s, "
                     "pageable %s\n",
                f[PINNED_H2D], f[PAGEABLE_H2D], f[PINNED_D2H], f[PAGEABLE_D2H]);
}

/* The cases setup will add: the four transfers. */
static int plan(struct clb_env *env, const char *dtype, const struct clb_size *size)
{
    (void)dtype;
    (void)size;
    unsigned want;
    if (clb_param_names(env, "kernels", KNOWN_KERNELS, 1, &want))
        return -1;
    return __builtin_popcount(want);
}

const struct clb_workload clb_wl_bus = {
    .name = "bus",
    .summary = "host<->device transfers: pageable and pinned, H2D and D2H",
    .params = params,
    .size_help = "bytes per transfer, e.g. 4K, 64M, 1G (default: 4 KiB .. 1 GiB in powers of 4, "
                 "capped by memory)",
    .size_dims = 1,
    .size_in_bytes = 1,
    /* every ladder size the device and the host can hold (the buffer <=
     * max_alloc and <= half the memory); CPUs: up to 256 MiB (host to host
     * through the driver; larger sizes only cost set-up time) */
    .sizes = {.quick = "4096,65536,1048576", .sweep = 1, .ladder = ladder, .cap_mib = {256, 0}},
    /* no baselines: transfers are host work, never related to a device copy */
    .state_size = sizeof(struct bus),
    .case_size = sizeof(struct bus_case),
    CLB_STEPS,
    .plan = plan,
    .prepare = prepare,
    .summarize = summarize,
    .figure = {.x_size = 1, .x_bytes = 1, .x_label = "transfer size",
               .order = "pageable_h2d,pageable_d2h,pinned_h2d,pinned_d2h"},
};
