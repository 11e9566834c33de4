/* Roofline predictions for any workload row: the bytes and flops clbench
 * counts for it (SPEC 7), peak bandwidth x intensity, capped by peak flops. */
#include "clb_model.h"
#include "clb_params.h"
#include "clb_workload.h"
#include "clbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* stream kernels: elements read + written, flops per element (SPEC 7). */
static const struct { const char *kernel; double moved, flops; } stream_k[] = {
    {"copy", 2, 0}, {"scale", 2, 1}, {"add", 3, 1}, {"triad", 3, 2},
};
/* 2-D workloads: read n x m, write n x m. */
static const char *const two_d[] = {"copy2d", "transpose", "blockeq", NULL};

static int parse_size(const char *workload, const char *size, int dims, struct clb_size *s)
{
    char err[256];
    if (clb_parse_dims(size, dims, s, err, sizeof err)) {
        clb_seterr("roofline: %s: %s", workload, err);
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

/* dslash kernel names: "", "rhs=R" (R in 1..64); links compressed. */
static int dslash_rhs(const char *kernel, int *rhs)
{
    *rhs = 1;
    if (!kernel || !*kernel)
        return CLB_OK;
    char *end;
    long v = strncmp(kernel, "rhs=", 4) == 0 ? strtol(kernel + 4, &end, 10) : 0;
    if (v < 1 || v > 64 || *end) {
        clb_seterr("roofline: dslash kernel '%s' (expected rhs=R with R in 1..64)", kernel);
        return CLB_EUSAGE;
    }
    *rhs = (int)v;
    return CLB_OK;
}

int clb_roofline_work(const char *workload, const char *kernel, const char *dtype,
                      const char *size, double *bytes, double *flops, int *main_gflops)
{
    size_t es = clb_dtype_size(dtype ? dtype : "");
    if (!es) {
        clb_seterr("roofline: unknown type '%s' (known: float, double, float2, float3, "
                   "float4, ...)", dtype ? dtype : "");
        return CLB_EUSAGE;
    }
    struct clb_size s;
    *main_gflops = 0;
    *flops = 0;
    if (strcmp(workload, "stream") == 0 || strcmp(workload, "dot") == 0) {
        double moved = 2, fl = 2;   /* dot: x and y read, a multiply-add each */
        if (kernel && strstr(kernel, "sumsq"))
            moved = 1;              /* x = y: one vector */
        if (strcmp(workload, "stream") == 0) {
            size_t i = 0, nk = sizeof stream_k / sizeof *stream_k;
            while (i < nk && strcmp(stream_k[i].kernel, kernel ? kernel : ""))
                i++;
            if (i == nk) {
                clb_seterr("roofline: unknown stream kernel '%s' (known: copy, scale, add, "
                           "triad)", kernel ? kernel : "");
                return CLB_EUSAGE;
            }
            moved = stream_k[i].moved;
            fl = stream_k[i].flops;
        }
        if (parse_size(workload, size, 1, &s))
            return CLB_EUSAGE;
        *bytes = moved * (double)s.total * (double)es;
        *flops = fl * (double)s.total;
        return CLB_OK;
    }
    for (int i = 0; two_d[i]; i++)
        if (strcmp(two_d[i], workload) == 0) {
            if (parse_size(workload, size, 2, &s))
                return CLB_EUSAGE;
            *bytes = 2.0 * (double)s.total * (double)es;
            return CLB_OK;
        }
    if (strcmp(workload, "matmul") == 0) {
        if (parse_size(workload, size, 1, &s))
            return CLB_EUSAGE;
        double n = (double)s.total;
        *bytes = 3.0 * n * n * (double)es;
        *flops = 2.0 * n * n * n;
        *main_gflops = 1;
        return CLB_OK;
    }
    if (strcmp(workload, "dslash") == 0) {
        int rhs;
        if (dslash_rhs(kernel, &rhs) || parse_size(workload, size, 4, &s))
            return CLB_EUSAGE;
        if (es != 4 && es != 8) {
            clb_seterr("roofline: dslash types are float and double, not '%s'", dtype);
            return CLB_EUSAGE;
        }
        double even = (double)s.total / 2.0;
        *bytes = even * clb_dslash_bytes_site(rhs, 0.0, 1, es);
        *flops = even * clb_dslash_flops_site(rhs);
        *main_gflops = 1;
        return CLB_OK;
    }
    clb_seterr("roofline: no model for workload '%s' (known: stream, copy2d, transpose, "
               "blockeq, dot, matmul, dslash; bus is bound by the host link)", workload);
    return CLB_EUSAGE;
}

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
