/* Private to host/compare: the hash map and the rows read from the files,
 * shared by the table (compare_data.c) and the baseline (compare_baseline.c). */
#ifndef CLB_COMPARE_PRIV_H
#define CLB_COMPARE_PRIV_H

#include <stdint.h>
#include "clb_compare.h"

/* ---- an open-addressing hash map: keys of nk 64-bit words -> int ------- */

struct cmp_map {
    size_t cap, n;       /* slots (a power of two), used */
    int nk;              /* words per key */
    uint64_t *keys;      /* cap * nk */
    int *vals;           /* cap; -1 = empty */
};
/* The value of key; when absent, insert it with value v and return v.
 * -2 on OOM (message set). Values must be >= 0. */
int cmp_map_add(struct cmp_map *m, const uint64_t *key, int v);
/* The value of key, -1 when absent. */
int cmp_map_get(const struct cmp_map *m, const uint64_t *key);
void cmp_map_free(struct cmp_map *m);
#define CMP_KEY(p) ((uint64_t)(uintptr_t)(p))
/* The keys of n texts by their content: each interned in a (which the
 * caller frees), its pointer the key. CLB_ESYS on OOM (message set). */
int cmp_text_keys(struct clb_arena *a, const char *const *texts, int n, uint64_t *key);

/* The index of key in m, the map of the n elements of *v; a new key gets
 * index n and a zeroed element there (room made). -2 on OOM (message set). */
int cmp_slot(struct cmp_map *m, const uint64_t *key, void **v, int n, size_t *cap, size_t elem);

/* ---- the rows of every file ------------------------------------------ */

/* A size in canonical form. */
struct cmp_size {
    const char *canon;   /* "268435456", "8192x8192"; the text itself when not a size */
    double num;          /* product of the extents, NAN when not a size */
    int ndims;           /* 0 when not a size */
    size_t d[4];
};

/* A params item "k=v" (v "" when no '='). */
struct cmp_kv {
    const char *key, *val;   /* interned */
};

struct cmp_in {
    struct clb_rowset set;   /* every file's rows; every string interned in set.arena,
                              * so equal strings are equal pointers */
    int *file;               /* each row's file index */
    char **files;
    int *size;               /* each row's index in sizes */
    struct cmp_size *sizes;
    size_t nsizes, capsizes;
    int *plist;              /* each row's index in plists */
    struct cmp_plist { size_t start; int n; } *plists;
    size_t nplists, capplists;
    struct cmp_kv *kv;       /* the items of every plist */
    size_t nkv, capkv;
    /* cmp_ident's cache: each (plist, workload)'s case and tuning items */
    struct cmp_map splitmap;
    struct cmp_split { const char *cases, *tuning; } *split;
    size_t nsplit, capsplit;
    /* compare_kind.c's caches: each workload name's registry entry (+1, 0:
     * unknown) and each configuration's CMP_RK_* bits */
    struct cmp_map wls, kinds;
    const struct clb_workload **wlv;
    size_t nwl, capwl;
};

/* Read every file (a directory is refused with a hint), then cmp_in_prepare. */
int cmp_in_read(struct cmp_in *in, char **files, int nfiles);
/* Canonical sizes and parsed params of every row. */
int cmp_in_prepare(struct cmp_in *in);
void cmp_in_free(struct cmp_in *in);
/* cmp_in_free, but the rows' strings (their arena) move to *keep. */
void cmp_in_free_keep(struct cmp_in *in, struct clb_arena *keep);
/* Intern text in the rows' arena (so it compares by pointer with row strings). */
const char *cmp_in_intern(struct cmp_in *in, const char *s, size_t n);
/* b's text interned, b freed: NULL when either ran out of memory. */
const char *cmp_in_take(struct cmp_in *in, struct clb_buf *b);

/* sel[i] = 1 for the rows of files [f0, f1) that pass the filters, 0 for
 * the others of those files (other rows untouched). When none
 * does: CLB_EUSAGE with a message naming the filter that emptied the
 * selection and the names it could have matched. `what` names the files in
 * that message ("these files", "the baseline"). */
int cmp_in_select(struct cmp_in *in, const struct cmp_filter *f, int f0, int f1, char *sel,
                  const char *what);
/* Does the cache filter (--any-size, the lineup, without --include-cache)
 * leave row r out? */
int cmp_in_cache_out(const struct cmp_filter *flt, const struct clb_row *r);
/* Does workload wl vary the size as what it measures (its figure's x axis is
 * the size, or a staircase over the working set)? The lineup of several
 * devices (flt->line_up) keeps such rows' sizes and cache-resident rows. */
int cmp_size_varies(const struct clb_workload *wl);
/* "k=v,k=v" of params list p (in->plist[row]), items sorted by key, only the
 * items whose role for workload wl (clb_param_role_of) is `role` (0: every
 * item). Interned; "" when none; NULL on OOM. */
const char *cmp_in_params_join(struct cmp_in *in, int p, const struct clb_workload *wl, int role);

/* ---- what the registry says of a row (compare_kind.c) ----------------------- */

/* The registry's entry of a workload name (NULL: unknown), cached. */
const struct clb_workload *cmp_in_wl(struct cmp_in *in, const char *name);
/* What the workload's count() says of row i's configuration: CMP_RK_* bits
 * (0: an unknown workload, a size that does not parse, a refused count),
 * cached per configuration; -2 on OOM. */
int cmp_in_kind(struct cmp_in *in, size_t i);
/* The metric of row i when `asked` is the one asked for: asked itself (index
 * 0, added to *v first), or with asked->per_workload the row's own metric
 * (cmp_own_metric); -1 with a message. */
