/* clbench compare: the table as aligned text or Markdown. */
#include "clb_compare.h"
#include "clbench.h"

#include <math.h>
#include <string.h>

/* Figures with four significant digits or so, without exponents for the
 * usual range of GB/s (0.018 .. 3352). */
static void fmt_num(double v, int relative, char *out, size_t n)
{
    if (isnan(v))
        snprintf(out, n, "-");
    else if (relative && fabs(v) < 1)
        snprintf(out, n, "%.3g", v);   /* 0.00418 of an H100 stays readable */
    else if (relative)
        snprintf(out, n, "%.2f", v);
    else if (fabs(v) >= 1000)
        snprintf(out, n, "%.0f", v);
    else if (fabs(v) >= 100)
        snprintf(out, n, "%.1f", v);
    else if (fabs(v) >= 1)
        snprintf(out, n, "%.2f", v);
    else
        snprintf(out, n, "%.3g", v);
}

/* One cell: "2987 ±1.2%" for repeated runs; the worst status where nothing
 * passed; a trailing '!' where some runs passed and others did not. */
static void fmt_cell(const struct cmp_table *t, int line, int col, char *out, size_t n)
{
    const struct cmp_cell *c = cmp_cell_at(t, line, col);
    if (!c->n) {
        snprintf(out, n, "%s", c->nbad ? c->bad : "-");
        return;
    }
    fmt_num(cmp_value(t, line, col), t->ref >= 0, out, n);
    double s = cmp_spread_pct(c);
    if (!isnan(s))
        clb_appendf(out, n, " ±%.1f%%", s);
    if (c->nbad)
        clb_appendf(out, n, "!");
}

/* Display width of a UTF-8 string (the ± sign is two bytes, one column). */
static int width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static int any_sweep(const struct cmp_table *t)
{
    for (int i = 0; i < t->nlines; i++)
        if (t->lines[i].sweep[0])
            return 1;
    return 0;
}

static void title(const struct cmp_table *t, FILE *f, const char *prefix)
{
    fprintf(f, "%s%s", prefix, t->metric == CMP_GBPS_BEST ? "best-time " : "");
    if (t->ref >= 0)
        fprintf(f, "%s relative to %s", cmp_metric_name(t->metric), t->cols[t->ref].label);
    else
        fprintf(f, "%s (%s)", cmp_metric_name(t->metric), cmp_metric_unit(t->metric));
    fprintf(f, "; best of repeated runs, ±half their range in %% of the best\n");
}

static void notes(const struct cmp_table *t, FILE *f, const char *bullet)
{
    int bang = 0;
    for (int i = 0; i < t->nlines; i++)
        for (int c = 0; c < t->ncols; c++)
            bang |= cmp_cell_at(t, i, c)->n && cmp_cell_at(t, i, c)->nbad;
    if (bang)
        fprintf(f, "%s'!': other runs of that configuration failed, were skipped or errored "
                   "(see the CSV)\n", bullet);
}

#define KEYCOLS 5
static const char *const keynames[KEYCOLS] = {"workload", "kernel", "dtype", "size", "sweep"};

static const char *key_of(const struct cmp_line *l, int k)
{
    const char *v[KEYCOLS] = {l->workload, l->kernel, l->dtype, l->size, l->sweep};
    return v[k];
}

void cmp_print_text(const struct cmp_table *t, FILE *f)
{
    int nkeys = any_sweep(t) ? 5 : 4;
    int kw[KEYCOLS], cw[t->ncols];
    char cell[96];
    for (int k = 0; k < nkeys; k++) {
        kw[k] = width(keynames[k]);
        for (int i = 0; i < t->nlines; i++)
            if (width(key_of(&t->lines[i], k)) > kw[k])
                kw[k] = width(key_of(&t->lines[i], k));
    }
    /* columns are numbered; the legend below the title gives their names */
    for (int c = 0; c < t->ncols; c++) {
        cw[c] = 4;
        for (int i = 0; i < t->nlines; i++) {
            fmt_cell(t, i, c, cell, sizeof cell);
            if (width(cell) > cw[c])
                cw[c] = width(cell);
        }
    }
    title(t, f, "");
    for (int c = 0; c < t->ncols; c++) {
        const struct cmp_col *col = &t->cols[c];
        fprintf(f, "  [%d] %s  (%s", c + 1, col->label, col->reference ? "published" : col->source);
        if (!isnan(col->peak_gbs))
            fprintf(f, "; peak %.0f GB/s", col->peak_gbs);
        fprintf(f, ")\n");
    }
    fprintf(f, "\n");
    for (int k = 0; k < nkeys; k++)
        fprintf(f, "%-*s  ", kw[k], keynames[k]);
    for (int c = 0; c < t->ncols; c++) {
        char h[16];
        snprintf(h, sizeof h, "[%d]", c + 1);
        fprintf(f, "%*s%s", cw[c], h, c + 1 < t->ncols ? "  " : "\n");
    }
    for (int i = 0; i < t->nlines; i++) {
        for (int k = 0; k < nkeys; k++) {
            const char *s = key_of(&t->lines[i], k);
            fprintf(f, "%s%*s  ", s, kw[k] - width(s), "");
        }
        for (int c = 0; c < t->ncols; c++) {
            fmt_cell(t, i, c, cell, sizeof cell);
            fprintf(f, "%*s%s%s", cw[c] - width(cell), "", cell, c + 1 < t->ncols ? "  " : "\n");
        }
    }
    notes(t, f, "\n");
}

/* Markdown cells must not contain '|'. */
static void md_text(FILE *f, const char *s)
{
    for (; *s; s++)
        fputs(*s == '|' ? "\\|" : (char[]){*s, 0}, f);
}

void cmp_print_markdown(const struct cmp_table *t, FILE *f)
{
    int nkeys = any_sweep(t) ? 5 : 4;
    char cell[96];
    title(t, f, "Table: ");
    fprintf(f, "\n|");
    for (int k = 0; k < nkeys; k++)
        fprintf(f, " %s |", keynames[k]);
    for (int c = 0; c < t->ncols; c++) {
        fputc(' ', f);
        md_text(f, t->cols[c].label);
        fprintf(f, " |");
    }
    fprintf(f, "\n|");
    for (int k = 0; k < nkeys; k++)
        fprintf(f, "---|");
    for (int c = 0; c < t->ncols; c++)
        fprintf(f, "---:|");
    fputc('\n', f);
    for (int i = 0; i < t->nlines; i++) {
        fputc('|', f);
        for (int k = 0; k < nkeys; k++) {
            fputc(' ', f);
            md_text(f, key_of(&t->lines[i], k));
            fprintf(f, " |");
        }
        for (int c = 0; c < t->ncols; c++) {
            fmt_cell(t, i, c, cell, sizeof cell);
            fprintf(f, " %s |", cell);
        }
        fputc('\n', f);
    }
    notes(t, f, "\n");
}
