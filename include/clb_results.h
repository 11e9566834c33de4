/* Results files (docs/RESULTS.md; schema v3): CSV written and read through
 * libcsv, JSON Lines through jansson. The columns are defined once, here: the
 * header, the row struct, the writers and the readers all come from
 * CLB_COLUMNS. This module (host/core/results*.c) is the only code that reads
 * a row's text columns for figures: `metrics` is parsed here, and `detail` is
 * for people (and for deriving the metrics of v1/v2 rows, here). */
#ifndef CLB_RESULTS_H
#define CLB_RESULTS_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include "clbench.h"

/* X(name, kind): STR text; COUNT a whole number >= 0; EXACT a count printed
 * exactly (bytes, flops); TIME seconds (9 digits); NUM a figure (6 digits);
 * MET the metrics text (key=value;..., see "metrics" below).
 * Schema v1 is the first 31 columns; v2 adds six; v3 adds `metrics`. */
#define CLB_COLUMNS(X)                                                                     \
    X(run_id, STR) X(timestamp, STR) X(host, STR) X(platform, STR) X(device, STR)         \
    X(device_type, STR) X(driver, STR) X(profile, STR) X(workload, STR) X(kernel, STR)    \
    X(dtype, STR) X(size, STR) X(params, STR) X(local_size, STR) X(global_size, STR)      \
    X(warmup, COUNT) X(reps, COUNT) X(bytes, EXACT) X(flops, EXACT)                       \
    X(t_min_s, TIME) X(t_median_s, TIME) X(t_mean_s, TIME) X(t_max_s, TIME)               \
    X(t_stddev_s, TIME) X(gbps, NUM) X(gbps_best, NUM) X(gflops, NUM) X(pct_peak_bw, NUM) \
    X(model, NUM) X(status, STR) X(detail, STR)                                           \
    X(clbench_version, STR) X(ranks, COUNT) X(rank, STR) X(energy_j, NUM)                \
    X(avg_power_w, NUM) X(power_source, STR)                                               \
    X(metrics, MET)

#define CLB_COL_TYPE_STR const char *
#define CLB_COL_TYPE_COUNT double
#define CLB_COL_TYPE_EXACT double
#define CLB_COL_TYPE_TIME double
#define CLB_COL_TYPE_NUM double
#define CLB_COL_TYPE_MET const char *

/* One row. Strings are never NULL ("" when empty) and live as long as the
 * arena of whoever made the row; numbers are NAN when empty. */
struct clb_row {
#define CLB_COL_FIELD(name, kind) CLB_COL_TYPE_##kind name;
    CLB_COLUMNS(CLB_COL_FIELD)
#undef CLB_COL_FIELD
};

/* The index of each column: CLB_C_detail, CLB_C_metrics ... */
enum clb_col_index {
#define CLB_COL_INDEX(name, kind) CLB_C_##name,
    CLB_COLUMNS(CLB_COL_INDEX)
#undef CLB_COL_INDEX
};

enum clb_col_kind { CLB_COL_STR, CLB_COL_COUNT, CLB_COL_EXACT, CLB_COL_TIME, CLB_COL_NUM,
                    CLB_COL_MET };
/* Is a column of this kind held as text (a string in the row)? */
#define CLB_COL_TEXT(kind) ((kind) == CLB_COL_STR || (kind) == CLB_COL_MET)
struct clb_column {
    const char *name;
    enum clb_col_kind kind;
    size_t offset;
};
extern const struct clb_column clb_columns[];
#define CLB_NCOLS 38
#define CLB_NCOLS_V1 31
#define CLB_NCOLS_V2 37
#define CLB_SCHEMA 3          /* the schema clbench writes */

/* The columns of schema v (1, 2 or 3); 0 for another v. */
int clb_schema_ncols(int version);
/* The header line of schema v (1, 2 or 3), without a newline. */
const char *clb_csv_header(int version);

void clb_row_init(struct clb_row *r);   /* empty strings, NAN numbers */
/* The string / number of column i of a row (by the table above). */
const char *clb_row_str(const struct clb_row *r, int col);
double clb_row_num(const struct clb_row *r, int col);

/* Rows read from a file, their strings in one arena. */
struct clb_rowset {
    struct clb_row *v;
    size_t n, cap;
    int version;             /* of the (last) file read: 1, 2 or 3 */
    struct clb_arena arena;
};
void clb_rowset_free(struct clb_rowset *s);
/* Add a copy of r, its strings copied into the set's arena. */
int clb_rowset_add(struct clb_rowset *s, const struct clb_row *r);

/* The exit status of a run whose results file was truncated, replaced or
 * deleted while it wrote it (docs/RELIABILITY.md). */
#define CLB_EXIT_OUTPUT_LOST 5

