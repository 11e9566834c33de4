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

struct clb_profile;

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

/* ---- a workload's models (host/models/context.c) ------------------------ */

/* A model a workload offers to `clbench model NAME` (e.g. the study's closed
 * form). Parameters resolve as --param, profile [model] NAME.KEY, a figure of
 * the profile's [device] section, then def. */
struct clb_model_param {
    const char *key, *def, *help;
};
struct clb_model_ctx;
struct clb_model_def {
    const char *name;           /* `clbench model NAME` */
    const char *variant;        /* NULL, or the flag that selects it (e.g. "sim": --sim) */
    const char *prefix;         /* of its profile [model] keys; NULL: name */
    const char *summary;
    const struct clb_model_param *params;   /* terminated by {0} */
    int (*run)(struct clb_model_ctx *m);
};

/* The services a model's run() uses (host/models/context.c). */
const struct clb_profile *clb_model_profile(const struct clb_model_ctx *m);
const char *clb_model_size(const struct clb_model_ctx *m);   /* -s, or NULL */
const char *clb_model_type(const struct clb_model_ctx *m);   /* -t, or NULL */
/* A parameter's text (NULL when nobody sets it) and where it came from. */
const char *clb_model_text(struct clb_model_ctx *m, const char *key, const char **origin);
/* A parameter as a number >= 0: CLB_EUSAGE with a message when bad, or when
 * required and not set (*out NAN when optional and not set). */
int clb_model_num(struct clb_model_ctx *m, const char *key, double *out, int required);
/* Print "  key  value  (origin)". */
void clb_model_show(struct clb_model_ctx *m, const char *key);
/* With --ceilings FILE: when the file lacks the measured figure that stands
 * for parameter `key`, what is missing there and how to measure it
 * (malloc'd), else NULL. */
char *clb_model_ceiling_missing(struct clb_model_ctx *m, const char *key);
/* The --param values given (for list-valued parameters a model parses itself). */
int clb_model_given(const struct clb_model_ctx *m, const char *key);

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
