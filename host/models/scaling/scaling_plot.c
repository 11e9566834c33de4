/* `clbench model scaling --plot OUT.svg`: efficiency against the ranks, one
 * line per path, described as a chart (include/clb_chart.h) and drawn by the
 * chart layer as compare --plot and the report draw theirs (clb_chart_files).
 * Only numbers and fixed words are in it. */
#include "clb_chart.h"
#include "scaling.h"

#include <math.h>

int sc_plot(const char *out, const struct clb_sc_point *p, int n, int weak)
{
    if (!out)
        return CLB_OK;
    static const char *const title[3] = {"host-staged (device -> pinned host -> MPI -> device)",
                                         "device to device (NVLink or PCIe on a node, network "
                                         "between nodes)",
                                         "node path (one process per node: device -> pinned "
                                         "host -> device; MPI between nodes)"};
    struct clb_chart ch;
    clb_chart_init(&ch, weak ? "weak scaling: parallel efficiency by ranks (clbench model scaling)"
                             : "strong scaling: parallel efficiency by ranks (clbench model "
                               "scaling)",
                   "ranks", "efficiency E");
    ch.x.scale = CLB_AXIS_LOG2;
    ch.x.every = 2;   /* 1, 2, 4, ... ranks */
    ch.y.lo = 0;
    ch.y.hi = 1.05;
    for (int k = 0; k < 3; k++) {
        struct clb_chart_series *s = NULL;
        for (int i = 0; i < n; i++) {
            if (isnan(p[i].eff[k]))
                continue;
            if (!s && !(s = clb_chart_series(&ch, title[k], CLB_CS_LINESPOINTS, k + 1)))
                break;
            clb_chart_point(&ch, s, p[i].n, p[i].eff[k], NULL);
        }
    }
    int rc, svg;
    if (ch.oom) {
        rc = clb_oom();
    } else if (!clb_chart_measured(&ch, &(double){0}, &(double){0})) {
        rc = clb_eusage("model scaling --plot: no efficiency to plot");
    } else {
        struct clb_drawn d = {.c = &ch, .name = out};
        rc = clb_chart_path_check(out, &svg);
        rc = rc ? rc : clb_chart_files(&d, 1);
        clb_drawn_free(&d, 1);
    }
    clb_chart_free(&ch);
    return rc;
}
