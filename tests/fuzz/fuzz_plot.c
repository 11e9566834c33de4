/* libFuzzer: compare's gnuplot input (cmp_fig_chart, clb_chart_gnuplot). Each input is a
 * table whose every text (workload, kernels, types, sizes, swept values and
 * keys, column labels) is a piece of the input, and whose shape (lines,
 * columns, figures, sweeps, peaks, statuses, metric, relative mode, SVG or
 * PNG) comes from its first bytes. The oracle (plot_oracle.h), apart from
 * the generator:
 *   1. the script has no byte of that text outside a properly escaped
 *      single-quoted string: outside strings only gnuplot's words, numbers
 *      and punctuation; inside, no newline, no control byte, UTF-8;
 *   2. the data files are tab-separated fields, as many on every line, with
 *      no double quote, no control byte, backslashes only in pairs, UTF-8;
 *   3. the script's structure does not depend on the text: with every text
 *      replaced by a neutral name (equal texts by equal names), the script
 *      with its strings blanked out is the same.
 * A failed check aborts, so libFuzzer keeps the input.
 *
 * Input: 16 control bytes, then the texts separated by NUL bytes (a results
 * file cannot hold a NUL: the reader refuses it). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clb_compare.h"
#include "plot_oracle.h"

#define NCTL 16
#define MAXL 6
#define MAXC 3
#define NPOOL 8

struct shape {
    const uint8_t *ctl;
    const char *pool[NPOOL];
};

/* Build the table of the shape with the texts of pool. */
static void make(const struct shape *sh, const char *const *pool, struct cmp_table *t,
                 struct cmp_line *lines, struct cmp_col *cols, struct cmp_cell *cells,
                 struct cmp_point *points)
{
    const uint8_t *c = sh->ctl;
    memset(t, 0, sizeof *t);
    int ncols = 1 + c[1] % MAXC, nlines = 1 + (c[1] / MAXC) % MAXL;
    const struct cmp_metric *ms = cmp_metric_list();
    int nm = 0;
    while (ms[nm].name)
        nm++;
    t->metric = &ms[(c[0] >> 2) % nm];
    /* every line's figure is the one asked for: the table's only metric */
    static struct cmp_metric one;
    one = *t->metric;
    t->metrics = &one;
    t->nmetrics = 1;
    t->ref = (c[0] & 2) ? 0 : -1;
    t->cols = cols;
    t->ncols = ncols;
    t->lines = lines;
    t->nlines = nlines;
    t->cells = cells;
    for (int k = 0; k < ncols; k++) {
        memset(&cols[k], 0, sizeof cols[k]);
        cols[k].label = pool[(c[2] >> (2 * k)) % NPOOL];
        cols[k].device = cols[k].label;
        cols[k].host = cols[k].driver = cols[k].source = pool[k];
        cols[k].reference = (c[3] >> k) & 1;
        cols[k].peak_gbs = (c[3] >> (k + 3)) & 1 ? 100.0 * (k + 1) : NAN;
        /* measured ceilings: some kinds, their sources texts of the pool */
        for (int q = 0; q < CLB_NCEILINGS; q++) {
            cols[k].ceil[q] = (c[14] >> ((q + k) % 8)) & 1 ? 50.0 * (q + 1) * (k + 1) : NAN;
            cols[k].ceil_src[q] = cols[k].ceil_what[q] = pool[(q + k) % NPOOL];
        }
    }
    t->have_ceilings = 1;
    t->points = points;
    size_t nc = 0;
    for (int i = 0; i < nlines; i++) {
        const uint8_t b = c[4 + i], e = c[10 + (i % 6)];
        struct cmp_line *l = &lines[i];
        memset(l, 0, sizeof *l);
        l->workload = pool[0];   /* one figure: the lines of one workload */
        l->kernel = pool[1 + b % 3];
        l->dtype = pool[(b >> 2) % 2 ? 4 : 1];
        l->size = pool[(b >> 3) % 2 ? 5 : 2];
        int sweep = (c[0] >> 4) & 3;   /* none, a key, a key and more */
        l->sweep = sweep ? pool[6 + (b >> 4) % 2] : "";
        l->sweep_rest = sweep == 2 ? pool[3 + (b >> 5) % 2] : "";
        l->sweep_key = sweep ? pool[7] : "";
        l->sweep_num = sweep && (e & 1) ? (double)(1 << (e % 12)) : (e & 2) ? NAN : i + 1;
        l->size_num = (e & 4) ? NAN : (e & 8) ? (double)(1u << (10 + e % 20)) : 1000.0 * (i + 1);
        l->device_bound = (e >> 4) & 1;
        l->first = i;
        l->cell0 = nc;
        for (int k = 0; k < ncols; k++) {
            if (!((b ^ e) >> (k % 8) & 1) && k != i % ncols)
                continue;
            struct cmp_cell *x = &cells[nc++];
            memset(x, 0, sizeof *x);
            x->col = k;
            x->n = (e >> 5) & 3;
            x->best = 1 + (double)((b * 37 + k * 11) % 250) * ((e & 0x80) ? 20 : 1);
            x->worst = x->best * 0.9;
            x->nbad = x->n ? (e >> 7) : 1;
            x->bad = x->nbad ? (e & 64 ? "failed" : "skipped") : "";
            /* a point of the row figures for each cell: roofline or staircase */
            struct cmp_point *p = &points[t->npoints++];
            memset(p, 0, sizeof *p);
            p->col = k;
            p->kind = (c[0] & 0x80) ? CLB_FIGURE_STAIRS : CLB_FIGURE_ROOFLINE;
            p->workload = pool[(e >> 3) % 2 ? 0 : 3];
            p->kernel = l->kernel;
            p->dtype = l->dtype;
            p->rest = l->sweep_rest;
            p->x = (e & 4) ? (double)(1u << (e % 20)) : 1.0 / (1 + b % 16);
            p->y = x->best;
            p->own = (b >> 6) & 1 || i == 0;
            p->first = (int)t->npoints - 1;
        }
        l->ncells = (int)(nc - l->cell0);
    }
    t->ncells = nc;
}

