/* Results CSV (docs/RESULTS.md; schema v2), written and read through libcsv.
 * The columns are defined once, here: the header, the row struct, the writer
 * and the reader all come from CLB_COLUMNS. */
#ifndef CLB_RESULTS_H
#define CLB_RESULTS_H

#include <stddef.h>
#include <stdio.h>
#include "clbench.h"

/* X(name, kind): STR text; COUNT a whole number >= 0; EXACT a count printed
 * exactly (bytes, flops); TIME seconds (9 digits); NUM a figure (6 digits).
 * Schema v1 is the first 31 columns; v2 adds the last six. */
#define CLB_COLUMNS(X)                                                                     \
    X(run_id, STR) X(timestamp, STR) X(host, STR) X(platform, STR) X(device, STR)         \
    X(device_type, STR) X(driver, STR) X(profile, STR) X(workload, STR) X(kernel, STR)    \
    X(dtype, STR) X(size, STR) X(params, STR) X(local_size, STR) X(global_size, STR)      \
    X(warmup, COUNT) X(reps, COUNT) X(bytes, EXACT) X(flops, EXACT)                       \
    X(t_min_s, TIME) X(t_median_s, TIME) X(t_mean_s, TIME) X(t_max_s, TIME)               \
    X(t_stddev_s, TIME) X(gbps, NUM) X(gbps_best, NUM) X(gflops, NUM) X(pct_peak_bw, NUM) \
    X(model, NUM) X(status, STR) X(detail, STR)                                           \
    X(clbench_version, STR) X(ranks, COUNT) X(rank, STR) X(energy_j, NUM)                \
    X(avg_power_w, NUM) X(power_source, STR)

#define CLB_COL_TYPE_STR const char *
#define CLB_COL_TYPE_COUNT double
#define CLB_COL_TYPE_EXACT double
#define CLB_COL_TYPE_TIME double
#define CLB_COL_TYPE_NUM double

/* One row. Strings are never NULL ("" when empty) and live as long as the
 * arena of whoever made the row; numbers are NAN when empty. */
struct clb_row {
#define CLB_COL_FIELD(name, kind) CLB_COL_TYPE_##kind name;
    CLB_COLUMNS(CLB_COL_FIELD)
#undef CLB_COL_FIELD
};

enum clb_col_kind { CLB_COL_STR, CLB_COL_COUNT, CLB_COL_EXACT, CLB_COL_TIME, CLB_COL_NUM };
struct clb_column {
    const char *name;
    enum clb_col_kind kind;
    size_t offset;
};
extern const struct clb_column clb_columns[];
#define CLB_NCOLS 37
#define CLB_NCOLS_V1 31

/* The header line of schema v (1 or 2), without a newline. */
const char *clb_csv_header(int version);

void clb_row_init(struct clb_row *r);   /* empty strings, NAN numbers */
/* The string / number of column i of a row (by the table above). */
const char *clb_row_str(const struct clb_row *r, int col);
double clb_row_num(const struct clb_row *r, int col);

/* Rows read from a file, their strings in one arena. */
struct clb_rowset {
    struct clb_row *v;
    size_t n, cap;
    int version;             /* of the file read: 1 or 2 */
    struct clb_arena arena;
};
void clb_rowset_free(struct clb_rowset *s);
/* Add a copy of r, its strings copied into the set's arena. */
int clb_rowset_add(struct clb_rowset *s, const struct clb_row *r);

/* The largest file the readers accept (a results file, a profile). */
#define CLB_MAX_INPUT_BYTES ((size_t)4 << 30)

/* Read every row of a clbench CSV of schema v1 or v2 (v1 rows get empty v2
 * columns). Errors (missing file, not a regular file, another header, a
 * field that is not what its column means) are CLB_EUSAGE with
 * "file:line: reason". Rows are appended to *out. */
int clb_results_read(const char *path, struct clb_rowset *out);

/* Format one row as a CSV line (with newline) of schema v in memory that
 * grows; NULL on OOM. */
char *clb_row_format(const struct clb_row *r, int version);

enum clb_format { CLB_FORMAT_CSV, CLB_FORMAT_JSON };

struct clb_writer {
    char *path;
    int fd;
    enum clb_format format;
};

/* The format a results path asks for: JSON Lines for *.json / *.jsonl, else CSV. */
enum clb_format clb_format_of_path(const char *path);
/* One row as a JSON object (one line, with newline; keys = column names,
 * empty fields null, numbers as numbers), made with jansson; NULL on OOM. */
char *clb_row_json(const struct clb_row *r);

/* Open `path` for appending rows in `format`. An existing CSV file must have
 * exactly the v2 header (a v1 file is refused with a pointer to `clbench
 * results upgrade`) and, in either format, end with a newline; a new CSV
 * file is created under a unique temporary name (mkstemp, in the same
 * directory) with its header and linked into place, so that no reader ever
 * sees a file without a header. A JSON Lines file has no header: one object
 * per line. */
int clb_writer_open(struct clb_writer *w, const char *path, enum clb_format format);
/* Append one row under an advisory lock and flush it to the file. */
int clb_writer_put(struct clb_writer *w, const struct clb_row *r);
/* Append one row already formatted in the writer's format (a whole line). */
int clb_writer_put_text(struct clb_writer *w, const char *line);
void clb_writer_close(struct clb_writer *w);

/* `clbench results upgrade FILE`: rewrite a v1 file as v2 (temporary file +
 * rename; every v1 field byte-identical, the new columns empty). CLB_OK also
 * when the file is v2 already (nothing written, *already set). */
int clb_results_upgrade(const char *path, int *already, size_t *rows);

#endif