/* The largest file the readers accept (a results file, a profile). */
#define CLB_MAX_INPUT_BYTES ((size_t)4 << 30)
/* The longest line (a CSV record, a JSON line) of a results file: no row is
 * longer (the writer refuses one that would be), and a reader refuses a
 * longer line before it parses it, so its memory stays within a small
 * multiple of this whatever the file holds. */
#define CLB_MAX_LINE_BYTES ((size_t)1 << 20)

/* Append every row of a clbench results file (CSV or JSON Lines) of schema
 * v1, v2 or v3 to *out (older rows: empty newer columns, metrics from
 * clb_metrics_from_detail). A file that is not one, or a field that is not
 * what its column means, is CLB_EUSAGE with "file:line: reason". */
int clb_results_read(const char *path, struct clb_rowset *out);

/* Format one row as a CSV line (with newline) of schema v in memory that
 * grows; NULL on OOM. */
char *clb_row_format(const struct clb_row *r, int version);

enum clb_format { CLB_FORMAT_CSV, CLB_FORMAT_JSON };

/* The writer guards its file: before each append, the name must still lead
 * to the file it opened (device and inode), with a link, not shorter than
 * where its last row ended; else it writes nothing more and sets `lost`. */
struct clb_writer {
    char *path;
    int fd;
    enum clb_format format;
    dev_t dev;
    ino_t ino;
    off_t end;          /* where our last row (or the header) ended */
    const char *lost;   /* NULL, or what happened to the file: "truncated", ... */
    int stream;         /* path "-": standard output, a pipe (no file to guard) */
};

/* The format a results path asks for: JSON Lines for *.json / *.jsonl, else CSV. */
enum clb_format clb_format_of_path(const char *path);
/* One row as a JSON object (one line, with newline; keys = column names,
 * empty fields null, numbers as numbers), made with jansson; NULL on OOM. */
char *clb_row_json(const struct clb_row *r);

/* Open `path` for appending rows in `format`. An existing file must hold
 * schema v3 (an older one is refused with a pointer to `clbench results
 * upgrade`) and end with a newline; a new CSV file appears with its header
 * (clb_replace_open: linked into place). JSON Lines has no header. */
int clb_writer_open(struct clb_writer *w, const char *path, enum clb_format format);
/* Append one row under an advisory lock and flush it to the file. CLB_ESYS
 * when the file was truncated, replaced or deleted since (w->lost says which;
 * nothing is written), or the write failed. */
int clb_writer_put(struct clb_writer *w, const struct clb_row *r);
/* Append one row already formatted in the writer's format (a whole line). */
int clb_writer_put_text(struct clb_writer *w, const char *line);
void clb_writer_close(struct clb_writer *w);

/* `clbench results upgrade FILE`: rewrite a v1 or v2 file as v3 (temporary
 * file + rename; every field of the old schema byte-identical, the v2
 * columns a v1 file lacks empty, metrics derived from detail). CLB_OK also
 * when the file is v3 already (nothing written, *already set); *from: the
 * schema the file had. */
int clb_results_upgrade(const char *path, int *already, int *from, size_t *rows);

/* ---- metrics (host/core/results_metrics.c; docs/RESULTS.md, "Metrics") -----
 *
 * The metrics column holds a row's further measured figures as data:
 *   metrics = "" | metric *(";" metric)      metric = key "=" value
 *   key     = [a-z][a-z0-9_]*  (at most 64 bytes, unique in a row; the unit
 *             is part of the name: ns_per_load, halo_ms_max, llc_bytes)
 *   value   = a number: ["-"] digits ["." digits] [("e"|"E") ["+"|"-"] digits],
 *             finite; or a token: [A-Za-z0-9_.+-]+ that is not a number
 *             (at most 64 bytes)
 * A flag is a number: cache_resident=1. A row holds at most 128 metrics. */
#define CLB_METRIC_MAX 64
#define CLB_METRICS_MAX_N 128   /* metrics in one row */
struct clb_metric {
    const char *key, *val;   /* into the text; not NUL-terminated */
    size_t klen, vlen;
    double num;              /* the value when it is a number, else NAN */
};
/* What each key of the metrics column is, declared as data (docs/RESULTS.md,
 * "Metrics"): its unit, which way is better, and how it follows the row's
 * median time. `clbench compare -m KEY` reads any key with a number; the
 * gate judges it in its direction. */
enum clb_better {
    CLB_BETTER_NONE,     /* no better way: a count, a size, a flag, a model's input */
    CLB_BETTER_HIGHER,   /* a rate, an efficiency */
    CLB_BETTER_LOWER     /* a time, an error */
};
enum clb_metric_time {
    CLB_MT_NONE,         /* not the row's median time's: no measured spread */
    CLB_MT_RATE,         /* inversely proportional to the median time (a ratio of GB/s) */
    CLB_MT_TIME          /* proportional to it (ns per load, a launch's microseconds) */
};
struct clb_metric_def {
    const char *key;     /* "ns_per_load"; with prefix, the start of a family ("of_") */
    int prefix;
    const char *unit;    /* "ns", "µs", "GB/s", "ratio", "count", "bytes", "flag", "token" */
    enum clb_better better;
    enum clb_metric_time time;   /* the spread of the repetitions (t_min .. t_max) applies */
};
/* Every key clbench writes, terminated by an entry with a NULL key. */
const struct clb_metric_def *clb_metric_defs(void);
/* The declaration of key (exact, else the family whose prefix it starts
 * with), NULL for a key clbench does not write. */
