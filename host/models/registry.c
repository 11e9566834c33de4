/* The models' registry: the core's roofline and scaling (scaling/), then
 * the models each workload declares (struct clb_workload's `models`), in the
 * workloads' order. */
#include "clb_scaling.h"
#include "model_ctx.h"

#include <stdlib.h>
#include <string.h>

const struct clb_model_def *clb_model_find(const char *name, const char *variant)
{
    if (strcmp(name, clb_model_roofline_def.name) == 0)
        return variant ? NULL : &clb_model_roofline_def;
    if (strcmp(name, clb_model_scaling_def.name) == 0)
        return variant ? NULL : &clb_model_scaling_def;
    for (const struct clb_workload *const *w = clb_workload_list(); *w; w++)
        for (const struct clb_model_def *d = (*w)->models; d && d->name; d++)
            if (strcmp(d->name, name) == 0 &&
                ((!variant && !d->variant) || (variant && d->variant && !strcmp(variant, d->variant))))
                return d;
    return NULL;
}

char *clb_model_names(void)
{
    struct clb_buf b = {0};
    clb_buf_printf(&b, "%s, %s", clb_model_roofline_def.name, clb_model_scaling_def.name);
    for (const struct clb_workload *const *w = clb_workload_list(); *w; w++)
        for (const struct clb_model_def *d = (*w)->models; d && d->name; d++)
            if (!d->variant && !clb_list_has(clb_buf_str(&b), d->name))
                clb_buf_printf(&b, ", %s", d->name);
    return b.s;
}

char *clb_model_with_variant(const char *variant)
{
    struct clb_buf with = {0};
    for (const struct clb_workload *const *w = clb_workload_list(); *w; w++)
        for (const struct clb_model_def *d = (*w)->models; d && d->name; d++)
            if (d->variant && !strcmp(d->variant, variant))
                clb_buf_printf(&with, "%s%s", with.len ? ", " : "", d->name);
    return with.s ? with.s : clb_strdup("");
}

static void show_params(FILE *f, const struct clb_model_def *d)
{
    fprintf(f, "  ");
    clb_wrapf(f, 2, 6, "%s%s%s:  %s", d->name, d->variant ? " --" : "", d->variant ? d->variant : "",
              d->summary);
    for (const struct clb_model_param *p = d->params; p->key; p++) {
        fprintf(f, "    %-18s ", p->key);
        clb_wrapf(f, 23, 23, "%s%s%s%s", p->help, p->def ? " (default " : "", p->def ? p->def : "",
                  p->def ? ")" : "");
    }
}

void clb_model_print_all(FILE *f)
{
    show_params(f, &clb_model_roofline_def);
    show_params(f, &clb_model_scaling_def);
    for (const struct clb_workload *const *w = clb_workload_list(); *w; w++)
        for (const struct clb_model_def *d = (*w)->models; d && d->name; d++)
            show_params(f, d);
}
