/* `clbench model scaling`: from the plain and the 1-rank distributed rows of
 * one device, the time per operator application, its halo share and the
 * parallel efficiency on N ranks, host-staged and device to device
 * (docs/SCALING.md "The scaling model"). */
#include "scaling.h"
#include "../model_ctx.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int run(struct clb_model_ctx *m);

static const struct clb_model_param params[] = {
    {"scaling", "weak", "weak (-s: each rank's part) or strong (-s: the whole lattice)"},
    {"ranks", "1..4096", "N: a list (1,2,8) or a..b, the powers of 2 from a to b"},
    {"grid", "auto", "auto (the fewest halo bytes per rank, x never split) or 1xAxBxC"},
    {"rhs", NULL, "the rows' rhs= (default: the only one in the results)"},
    {"links", NULL, "the rows' links= (default: the only one in the results)"},
    {"gpus_per_node", "8", "ranks (GPUs) per node"},
    {"shm_gbps", NULL, "GB/s, host-staged MPI between two ranks of a node, per direction "
                       "(default: the N-rank rows' measured mpi_gbps)"},
    {"p2p", "nvlink", "device to device on a node: nvlink or pcie"},
    {"nvlink_gbps", "450", "GB/s per direction, NVLink 4 (H100 SXM: 900 GB/s both ways)"},
    {"pcie_gbps", "63", "GB/s per direction, PCIe 5.0 x16 (32 GT/s x 16, 128b/130b)"},
    {"net_gbps", "50", "GB/s per direction and rank between nodes (InfiniBand NDR 400 Gb/s, "
                       "one adapter per GPU)"},
    {"net_lat_us", "2", "microseconds per exchange between nodes"},
    {"node_gbps", NULL, "GB/s each way of the node path (device -> pinned host -> device, "
                        "both ways at once, every GPU of the node on the bus; default: the "
                        "N-device rows' measured node_d2h_gbps and node_h2d_gbps)"},
    {NULL, NULL, NULL}};

const struct clb_model_def clb_model_scaling_def = {
    "scaling", NULL, NULL,
    "N ranks (1..4096) of dslash or cg from one device's plain and 1-rank distributed rows "
    "(--results FILE): time per application, halo share, efficiency, host-staged and device "
    "to device",
    params, run};

/* ---- inputs ------------------------------------------------------------------------- */

/* Print untrusted text (a results file's) with only printable ASCII. */
static void put_text(const char *s)
{
    for (; *s; s++)
        putchar(*s >= 0x20 && *s < 0x7f ? *s : '?');
}

/* The same into a buffer (text to wrap). */
static void add_text(struct clb_buf *b, const char *s)
{
    for (; *s; s++)
        clb_buf_printf(b, "%c", *s >= 0x20 && *s < 0x7f ? *s : '?');
}

static int read_results(const char *list, struct clb_rowset *set)
{
    int n = 0, rc = CLB_OK;
    char **paths = clb_split(list, &n);
    if (!paths)
        return CLB_ESYS;
    for (int i = 0; i < n && rc == CLB_OK; i++)
        rc = clb_results_read(paths[i], set);
    free(paths); /* one block: the pointers and the text */
    return rc;
}

/* ranks=: a list, or a..b (the powers of 2 from a to b). */
static int parse_ranks(const char *v, long *out, int max, int *n)
{
    char *pow2 = strstr(v, "..") && !strpbrk(v, ":,") ? clb_asprintf("%s:*2", v) : NULL;
    *n = clb_parse_int_list(pow2 ? pow2 : v, 1, 1000000, out, max, NULL, 0);
    free(pow2);
    if (*n > 0)
        return CLB_OK;
    return clb_eusage("model scaling: ranks=%s is not a list of counts (1,2,8) or a..b "
                      "(1..4096)", v);
}

/* grid=1xAxBxC into P (1 when auto): each extent a whole number, their
 * product at most 1000000 ranks, multiplied only after each is bounded (a
 * product of the extents given overflowed a long: 1x2^32+2x... read as 1x2x2x2). */
