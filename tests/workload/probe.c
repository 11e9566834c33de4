/* A workload that lives only in the tests: it proves that a workload plugs
 * into clbench through the public interface alone (include/clb_workload.h),
 * with no line of the core changed. It registers itself at start-up, counts
 * its own bytes and flops, names two baselines, and its kernel file is
 * tests/workload/probe.cl (loaded with --kernel-dir).
 *   copy   out = in          bytes 2N, flops 0
 *   twice  out = 2 in        bytes 2N, flops N   (of_copy=, of_stream_copy=) */
#include "clb_workload.h"

#include <stdlib.h>
#include <string.h>

enum { COPY, TWICE };
static const char *const names[] = {"copy", "twice"};

struct probe_case { int k; };
struct probe { size_t n; struct clb_inout io; cl_kernel k[2]; };

static int count(const struct clb_query *q, struct clb_counts *out)
{
    int ovf = 0;
    size_t bytes = clb_mulz(q->size->total, clb_query_esize(q), &ovf);
    size_t both = clb_mulz(bytes, 2, &ovf);
    if (!q->kernel)
        return clb_count_done(q, ovf, out, both, 0, both, bytes, CLB_UNIT_GBPS);
    int k = strcmp(q->kernel, "copy") == 0 ? COPY : strcmp(q->kernel, "twice") == 0 ? TWICE : -1;
    if (k < 0) {
        clb_seterr("unknown probe kernel '%s' (known: copy, twice)", q->kernel);
        return CLB_EUSAGE;
    }
    return clb_count_done(q, ovf, out, both, k == TWICE ? q->size->total : 0, both, bytes,
                          CLB_UNIT_GBPS);
}

static int setup(struct clb_env *env, struct clb_group *g)
{
    struct probe *st = g->state;
    st->n = g->size.total;
    size_t bytes = st->n * sizeof(float);
    int rc = clb_inout_setup(env, bytes, bytes, 0, 7, CL_MEM_READ_WRITE, &st->io);
    for (int k = 0; k < 2 && !rc; k++)
        rc = clb_kernel(env->dev, "probe", "", names[k], &st->k[k]);
    for (int k = 0; k < 2 && !rc; k++) {
        struct clb_case *c;
        if ((rc = clb_case_add(g, &c, names[k], "scale=%d", k == TWICE ? 2 : 1)))
            break;
        ((struct probe_case *)c->data)->k = k;
        c->dims = 1;
        c->global[0] = st->n;
    }
    return rc;
}

static int prepare(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    (void)c;
    struct probe *st = g->state;
    return clb_poison(env->dev, st->io.dout, st->n * sizeof(float));
}

static int run(struct clb_env *env, struct clb_group *g, struct clb_case *c, struct clb_sample *s)
{
    struct probe *st = g->state;
    cl_kernel k = st->k[((struct probe_case *)c->data)->k];
    int rc = clb_args(k, sizeof(cl_mem), &st->io.din, sizeof(cl_mem), &st->io.dout, (size_t)0);
    return rc ? rc : clb_launch(env->dev, k, 1, &st->n, NULL, &s->first);
}

static int verify(struct clb_env *env, struct clb_group *g, struct clb_case *c)
{
    struct probe *st = g->state;
    int rc = clb_read(env->dev, st->io.dout, st->io.out, st->n * sizeof(float));
    if (rc)
        return rc;
    float *want = malloc(st->n * sizeof(float));
    if (!want)
        return CLB_ESYS;
    float f = ((struct probe_case *)c->data)->k == TWICE ? 2.0f : 1.0f;
    for (size_t i = 0; i < st->n; i++)
        want[i] = f * ((const float *)st->io.in)[i];
    rc = clb_check_exact(c, st->io.out, want, st->n, sizeof(float), sizeof(float));
    free(want);
    return rc;
}

static void teardown(struct clb_env *env, struct clb_group *g)
{
    (void)env;
    struct probe *st = g->state;
    CLB_RELEASE_KERNELS(st->k);
    clb_inout_free(&st->io);
}

static const struct clb_param_def params[] = {{0, 0, 0, 0}};

static const struct clb_workload probe = {
    .name = "probe",
    .summary = "the interface test's workload (tests/workload/probe.c)",
    .dtypes = "float",
    .default_dtypes = "float",
    .params = params,
    .size_help = "elements N",
    .size_dims = 1,
    .sizes = {.quick = "65536", .llc_times = 4, .floor_mib = {16, 64}},
    .baselines = "stream/copy,probe/copy",
    .state_size = sizeof(struct probe),
    .case_size = sizeof(struct probe_case),
    CLB_STEPS,
    .prepare = prepare,
};

__attribute__((constructor)) static void register_probe(void)
{
    if (clb_workload_register(&probe) != 0)
        abort();
}