const struct clb_metric_def *clb_metric_def_of(const char *key);
/* "higher", "lower" or "-". */
const char *clb_better_name(enum clb_better b);

/* The next metric of a text at *pos (advanced): 1, 0 at the end, -1 where
 * the text breaks the grammar (*why: what is wrong). */
int clb_metric_next(const char **pos, struct clb_metric *m, const char **why);
/* A whole text: CLB_OK, or CLB_EUSAGE with *why (a duplicate key too). */
int clb_metrics_check(const char *text, const char **why);
/* The number of key in a metrics text: NAN when absent or a token. */
double clb_metrics_num(const char *text, const char *key);
/* The token of key (a word, not a number) into out (n bytes, cut there):
 * 1, or 0 with out "" when absent or a number. */
int clb_metrics_token(const char *text, const char *key, char *out, size_t n);
/* Is the flag key set (a number other than 0)? */
int clb_metrics_flag(const char *text, const char *key);
/* Is r a sum over several ranks or devices (rank "all" of a run of
 * ranks > 1)? No device's own figure: compare and the ceilings leave it out. */
int clb_row_is_sum(const struct clb_row *r);
/* The same for a row's metrics; clb_row_text: the value of key as written (a
 * token such as size_from's "rule", or a number's text): its length, *val
 * pointing into the text; 0 when absent. */
double clb_row_metric(const struct clb_row *r, const char *key);
int clb_row_flag(const struct clb_row *r, const char *key);
size_t clb_row_text(const struct clb_row *r, const char *key, const char **val);
/* Where a row's size came from (metrics size_from, written by the core): 1
 * the device's default (the size rule, or the profile's [tuning] sizes:
 * "rule", "profile"), 0 a size that is the same on every device (-s "given",
 * --quick "quick", a study's own "extra", a "ladder" of a sweep), -1 the row
 * does not say (written before size_from existed). */
int clb_row_size_default(const struct clb_row *r);
/* The marks a reader must see before trusting a row's figure: the summary
 * table's C, !, ~, H and X, the report's flags (host/core/summary.c). */
enum {
    CLB_MARK_CACHE = 1,       /* metrics cache_resident: the working set fits a cache */
    CLB_MARK_ABOVE_PEAK = 2,  /* above 100 % of the profile's peak bandwidth */
    CLB_MARK_NOISY = 4,       /* slowest repetition > CLB_NOISY_SPREAD x the fastest */
    CLB_MARK_HOST_TIMER = 8,  /* metrics timer_host: timed on the host clock */
    CLB_MARK_IMPOSSIBLE = 16  /* metrics impossible: above the profile's peak GFlop/s */
};
#define CLB_NOISY_SPREAD 1.25
unsigned clb_row_marks(const struct clb_row *r);
/* The number of key in a row's params ("ws=1024,stride=64"): the whole value
 * a finite decimal number (the metrics' number grammar), else NAN. */
double clb_row_param(const struct clb_row *r, const char *key);
/* Does a row hold every key of `params` (comma list) as a number in its
 * params, and every key of `metrics` as a number in its metrics? NULL lists
 * ask nothing. When not, *what names the first missing one ("params ws"). */
int clb_row_has(const struct clb_row *r, const char *params, const char *metrics,
                struct clb_buf *what);
/* Set key in a metrics text being built (an earlier value of key is
 * replaced): a number (not written when not finite: a figure nobody measured
 * is not invented) or a token. CLB_EUSAGE with the message set when the key
 * or the token is outside the grammar; CLB_ESYS on OOM. */
int clb_metrics_set(struct clb_buf *b, const char *key, double v);
int clb_metrics_set_token(struct clb_buf *b, const char *key, const char *token);
/* The metrics of a v1/v2 row, from the figures its detail wrote as text:
 * each word "key=number" (after a blank, ';' or ','; the first of a key wins;
 * `llc`, `per_cu_cycle` renamed llc_bytes, flop_per_cu_cycle), and
 * cache_resident=1 where the detail says cache_resident. Malloc'd; NULL on OOM. */
char *clb_metrics_from_detail(const char *detail);
/* The source of a published figure (a reference row): its detail up to the
 * first ';', ',', '(', ':' or quote, at most three words, a leading directory
 * dropped ("BabelStream 1.0"). *start and the length; 0 when none. */
size_t clb_reference_source(const char *detail, const char **start);

#endif
