/* The models' private header (host/models): the context a model's run()
 * gets, and the core's roofline model. */
#ifndef CLB_MODEL_CTX_H
#define CLB_MODEL_CTX_H

#include "clb_model.h"
#include "clb_workload.h"
#include "../core/core.h"

struct clb_model_ctx {
    const struct clb_model_req *req;   /* what was asked */
    struct clb_profiles ps;
    const struct clb_profile *p;
    const struct clb_model_def *def;
    struct clb_buf scratch;   /* a [device] figure as text */
    struct clb_ceilings ceil;
    int have_ceil;
    /* the measured figures as text, by ceiling_slot(), and where each kind came
     * from: made once, so that the pointers handed out stay valid */
    char ctext[6][32];
    char *corigin[CLB_NCEILINGS];
};

/* The core's own model (roofline.c), first in the registry. */
extern const struct clb_model_def clb_model_roofline_def;
int clb_model_roofline_run(struct clb_model_ctx *m);

#endif