int cmp_row_metric(struct cmp_in *in, size_t i, const struct cmp_metric *asked,
                   struct cmp_metric **v, int *n);

/* ---- what a line is (compare_ident.c; docs/COMPARE.md, "Line identity") -- */

/* How sizes take part in a line's identity. */
enum cmp_size_mode {
    CMP_SIZE_GIVEN,     /* each canonical size is a line of its own */
    CMP_SIZE_DEFAULT,   /* the same, but a size the device's default rule chose (metrics
                         * size_from rule or profile) is "default": the rows of two devices
                         * at their own default sizes are one line */
    CMP_SIZE_ANY        /* every size is "any" (--any-size) */
};

/* What a row measured, as a user means it: its workload, kernel, type, size
 * and case parameters (those its workload declares CLB_ROLE_CASE, and every
 * key it does not declare), never the tuning parameters a profile, a probe
 * or the device chose. Two rows with equal keys (cmp_ident_key) are one line. */
struct cmp_ident {
    const char *workload, *kernel, *dtype;
    const char *size;       /* canonical ("268435456", "8192x8192"), "default" or "any" */
    const char *cases;      /* the case parameters "k=v,k=v" sorted by key, "" */
    /* beside the identity, not part of it: */
    const char *row_size;   /* the row's canonical size */
    const char *tuning;     /* the tuning parameters "k=v,k=v" sorted by key, "" */
    int size_default;       /* clb_row_size_default: 1, 0, or -1 the row does not say */
    int reduced;            /* its launch was reduced to fit (metric reduced): cases holds
                             * all its params, marked " [reduced]" */
};
#define CMP_IDENT_NK 5

/* The identity of row i of in (every string interned in in's arena, so
 * keys compare by pointer): the one place compare decides what a line is.
 * CLB_OK, CLB_ESYS on OOM (message set). */
int cmp_ident(struct cmp_in *in, size_t row, enum cmp_size_mode mode, struct cmp_ident *id);
/* Its key for a cmp_map of nk = CMP_IDENT_NK (or more words, the caller's after these). */
void cmp_ident_key(const struct cmp_ident *id, uint64_t *key);

/* Is the status one that carries a figure? Which non-figure status is worse? */
int cmp_is_value_status(const char *s);
int cmp_bad_rank(const char *s);
/* Count a row without a figure: *bad keeps the worst status seen (by rank). */
void cmp_count_bad(const char *status, const char **bad, int *nbad);

/* "no selected row has a M figure (metrics: ...)": CLB_EUSAGE. */
int cmp_no_figure(const struct cmp_metric *m);

/* Format a figure with about four significant digits ("3044", "98.73"). */
void cmp_fmt_num(double v, int relative, char *out, size_t n);

/* ---- aligned text and Markdown grids ------------------------------------ */

/* A grid of already escaped cells, printed as aligned text or Markdown. */
struct cmp_grid {
    int ncols, nrows;
    const char **head;       /* ncols */
    const char **cell;       /* nrows * ncols */
    unsigned char *right;    /* ncols: right-aligned */
    int width;               /* text: the columns after the first fit this, the first gets
                              * what is left (a longer cell alone on its line); 0: no limit */
    const char **note;       /* text: per row, lines printed below it (NULL: none) */
    struct clb_arena arena;
};
int cmp_grid_init(struct cmp_grid *g, int ncols, int nrows);
/* Set a cell (row -1: the header) to a copy of s. */
int cmp_grid_set(struct cmp_grid *g, int row, int col, const char *s);
/* Print g as aligned text, or Markdown (md). */
void cmp_grid_print(const struct cmp_grid *g, FILE *f, int md);
void cmp_grid_free(struct cmp_grid *g);
/* Finish building g with the escaping buffer e (freed): CLB_OK, or CLB_ESYS
 * with the grid freed when bad or e ran out of memory. */
int cmp_grid_done(struct cmp_grid *g, struct clb_buf *e, int bad);
/* A column's line of a text table's legend: "  [k] LABEL  (FILES" or
 * "(published"; the caller closes it. */
void cmp_col_legend(const struct cmp_col *col, int k, FILE *f, struct clb_buf *e);
/* After printing to f: CLB_OK, or CLB_ESYS with a message when a write
 * failed (the stream's error flag or a failing flush). */
int cmp_stream_ok(FILE *f);

/* ---- figures (compare_plot.c, compare_figs.c) ---------------------------- */

/* The chart of a roofline figure (one column) or of a staircase (one
 * workload); *c initialised by the caller. */
int cmp_points_chart(const struct cmp_fig *g, struct clb_chart *c);

/* JSON helpers (jansson): a string that is valid UTF-8 (bytes that are not
 * become U+FFFD), a number or null. */
struct json_t;
struct json_t *cmp_json_str(const char *s);
struct json_t *cmp_json_num(double v);
/* A document's head object with its "schema" and "metric" members (the
 * table's and the baseline's open alike); *bad is set when memory ran out. */
struct json_t *cmp_json_head(const char *schema, const struct cmp_metric *m, int *bad);
/* A line's metric in a JSON object: "metric", "unit", "higher_is_better". */
void cmp_json_line_metric(struct json_t *o, const struct cmp_metric *m, int *bad);
/* A document of a head object (taken over) plus one array member `array`
 * written entry by entry (each taken over): memory for one entry at a time.
 * A head or an entry that is NULL, or bad (a member could not be set), is
 * not written: CLB_ESYS, out of memory. */
int cmp_json_stream_begin(struct json_t *head, int bad, const char *array, FILE *f);
int cmp_json_stream_item(struct json_t *item, int bad, int first, FILE *f);
int cmp_json_stream_end(FILE *f, int empty);

#endif
