/* The core's model (`clbench model roofline`, the rows' model column): a
 * roofline for any workload row, from the bytes and flops the workload
 * counts (docs/MODELS.md). The study models belong to their workloads
 * (host/workloads/blockeq, host/workloads/dslash); host/models holds the
 * models' registry and the services their run() uses. */
#ifndef CLB_MODEL_H
#define CLB_MODEL_H

#include <stddef.h>
#include <stdio.h>
#include "clb_params.h"

struct clb_model_def;

/* ---- roofline ---------------------------------------------------------- */

struct clb_roofline {
    double bytes, flops;       /* moved / computed by one run */
    double time_s;             /* predicted: max(bytes / bw, flops / peak flops) */
    double gbps, gflops;       /* bytes / time, flops / time */
    int compute_bound;
};

/* Predict with peak bandwidth (GB/s) and peak flops (GFlop/s, NAN: unbounded). */
void clb_roofline_predict(double bytes, double flops, double peak_gbs, double peak_gflops,
                          struct clb_roofline *r);

/* ---- `clbench model` (host/models) ------------------------------------ */

/* What was asked (host/cli/cmd_model.c parses the command line into it). */
struct clb_model_req {
    const char *model, *variant;        /* MODEL; --sim -> "sim" */
    const char *profile, *size, *type;  /* -p, -s, -t */
    const char *workload, *kernel;      /* roofline: -w, -k */
    const char *platforms_dir;
    const char *ceilings, *device;      /* --ceilings FILE, --device NAME */
    const char *results, *plot;         /* scaling: --results FILE[,FILE], --plot OUT */
    struct clb_kvlist params;           /* --param */
};

/* The models' registry: the core's roofline and scaling, then every
 * workload's models.
 * The model of a name and variant (NULL: the plain one), or NULL. */
const struct clb_model_def *clb_model_find(const char *name, const char *variant);
/* "roofline, blockeq, ..." (malloc'd). */
char *clb_model_names(void);
/* The models that have a variant, "a, b" ("" when none; malloc'd). */
char *clb_model_with_variant(const char *variant);
/* Every model and its parameters, as the usage text lists them. */
void clb_model_print_all(FILE *f);
/* Run the model req names (its profile, parameter checks, --ceilings, then
 * the prediction on stdout). CLB_OK, or CLB_EUSAGE/CLB_ESYS with a message. */
int clb_model_run(const struct clb_model_req *req);

#endif