static void check(const char *why, const char *what, const struct clb_buf *b)
{
    if (!why)
        return;
    fprintf(stderr, "fuzz_plot: %s\n--- %s ---\n%s\n", why, what, clb_buf_str(b));
    abort();
}

/* The script for the texts of pool; 0 when the table has no figure. */
static int script(const struct shape *sh, const char *const *pool, struct clb_chart_text *pt)
{
    struct cmp_table t;
    struct cmp_line lines[MAXL];
    struct cmp_col cols[MAXC];
    struct cmp_cell cells[MAXL * MAXC];
    struct cmp_point points[MAXL * MAXC];
    int li[MAXL], ci[MAXC];
    make(sh, pool, &t, lines, cols, cells, points);
    struct cmp_fig g = {.lines = li, .cols = ci};
    if (sh->ctl[0] & 0x40) {   /* a figure of rows: the roofline of column 0, or a staircase */
        int stairs = (sh->ctl[0] & 0x80) != 0;
        if (cmp_fig_points(&g, &t, stairs ? CMP_FIG_STAIRS : CMP_FIG_ROOFLINE, pool[0], 0) != CLB_OK)
            return 0;
    } else if (cmp_fig_collect(&g, &t, pool[0], NULL, 0) != CLB_OK) {
        return 0;
    }
    struct clb_chart c;
    int ok = cmp_fig_chart(&g, &c) == CLB_OK &&
             clb_chart_gnuplot(&c, &(struct clb_chart_out){sh->ctl[0] & 1, 1 + sh->ctl[15] % 9},
                               pt) == CLB_OK;
    clb_chart_free(&c);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < NCTL)
        return 0;
    struct shape sh = {.ctl = data};
    /* the texts: NUL-separated pieces after the control bytes, cycled */
    char *text = malloc(size - NCTL + 1);
    if (!text)
        return 0;
    memcpy(text, data + NCTL, size - NCTL);
    text[size - NCTL] = 0;
    const char *piece[NPOOL];
    int np = 0;
    for (char *p = text; np < NPOOL && p <= text + (size - NCTL); p += strlen(p) + 1)
        piece[np++] = p;
    for (int k = 0; k < NPOOL; k++)
        sh.pool[k] = piece[k % np];
    /* the same table with neutral names: equal texts, equal names; "" stays "" */
    char names[NPOOL][8];
    const char *neutral[NPOOL];
    for (int k = 0; k < NPOOL; k++) {
        int cls = k;
        for (int j = 0; j < k; j++)
            if (!strcmp(sh.pool[j], sh.pool[k])) {
                cls = j;
                break;
            }
        snprintf(names[k], sizeof names[k], "t%d", cls);
        neutral[k] = sh.pool[k][0] ? names[k] : "";
    }
    struct clb_chart_text a, b;
    int ha = script(&sh, sh.pool, &a);
    int hb = script(&sh, neutral, &b);
    if (ha != hb) {
        fprintf(stderr, "fuzz_plot: a figure for one text and none for the neutral names\n");
        abort();
    }
    if (ha) {
        check(oracle_script(clb_buf_str(&a.script), a.script.len), "script", &a.script);
        check(oracle_data(clb_buf_str(&a.data), a.data.len), "data", &a.data);
        check(oracle_data(clb_buf_str(&a.peaks), a.peaks.len), "peaks", &a.peaks);
        char *sa = malloc(a.script.len + 1), *sb = malloc(b.script.len + 1);
        if (sa && sb) {
            oracle_skeleton(clb_buf_str(&a.script), a.script.len, sa);
            oracle_skeleton(clb_buf_str(&b.script), b.script.len, sb);
            if (strcmp(sa, sb)) {
                fprintf(stderr, "fuzz_plot: the script's structure depends on the text\n"
                                "--- text ---\n%s\n--- neutral ---\n%s\n", sa, sb);
                abort();
            }
        }
        free(sa);
        free(sb);
        clb_chart_text_free(&a);
        clb_chart_text_free(&b);
    }
    free(text);
    return 0;
}
