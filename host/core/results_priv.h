/* Inside the results module (host/core/results*.c): what its CSV and JSON
 * Lines halves share. */
#ifndef CLB_RESULTS_PRIV_H
#define CLB_RESULTS_PRIV_H

#include "clb_results.h"

/* A results file opened to read: only a regular file of at most
 * CLB_MAX_INPUT_BYTES (a FIFO, /dev/zero or a link to one would hang or fill
 * the memory). NULL with the message set. */
FILE *clb_results_open(const char *path);
/* Is s one of the statuses a row may have? */
int clb_results_status_ok(const char *s);

/* The length of the number at s (the metrics grammar's: optional '-',
 * digits with an optional fraction, an optional exponent); 0 when s does
 * not start one. */
size_t clb_number_len(const char *s);

/* The fewest significant digits (from..17) that read back as x. */
int clb_shortest(double x, int from);

/* Read a JSON Lines file of rows into *out (clb_results_read's other half). */
int clb_jsonl_read(const char *path, struct clb_rowset *out);
/* One line of JSON Lines as a row: CLB_OK with *version (1..3) and the row
 * (its strings copied into arena), or CLB_EUSAGE with "<where>: reason". */
int clb_jsonl_row(const char *line, size_t len, const char *where, struct clb_arena *arena,
                  struct clb_row *r, int *version);
/* Rewrite a JSON Lines file of schema v1/v2 as v3 (every value kept, metrics
 * derived from detail), through a temporary file and rename. */
int clb_jsonl_upgrade(const char *path, const struct clb_rowset *rows);
/* Rewriting a results file in place (results upgrade): a temporary file
 * beside it with its mode, removed if a signal ends the command, then
 * renamed over it. open: CLB_EUSAGE with the message when it cannot be made.
 * close: flush, sync and rename when rc is CLB_OK and every write went
 * through (else the temporary file goes and the file is unchanged); the
 * result, CLB_ESYS with the message where only the rewrite failed. */
struct clb_rewrite {
    FILE *f;
    struct clb_replace r;
};
int clb_rewrite_open(const char *path, struct clb_rewrite *w);
int clb_rewrite_close(const char *path, struct clb_rewrite *w, int rc);

#endif
