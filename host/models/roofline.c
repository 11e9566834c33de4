/* The roofline: the time of a run is the longer of moving its bytes at the
 * peak bandwidth and doing its flops at the peak rate. The bytes and flops
 * are the workload's own count (its count() function); this file knows no
 * workload. */
#include "model_ctx.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void clb_roofline_predict(double bytes, double flops, double peak_gbs, double peak_gflops,
                          struct clb_roofline *r)
{
    memset(r, 0, sizeof *r);
    r->bytes = bytes;
    r->flops = flops;
    double t_mem = bytes / (peak_gbs * 1e9);
    double t_fl = (flops > 0 && peak_gflops > 0 && !isnan(peak_gflops))
                      ? flops / (peak_gflops * 1e9) : 0;
    r->compute_bound = t_fl > t_mem;
    r->time_s = fmax(t_mem, t_fl);
    r->gbps = r->time_s > 0 ? bytes / r->time_s / 1e9 : NAN;
    r->gflops = r->time_s > 0 ? flops / r->time_s / 1e9 : NAN;
}

/* ---- `clbench model roofline`: any workload's case ----------------------- */

static const struct clb_model_param roofline_params[] = {
    {"peak_bw", NULL, "GB/s [peak_bandwidth_gbs]"},
    {"peak_gflops", NULL, "GFlop/s [peak_gflops_sp or _dp by type]"},
    {NULL, NULL, NULL},
};

/* The core's own model. A workload of the same name (the empirical
 * roofline) is another thing: `clbench model roofline` is this model, and
 * the interface test exempts this one line from its "the core names no
 * workload" check. */
static const char core_model_name[] = "roofline";

const struct clb_model_def clb_model_roofline_def = {
    core_model_name, NULL, NULL, "time and rate of any workload/kernel/type/size on a profile",
    roofline_params, clb_model_roofline_run};

int clb_model_roofline_run(struct clb_model_ctx *m)
{
    if (!m->req->workload || !m->req->size)
        return clb_eusage("model roofline: give --workload NAME and --size SIZE (and --kernel, "
                          "--type, --param, --profile)");
    const struct clb_workload *wl = clb_workload_find(m->req->workload);
    if (!wl) {
        char *known = clb_workload_names();
        clb_seterr("model roofline: unknown workload '%s' (known: %s)", m->req->workload,
                   known ? known : "");
        free(known);
        return CLB_EUSAGE;
    }
    const char *type = m->req->type ? m->req->type : (wl->dtypes ? "float" : "");
    if (wl->dtypes && !clb_list_has(wl->dtypes, type))
        return clb_eusage("model roofline: %s types are %s, not '%s'", wl->name, wl->dtypes, type);
    struct clb_size sz;
    char err[512];
    if (clb_parse_dims(m->req->size, wl->size_dims, &sz, err, sizeof err))
        return clb_eusage("model roofline: %s: %s", wl->name, err);
    if (wl->check_size && wl->check_size(&sz))
        return CLB_EUSAGE;
    /* Workload parameters (not the model's own) describe the case. */
    struct clb_kvlist wp = {0};
    int rc = CLB_OK;
    for (size_t i = 0; i < m->req->params.n && !rc; i++) {
        const char *key = m->req->params.v[i].key;
        if (strcmp(key, "peak_bw") && strcmp(key, "peak_gflops"))
            rc = clb_kvlist_add_pair(&wp, key, m->req->params.v[i].value);
    }
    struct clb_counts c = {0};
    const char *kernel = m->req->kernel ? m->req->kernel : "";
    if (!rc) {
        struct clb_query q = {kernel, type, &sz, &wp, NULL};
        rc = wl->count(&q, &c);
        if (rc == CLB_EUSAGE && !m->req->kernel) /* the count asks for a kernel: say -k */
            clb_seterr("model roofline: %s %s %s: its count needs a kernel: give -k KERNEL (%s)",
                       wl->name, type, m->req->size, clb_lasterr());
        else if (rc == CLB_EUSAGE)
            clb_seterr("model roofline: %s %s %s %s: %s", wl->name, kernel, type, m->req->size,
                       clb_lasterr());
    }
    clb_kvlist_free(&wp);
    if (rc)
        return rc;
    if (c.host_bound)
        return clb_eusage("model roofline: %s %s runs on the host or over the host link: the "
                          "device-memory roofline does not apply", wl->name, kernel);
    double bw, fl;
    if ((rc = clb_model_num(m, "peak_bw", &bw, 1)) || (rc = clb_model_num(m, "peak_gflops", &fl, 0)))
        return rc;
    if (!(bw > 0))
        return clb_eusage("model roofline: peak_bw must be > 0");
    struct clb_roofline r;
    clb_roofline_predict(c.bytes, c.flops, bw, fl, &r);
    printf("roofline: %s %s %s %s on %s\n", wl->name, kernel, type, m->req->size,
           m->p ? m->p->id : "(no profile)");
    clb_model_show(m, "peak_bw");
    clb_model_show(m, "peak_gflops");
    printf("bytes      %.6g (counted by the %s workload)\nflops      %.6g\nflop/byte  %.4g\n",
           c.bytes, wl->name, c.flops, c.bytes > 0 ? c.flops / c.bytes : 0.0);
    printf("bound      %s\n", r.compute_bound ? "compute" : "memory");
    printf("time       %.6g s\nGB/s       %.6g\nGFlop/s    %.6g\n", r.time_s, r.gbps, r.gflops);
    int gf = c.unit == CLB_UNIT_GFLOPS;
    printf("model      %.6g %s (the row's main unit)\n", gf ? r.gflops : r.gbps,
           gf ? "GFlop/s" : "GB/s");
    return CLB_OK;
}