static int parse_grid(const char *v, int P[4], int *fixed)
{
    *fixed = strcmp(v, "auto") != 0;
    if (!*fixed)
        return CLB_OK;
    long e[4];
    long n = !clb_sc_grid_parse(v, e) && e[0] == 1 ? e[1] * e[2] : 0; /* each <= 10^6 */
    if (!n || n > 1000000 || n * e[3] > 1000000)
        return clb_eusage("model scaling: grid=%s is not auto or 1xAxBxC of at most 1000000 ranks "
                          "(x is never split)", v);
    for (int i = 0; i < 4; i++)
        P[i] = (int)e[i];
    return CLB_OK;
}

static int parse_lattice(const char *v, int L[4])
{
    if (sc_lattice(v, L) == 0)
        return CLB_OK;
    return clb_eusage("model scaling: -s %s is not a lattice LxxLyxLzxLt of even extents >= 4", v);
}

/* The links' figures (params) and the message rate of the rows. */
static int read_links(struct clb_model_ctx *m, const struct sc_rows *rows,
                      struct clb_sc_links *k, const char **shm_origin)
{
    double per, nv, pc, lat, node;
    int rc;
    if ((rc = clb_model_num(m, "gpus_per_node", &per, 1)) ||
        (rc = clb_model_num(m, "node_gbps", &node, 0)) ||
        (rc = clb_model_num(m, "shm_gbps", &k->shm_gbps, 0)) ||
        (rc = clb_model_num(m, "nvlink_gbps", &nv, 1)) ||
        (rc = clb_model_num(m, "pcie_gbps", &pc, 1)) ||
        (rc = clb_model_num(m, "net_gbps", &k->net_gbps, 1)) ||
        (rc = clb_model_num(m, "net_lat_us", &lat, 1)))
        return rc;
    const char *origin, *p2p = clb_model_text(m, "p2p", &origin);
    if (strcmp(p2p, "nvlink") && strcmp(p2p, "pcie"))
        return clb_eusage("model scaling: p2p=%s (known: nvlink, pcie)", p2p);
    if (!(per >= 1) || !(nv > 0) || !(pc > 0) || !(k->net_gbps > 0) || k->shm_gbps == 0 ||
        node == 0) {
        return clb_eusage("model scaling: gpus_per_node must be >= 1 and every GB/s > 0");
    }
    k->per_node = (int)per;
    k->p2p_gbps = strcmp(p2p, "nvlink") ? pc : nv;
    k->net_lat_s = lat * 1e-6;
    *shm_origin = "--param or profile";
    if (isnan(k->shm_gbps) && !isnan(rows->shm_gbps)) {
        k->shm_gbps = rows->shm_gbps;
        *shm_origin = "the N-rank rows' mpi_gbps";
    }
    k->node_d2h_gbps = k->node_h2d_gbps = node;
    if (isnan(node)) {
        k->node_d2h_gbps = rows->node[0];
        k->node_h2d_gbps = rows->node[1];
    }
    return CLB_OK;
}

/* ---- output ------------------------------------------------------------------------ */

/* The link figures and where each came from (a default: docs/SCALING.md
 * gives its source). */
static void show_links(struct clb_model_ctx *m)
{
    static const char *const keys[] = {"gpus_per_node", "p2p", "nvlink_gbps", "pcie_gbps",
                                       "net_gbps", "net_lat_us"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const char *origin, *v = clb_model_text(m, keys[i], &origin);
        int def = !clb_model_given(m, keys[i]) && strncmp(origin, "profile", 7) != 0;
        printf("  %-18s %-14s (%s)\n", keys[i], v ? v : "-",
               def ? "default; its source: docs/SCALING.md" : origin);
    }
}

static void show_rows(const struct sc_rows *rows, const struct clb_sc_dev *d)
{
    const struct clb_row *r[2] = {rows->plain, rows->dist};
    static const char *const name[2] = {"plain row  ", "1-rank row "};
    struct clb_buf b = {0};
    for (int i = 0; i < 2; i++) {
        b.len = 0;
        clb_buf_printf(&b, "%s run ", name[i]);
        add_text(&b, r[i]->run_id);
        clb_buf_printf(&b, ", ");
        add_text(&b, r[i]->size);
        clb_buf_printf(&b, " ");
        add_text(&b, r[i]->params);
        clb_buf_printf(&b, ": %.4g ms per repetition", 1e3 * r[i]->t_median_s);
        clb_wrap(stdout, 0, 12, clb_buf_str(&b));
    }
    clb_buf_free(&b);
    clb_wrapf(stdout, 0, 2, "per application: plain %.4g ns per even site (%.4g GB/s of device "
              "memory); the 1-rank run's kernels %.4g ms, interior %.4g ms, pack %.4g ms, halo "
              "%.4g MB, chain %.4g ms after the pack (%s, bus %.4g / %.4g GB/s)", 1e9 * d->tau,
              d->plain_gbps, 1e3 * d->rest, 1e3 * d->in, 1e3 * d->pack, d->halo_bytes / 1e6,
              1e3 * d->chain, d->pipelined ? "pipelined" : "one step after the other",
              d->d2h_gbps, d->h2d_gbps);
}

