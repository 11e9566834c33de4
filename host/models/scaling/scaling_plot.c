/* `clbench model scaling --plot OUT.svg`: efficiency against the ranks, one
 * line per path, drawn through compare's gnuplot path (clb_plot_draw). Only
 * numbers and fixed words reach gnuplot. */
#include "clb_compare.h"
#include "scaling.h"

#include <math.h>

int sc_plot(const char *out, const struct clb_sc_point *p, int n, int weak)
{
    if (!out)
        return CLB_OK;
    static const char *const title[2] = {"host-staged (device -> pinned host -> MPI -> device)",
                                         "device to device (NVLink or PCIe on a node, network "
                                         "between nodes)"};
    struct clb_buf body = {0}, data = {0};
    int blocks = 0;
    for (int k = 0; k < 2; k++) {
        int any = 0;
        for (int i = 0; i < n; i++) {
            if (isnan(p[i].eff[k]))
                continue;
            if (!any++)
                clb_buf_printf(&data, "%s# %s\n", blocks ? "\n\n" : "", title[k]);
            clb_buf_printf(&data, "%d\t%.6g\n", p[i].n, p[i].eff[k]);
        }
        if (!any)
            continue;
        clb_buf_printf(&body, "%s'fig1.dat' index %d using 1:2 with linespoints lw 2 pt %d "
                              "title '%s'", blocks ? ", \\\n     " : "plot ", blocks, 5 + 2 * k,
                       title[k]);
        blocks++;
    }
    if (!blocks) {
        clb_buf_free(&body);
        clb_buf_free(&data);
        clb_seterr("model scaling --plot: no efficiency to plot");
        return CLB_EUSAGE;
    }
    struct clb_buf s = {0};
    clb_buf_printf(&s, "set encoding utf8\nset datafile separator tab\nset title '%s scaling: "
                       "parallel efficiency by ranks (clbench model scaling)'\nset xlabel "
                       "'ranks'\nset ylabel 'efficiency E'\nset logscale x 2\nset yrange "
                       "[0:1.05]\nset grid\nset key outside below left Left reverse maxcols 1\n"
                       "%s\n", weak ? "weak" : "strong", clb_buf_str(&body));
    int rc = s.oom || data.oom ? CLB_ESYS : clb_plot_draw(out, clb_buf_str(&s), clb_buf_str(&data));
    clb_buf_free(&s);
    clb_buf_free(&body);
    clb_buf_free(&data);
    return rc;
}
