/* bus: host<->device transfers, the ceiling of every computation whose data
 * starts in host memory (see dot's host and hybrid kernels).
 *   pageable_h2d / pageable_d2h  malloc'd memory, blocking clEnqueueWrite/ReadBuffer
 *   pinned_h2d / pinned_d2h      a CL_MEM_ALLOC_HOST_PTR buffer, mapped once; its
 *                                mapped pointer is the source / target of a
 *                                non-blocking transfer followed by clFinish
 * Size = bytes per transfer; wall-clock timed around the enqueue and the
 * clFinish. Every transfer's data is checked byte for byte. */
#include "clb_workload.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { PAGEABLE_H2D, PAGEABLE_D2H, PINNED_H2D, PINNED_D2H, NKERNELS };
static const char *const kernel_names[NKERNELS] = {"pageable_h2d", "pageable_d2h",
                                                   "pinned_h2d", "pinned_d2h"};

static const struct clb_param_def params[] = {{0, 0, 0}};

struct bus {
    size_t bytes;
    unsigned char *src;     /* pageable: the data every transfer carries */
    unsigned char *dst;     /* pageable: read-back target */
    cl_mem pin;             /* pinned host buffer ... */
    unsigned char *pptr;    /* ... and its mapped pointer */
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

static void default_sizes(const struct clb_env *env, const char *dtype, char *out, size_t n)
{
    (void)dtype;
    out[0] = 0;
    if (env->quick) {
        snprintf(out, n, "4096,65536,1048576");
        return;
    }
    /* 4 KiB .. 1 GiB in powers of 4, capped by the device buffer limits and
     * by host memory (three host copies: source, read-back, pinned). */
    size_t cap = clb_max_buffer(env, 2), hcap = host_budget() / 3;
    if (hcap < cap)
        cap = hcap;
    for (size_t b = 4096; b <= ((size_t)1 << 30) && b <= cap; b *= 4)
        clb_appendf(out, n, "%s%zu", out[0] ? "," : "", b);
    if (!out[0])
        snprintf(out, n, "4096");
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
    struct bus *st = calloc(1, sizeof *st);
    if (!st)
        return CLB_ESYS;
    g->state = st;
    st->bytes = g->size.total;
    size_t b = st->bytes;
    int rc;
    if (3 * b > host_budget() + b / 2) {
        clb_seterr("bus: %zu bytes need 3 host copies, more than a quarter of host memory", b);
        return CLB_SKIP;
    }
    if ((rc = clb_fits(env->dev, b, 2 * b)))
        return rc;
    st->src = clb_xmalloc(b);
    st->dst = clb_xmalloc(b);
    if (!st->src || !st->dst)
        return CLB_ESYS;
    fill_bytes(st->src, b);
    if ((rc = clb_buffer(env->dev, CL_MEM_READ_WRITE, b, &st->dev)) ||
        (rc = clb_buffer(env->dev, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, b, &st->pin)))
        return rc;
    cl_int err;
    st->pptr = clEnqueueMapBuffer(env->dev->queue, st->pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                  0, b, 0, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        st->pptr = NULL;
        clb_seterr("clEnqueueMapBuffer (pinned, %zu bytes): %s", b, clb_cl_errstr(err));
        return CLB_ECL;
    }
    for (int k = 0; k < NKERNELS; k++) {
        struct clb_case *c = clb_case_add(g, kernel_names[k], NULL);
        if (!c)
            return CLB_ESYS;
        c->iarg[0] = k;
        c->bytes = (double)b;
    }
    return CLB_OK;
}

/* Inputs in place and outputs poisoned: a transfer that did not happen fails. */
static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct bus *st = g->state;
    size_t b = st->bytes;
    switch (c->iarg[0]) {
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
    size_t b = st->bytes;
    double t0 = clb_now();
    switch (c->iarg[0]) {
    case PAGEABLE_H2D:
        CLB_CHECK(clEnqueueWriteBuffer(q, st->dev, CL_TRUE, 0, b, st->src, 0, NULL, NULL),
                  "clEnqueueWriteBuffer (pageable)");
        break;
    case PAGEABLE_D2H:
        CLB_CHECK(clEnqueueReadBuffer(q, st->dev, CL_TRUE, 0, b, st->dst, 0, NULL, NULL),
                  "clEnqueueReadBuffer (pageable)");
        break;
    case PINNED_H2D:
        CLB_CHECK(clEnqueueWriteBuffer(q, st->dev, CL_FALSE, 0, b, st->pptr, 0, NULL, NULL),
                  "clEnqueueWriteBuffer (pinned)");
        break;
    default:
        CLB_CHECK(clEnqueueReadBuffer(q, st->dev, CL_FALSE, 0, b, st->pptr, 0, NULL, NULL),
                  "clEnqueueReadBuffer (pinned)");
        break;
    }
    CLB_CHECK(clFinish(q), "clFinish");
    s->seconds = clb_now() - t0;
    return CLB_OK;
}

static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct bus *st = g->state;
    size_t b = st->bytes;
    const unsigned char *got = st->dst;
    int k = (int)c->iarg[0];
    if (k == PAGEABLE_H2D || k == PINNED_H2D) {
        int rc = clb_read(env->dev, st->dev, st->dst, b);
        if (rc)
            return rc;
    } else if (k == PINNED_D2H) {
        got = st->pptr;
    }
    if (memcmp(got, st->src, b) != 0) {
        size_t first = 0, bad = 0;
        for (size_t i = b; i-- > 0;)
            if (got[i] != st->src[i]) {
                bad++;
                first = i;
            }
        clb_case_note(c, "%zu of %zu bytes wrong (first at %zu)", bad, b, first);
        return CLB_FAIL;
    }
    return CLB_OK;
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    struct bus *st = g->state;
    if (!st)
        return;
    if (st->pin && st->pptr &&
        clEnqueueUnmapMemObject(env->dev->queue, st->pin, st->pptr, 0, NULL, NULL) == CL_SUCCESS)
        clFinish(env->dev->queue);
    if (st->pin) clReleaseMemObject(st->pin);
    if (st->dev) clReleaseMemObject(st->dev);
    free(st->src);
    free(st->dst);
    free(st);
    g->state = NULL;
}

/* One line per direction: the best pinned and pageable rates of this run. */
static void summarize(const struct clb_row *rows, size_t n, FILE *out)
{
    double best[NKERNELS] = {0};
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < NKERNELS; k++)
            if (strcmp(rows[i].kernel, kernel_names[k]) == 0 && strcmp(rows[i].status, "ok") == 0 &&
                rows[i].gbps > best[k])
                best[k] = rows[i].gbps;
    fprintf(out, "\nbus: best GB/s  H2D pinned %.2f, pageable %.2f;  D2H pinned %.2f, pageable "
                 "%.2f\n",
            best[PINNED_H2D], best[PAGEABLE_H2D], best[PINNED_D2H], best[PAGEABLE_D2H]);
}

const struct clb_workload clb_wl_bus = {
    .name = "bus",
    .summary = "host<->device transfers: pageable and pinned, H2D and D2H",
    .dtypes = NULL,
    .default_dtypes = NULL,
    .params = params,
    .size_help = "bytes per transfer, e.g. 4K, 64M, 1G (default: 4 KiB .. 1 GiB in powers of 4, "
                 "capped by memory)",
    .size_dims = 1,
    .default_sizes = default_sizes,
    .setup = setup,
    .prepare = prepare,
    .run = run,
    .verify = verify,
    .teardown = teardown,
    .summarize = summarize,
};
