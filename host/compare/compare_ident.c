/* clbench compare: what a line is (docs/COMPARE.md, "Line identity"): a
 * row's workload, kernel, type, size and case parameters; the tuning ones
 * (their roles declared by each workload, clb_param_role_of) are shown
 * beside the line, never part of it, so that a profile change that moves
 * `local` or `vec` sets the new rows against the old ones instead of making
 * every line "only new". A row whose launch was reduced to fit the device
 * (metric `reduced`) is what ran, not the case as asked: its whole params
 * are its identity, marked " [reduced]", so it only meets a row reduced the
 * same way. */
#include "compare_priv.h"
#include "clb_workload.h"

#include <string.h>

/* A reduced row's identity: every item of params list p, then the mark. */
static const char *reduced_cases(struct cmp_in *in, int p)
{
    const char *all = cmp_in_params_join(in, p, NULL, 0);
    if (!all)
        return NULL;
    struct clb_buf b = {0};
    clb_buf_printf(&b, "%s%s[reduced]", all, all[0] ? " " : "");
    return cmp_in_take(in, &b);
}

/* The case and tuning items of params list p for the row's workload, each
 * (plist, workload, reduced) split once. */
static const struct cmp_split *split_of(struct cmp_in *in, int p, const char *workload,
                                        int reduced)
{
    in->splitmap.nk = 3;
    uint64_t k[3] = {(uint64_t)p, CMP_KEY(workload), (uint64_t)reduced};
    int s = cmp_slot(&in->splitmap, k, (void **)&in->split, (int)in->nsplit, &in->capsplit,
                     sizeof *in->split);
    if (s < -1)
        return NULL;
    if (s == (int)in->nsplit) {
        const struct clb_workload *wl = clb_workload_find(workload);
        struct cmp_split *sp = &in->split[s];
        if (reduced) {
            sp->cases = reduced_cases(in, p);
            sp->tuning = "";
        } else {
            sp->cases = cmp_in_params_join(in, p, wl, CLB_ROLE_CASE);
            sp->tuning = sp->cases ? cmp_in_params_join(in, p, wl, CLB_ROLE_TUNING) : NULL;
        }
        if (!sp->cases || !sp->tuning)
            return NULL;
        in->nsplit++;
    }
    return &in->split[s];
}

int cmp_ident(struct cmp_in *in, size_t row, enum cmp_size_mode mode, struct cmp_ident *id)
{
    const struct clb_row *r = &in->set.v[row];
    int reduced = clb_row_flag(r, "reduced") == 1;
    const struct cmp_split *sp = split_of(in, in->plist[row], r->workload, reduced);
    if (!sp)
        return clb_oom();
    const char *size = in->sizes[in->size[row]].canon;
    *id = (struct cmp_ident){.workload = r->workload, .kernel = r->kernel, .dtype = r->dtype,
                             .size = size, .cases = sp->cases, .row_size = size,
                             .tuning = sp->tuning, .size_default = clb_row_size_default(r),
                             .reduced = reduced};
    if (mode == CMP_SIZE_ANY || (mode == CMP_SIZE_DEFAULT && id->size_default == 1)) {
        const char *word = mode == CMP_SIZE_ANY ? "any" : "default";
        if (!(id->size = cmp_in_intern(in, word, strlen(word))))
            return clb_oom();
    }
    return CLB_OK;
}

void cmp_ident_key(const struct cmp_ident *id, uint64_t *key)
{
    const uint64_t k[CMP_IDENT_NK] = {CMP_KEY(id->workload), CMP_KEY(id->kernel),
                                      CMP_KEY(id->dtype), CMP_KEY(id->size), CMP_KEY(id->cases)};
    memcpy(key, k, sizeof k);
}