static void show_point(const struct clb_sc_point *p)
{
    char g[48], part[48];
    snprintf(g, sizeof g, "1x%dx%dx%d", p->P[1], p->P[2], p->P[3]);
    snprintf(part, sizeof part, "%dx%dx%dx%d", p->part[0], p->part[1], p->part[2], p->part[3]);
    printf("%5d %-11s %-14s %7.4g %3s", p->n, g, part, p->halo_bytes / 1e6,
           p->off_node ? "net" : "");
    for (int k = 0; k < 2; k++) {   /* a row is one line within 100 columns */
        if (isnan(p->t[k]))
            printf(" | %9s %6s %6s", "-", "-", "-");
        else
            printf(" | %9.4g %5.1f%% %6.3f", 1e3 * p->t[k], 100 * p->share[k], p->eff[k]);
    }
    printf("\n");
}

/* The node path beside (docs/SCALING.md "One process, several devices"). */
static void show_node(const struct clb_sc_point *p, int n)
{
    clb_wrap(stdout, 0, 2, "node path: one process drives the GPUs of a node (--devices-per-rank), "
                           "their halos device -> pinned host -> device; host-staged MPI between "
                           "nodes");
    printf("%5s %6s  %-12s | %-23s\n", "", "ranks", "grid", "node path ms  halo   E");
    for (int i = 0; i < n; i++) {
        char g[48];
        snprintf(g, sizeof g, "1x%dx%dx%d", p[i].P[1], p[i].P[2], p[i].P[3]);
        if (isnan(p[i].t[2]))
            printf("node: %6d  %-12s | %9s %6s %6s\n", p[i].n, g, "-", "-", "-");
        else
            printf("node: %6d  %-12s | %9.4g %5.1f%% %6.3f\n", p[i].n, g, 1e3 * p[i].t[2],
                   100 * p[i].share[2], p[i].eff[2]);
    }
}

/* ---- the model ------------------------------------------------------------------------ */

struct sc_case {
    int L[4], weak, P[4], fixed;
    long ranks[64];
    int nranks;
};

static int read_case(struct clb_model_ctx *m, const struct clb_sc_dev *d, struct sc_case *c)
{
    const char *origin, *sc = clb_model_text(m, "scaling", &origin);
    if (strcmp(sc, "weak") && strcmp(sc, "strong"))
        return clb_eusage("model scaling: scaling=%s (known: weak, strong)", sc);
    c->weak = !strcmp(sc, "weak");
    int rc = parse_grid(clb_model_text(m, "grid", &origin), c->P, &c->fixed);
    if (rc == CLB_OK && c->fixed) {
        c->ranks[0] = (long)c->P[1] * c->P[2] * c->P[3];
        c->nranks = 1;
    } else if (rc == CLB_OK) {
        rc = parse_ranks(clb_model_text(m, "ranks", &origin), c->ranks, 64, &c->nranks);
    }
    if (rc == CLB_OK && clb_model_size(m))
        rc = parse_lattice(clb_model_size(m), c->L);
    else if (rc == CLB_OK)
        memcpy(c->L, d->part, sizeof c->L);
    return rc;
}

static int predict_all(struct clb_model_ctx *m, const struct clb_sc_dev *d,
                       const struct clb_sc_links *k, const struct sc_case *c);

static int run(struct clb_model_ctx *m)
{
    const char *res = m->req->results;
    if (!res)
        return clb_eusage("model scaling: give --results FILE[,FILE...] (the plain and the 1-rank "
                          "distributed rows of one device: docs/SCALING.md)");
    struct clb_rowset set = {0};
    struct sc_rows rows;
    struct clb_sc_dev d;
    struct clb_sc_links k;
    struct sc_case c = {0};
    const char *origin, *shm_origin;
    struct sc_pick p = {m->req->device, m->req->workload, m->req->kernel,
                        clb_model_type(m), clb_model_text(m, "rhs", &origin),
                        clb_model_text(m, "links", &origin)};
    int L0[4], have_l = clb_model_size(m) && parse_lattice(clb_model_size(m), L0) == CLB_OK;
    int rc = read_results(res, &set);
    if (rc == CLB_OK)
        rc = sc_rows_pick(&set, &p, have_l ? L0 : NULL, &rows);
    if (rc == CLB_OK && !(rc = sc_rows_device(&rows, &d)) && !(rc = read_links(m, &rows, &k, &shm_origin)) &&
        !(rc = read_case(m, &d, &c))) {
        printf("scaling: ");
        put_text(rows.dist->workload);
        printf(" ");
        put_text(rows.dist->kernel);
        printf(" %s on '", rows.dist->dtype);
        put_text(rows.dist->device);
        printf("'\n");
        show_rows(&rows, &d);
        show_links(m);
        if (isnan(k.shm_gbps))
            clb_wrap(stdout, 0, 21, "  shm_gbps           unknown: no N-rank row measured it and "
                                    "none given; the host-staged column needs it (--param "
                                    "shm_gbps=G)");
        else
            printf("  shm_gbps           %.4g (%s)\n", k.shm_gbps, shm_origin);
        if (!(k.node_d2h_gbps > 0))
            clb_wrap(stdout, 0, 21, "  node_gbps          unknown: no N-device row measured it and "
                                    "none given; the node path's column needs it (--param "
                                    "node_gbps=G)");
        else
            clb_wrapf(stdout, 0, 21, "  node_gbps          %.4g / %.4g (%s)", k.node_d2h_gbps,
                      k.node_h2d_gbps,
                   clb_model_given(m, "node_gbps") ? "--param"
                                                   : "the N-device rows' node_d2h_gbps / "
                                                     "node_h2d_gbps, medians");
        rc = predict_all(m, &d, &k, &c);
    }
    clb_rowset_free(&set);
    return rc;
}

static int predict_all(struct clb_model_ctx *m, const struct clb_sc_dev *d,
                       const struct clb_sc_links *k, const struct sc_case *c)
{
    clb_wrapf(stdout, 0, 2, "%s scaling, %dx%dx%dx%d %s; per operator application (one halo "
              "exchange); E = the plain kernel on %s over (N x) the time; 'net': a ring leaves "
              "its node", c->weak ? "weak" : "strong", c->L[0], c->L[1], c->L[2], c->L[3],
              c->weak ? "per rank" : "in all", c->weak ? "one part" : "the whole lattice");
    printf("%5s %-11s %-14s %7s %3s | %-23s | %s\n", "", "", "", "", "", "host-staged",
           "device to device");
    printf("%5s %-11s %-14s %7s %3s | %9s %6s %6s | %9s %6s %6s\n", "ranks", "grid", "part",
           "halo MB", "", "ms", "halo", "E", "ms", "halo", "E");
    struct clb_sc_point *pts = calloc((size_t)c->nranks + 1, sizeof *pts);
    if (!pts)
        return CLB_ESYS;
    int np = 0;
    for (int i = 0; i < c->nranks; i++) {
        int P[4];
        if (c->fixed)
            memcpy(P, c->P, sizeof P);
        if ((c->fixed && !clb_sc_grid_ok(c->L, P, c->weak)) ||
            (!c->fixed && clb_sc_grid_auto(c->L, (int)c->ranks[i], c->weak, P))) {
            clb_wrapf(stdout, 0, 6, "%5ld cannot split %dx%dx%dx%d into parts >= %d slices "
                      "along each split direction", c->ranks[i], c->L[0], c->L[1], c->L[2], c->L[3], CLB_SC_HALO);
            continue;
        }
        clb_sc_predict(d, k, c->L, c->weak, P, &pts[np]);
        show_point(&pts[np++]);
    }
    show_node(pts, np);
    int rc = sc_plot(m->req->plot, pts, np, c->weak);
    free(pts);
    return rc;
}
