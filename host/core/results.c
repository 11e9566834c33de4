/* Results CSV: the writer appends one locked, flushed row at a time; the
 * reader turns a file back into rows, checking each field against what its
 * column means. Quoting and parsing are libcsv's. */
#define _GNU_SOURCE
#include "results_priv.h"
#include "clbench.h"
#include "clb_text.h"
#include "core.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

const struct clb_column clb_columns[] = {
#define CLB_COL_ENTRY(name, kind) {#name, CLB_COL_##kind, offsetof(struct clb_row, name)},
    CLB_COLUMNS(CLB_COL_ENTRY)
#undef CLB_COL_ENTRY
};

_Static_assert(sizeof clb_columns / sizeof *clb_columns == CLB_NCOLS, "CLB_NCOLS");

int clb_schema_ncols(int version)
{
    switch (version) {
    case 1: return CLB_NCOLS_V1;
    case 2: return CLB_NCOLS_V2;
    case 3: return CLB_NCOLS;
    default: return 0;
    }
}

const char *clb_csv_header(int version)
{
    static char h[CLB_SCHEMA][1024];
    int n = clb_schema_ncols(version);
    if (!n)
        return "";
    char *b = h[version - 1];
    if (!b[0])
        for (int i = 0; i < n; i++)
            clb_appendf(b, sizeof h[0], "%s%s", i ? "," : "", clb_columns[i].name);
    return b;
}

void clb_row_init(struct clb_row *r)
{
    for (int i = 0; i < CLB_NCOLS; i++) {
        char *p = (char *)r + clb_columns[i].offset;
        if (CLB_COL_TEXT(clb_columns[i].kind))
            *(const char **)p = "";
        else
            *(double *)p = NAN;
    }
}

const char *clb_row_str(const struct clb_row *r, int col)
{
    return *(const char *const *)((const char *)r + clb_columns[col].offset);
}

double clb_row_num(const struct clb_row *r, int col)
{
    return *(const double *)((const char *)r + clb_columns[col].offset);
}

static void set_str(struct clb_row *r, int col, const char *s)
{
    *(const char **)((char *)r + clb_columns[col].offset) = s;
}

static void set_num(struct clb_row *r, int col, double v)
{
    *(double *)((char *)r + clb_columns[col].offset) = v;
}

void clb_rowset_free(struct clb_rowset *s)
{
    free(s->v);
    clb_arena_free(&s->arena);
    memset(s, 0, sizeof *s);
}

static struct clb_row *rowset_slot(struct clb_rowset *s)
{
    if (CLB_GROW(s->v, s->n, s->cap))
        return NULL;
    return &s->v[s->n];
}

int clb_rowset_add(struct clb_rowset *s, const struct clb_row *r)
{
    struct clb_row *d = rowset_slot(s);
    if (!d)
        return CLB_ESYS;
    *d = *r;
    for (int i = 0; i < CLB_NCOLS; i++) {
        if (!CLB_COL_TEXT(clb_columns[i].kind))
            continue;
        const char *v = clb_row_str(r, i);
        const char *c = clb_arena_intern(&s->arena, v, strlen(v));
        if (!c)
            return CLB_ESYS;
        set_str(d, i, c);
    }
    s->n++;
    return CLB_OK;
}

/* ---- writing ---------------------------------------------------------- */

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

static void put_str(FILE *f, const char *s)
{
    /* libcsv quotes a field; we ask for it only where needed, to keep the
     * file readable by eye: separators, quotes, line breaks, and blanks at
     * an edge (which other readers, and clbench before 0.3, trim). */
    size_t n = strlen(s);
    if (strpbrk(s, ",\"\r\n") || (n && (blank(s[0]) || blank(s[n - 1]))))
        csv_fwrite(f, s, n);
    else
        fputs(s, f);
}

static void put_field(FILE *f, const struct clb_row *r, int col)
{
    const struct clb_column *c = &clb_columns[col];
    if (CLB_COL_TEXT(c->kind)) {
        put_str(f, clb_row_str(r, col));
        return;
    }
    double v = clb_row_num(r, col);
    if (isnan(v))
        return;
    switch (c->kind) {
    case CLB_COL_COUNT:
    case CLB_COL_EXACT: fprintf(f, "%.0f", v); break;
    case CLB_COL_TIME: fprintf(f, "%.9g", v); break;
    default: fprintf(f, "%.6g", v); break;
    }
}

char *clb_row_format(const struct clb_row *r, int version)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int n = clb_schema_ncols(version);
    for (int i = 0; f && i < n; i++) {
        put_field(f, r, i);
        fputc(i + 1 < n ? ',' : '\n', f);
    }
    if (!f || fclose(f) != 0) {
        free(buf);
        clb_seterr(CLB_OOM " formatting a row");
        return NULL;
    }
    return buf;
}

static int mkdirs(const char *path)
{
    char *dir = clb_strdup(path);
    if (!dir)
        return CLB_ESYS;
    char *slash = strrchr(dir, '/');
    int rc = CLB_OK;
    if (slash && slash != dir) {
        *slash = 0;
        for (char *p = dir + 1; *p; p++) {
            if (*p != '/')
                continue;
            *p = 0;
            mkdir(dir, 0777);
            *p = '/';
        }
        if (mkdir(dir, 0777) != 0 && errno != EEXIST)
            rc = clb_eusage("cannot create directory '%s' for the results: %s", dir,
                            strerror(errno));
    }
    free(dir);
    return rc;
}

/* Take or drop the advisory lock. A signal (SIGINT) can interrupt a wait for
 * the lock: retry, or the row would be appended unlocked. */
static void lock(int fd, int op)
{
    while (flock(fd, op) != 0 && errno == EINTR)
        ;
}

int clb_rewrite_open(const char *path, struct clb_rewrite *w)
{
    w->f = NULL;
    if (clb_replace_open(AT_FDCWD, path, -1, &w->r) == 0 && !(w->f = fdopen(w->r.fd, "w"))) {
        int e = errno;
        clb_replace_done(&w->r, path, 0, CLB_REPLACE);
        errno = e;
    }
    if (!w->f)
        return clb_eusage("cannot write beside '%s': %s", path, strerror(errno));
    return CLB_OK;
}

int clb_rewrite_close(const char *path, struct clb_rewrite *w, int rc)
{
    /* the stream's buffer first; the descriptor is closed by clb_replace_done */
    int ok = rc == CLB_OK && fflush(w->f) == 0;
    w->r.fd = dup(w->r.fd);
    fclose(w->f);
    if (clb_replace_done(&w->r, path, ok && w->r.fd >= 0, CLB_REPLACE) != 0 && ok)
        rc = clb_err(CLB_ESYS, "cannot rewrite '%s': %s (the file is unchanged)", path,
                               strerror(errno));
    return rc;
}

/* The CSV header line of the schema clbench writes: 0, or -1 with errno. */
static int put_header(int fd)
{
    const char *h = clb_csv_header(CLB_SCHEMA);
    return clb_write_all(fd, h, strlen(h)) || clb_write_all(fd, "\n", 1) ? -1 : 0;
}

/* Create path with its header atomically: a temporary file linked into
 * place (never over a file another process created first). */
static int create_with_header(const char *path)
{
    struct clb_replace t;
    if (clb_replace_open(AT_FDCWD, path, 0666, &t) != 0 ||
        clb_replace_done(&t, path, !put_header(t.fd), CLB_REPLACE_NEW) != 0) {
        return clb_eusage("cannot write results file '%s': %s", path, strerror(errno));
    }
    return CLB_OK;
}

/* The first line of an open file that is not blank (readers skip blank lines
 * in both formats), malloc'd: at most FIRST_MAX bytes are looked at (a
 * header or a JSON row is shorter; a NUL byte ends the line too). *blank: the
 * file holds nothing but line breaks (or nothing). */
#define FIRST_MAX ((size_t)1 << 20)
static char *first_line(int fd, int *blank)
{
    char *b = malloc(FIRST_MAX + 1);
    if (!b) {
        clb_seterr(CLB_OOM " reading a results file");
        return NULL;
    }
    size_t n = 0, i = 0, e;
    ssize_t k;
    while (n < FIRST_MAX && (k = pread(fd, b + n, FIRST_MAX - n, (off_t)n)) > 0)
        n += (size_t)k;
    while (i < n && (b[i] == '\r' || b[i] == '\n'))
        i++;
    for (e = i; e < n && b[e] != '\r' && b[e] != '\n' && b[e]; e++)
        ;
    *blank = i == n && n < FIRST_MAX;
    memmove(b, b + i, e - i);
    b[e - i] = 0;
    return b;
}

/* Does the file end with a newline (or is it empty)? */
static int ends_with_newline(int fd)
{
    off_t end = lseek(fd, 0, SEEK_END);
    if (end <= 0)
        return 1;
    char c = 0;
    return pread(fd, &c, 1, end - 1) == 1 && c == '\n';
}

static int torn(const char *path)
{
    return clb_eusage("results file '%s' does not end with a newline (its last row is incomplete); "
                      "repair it or choose another file with -o", path);
}

/* Under the lock: a JSON Lines file has no header; a non-empty one must
 * start with a clbench row of schema v3 (the first line: another tool's log
 * or a `compare --json` document is not appended to) and end with a whole
 * line. */
static int check_json(int fd, const char *path)
{
    int blank;
    char *line = first_line(fd, &blank);
    if (!line)
        return CLB_ESYS;
    if (blank) { /* empty, or blank lines only: rows are appended after them */
        free(line);
        return ends_with_newline(fd) ? CLB_OK : torn(path);
    }
    struct clb_arena a = {0};
    struct clb_row r;
    int v = 0;
    char *where = clb_asprintf("results file '%s'", path);
    int rc = where ? clb_jsonl_row(line, strlen(line), where, &a, &r, &v) : CLB_ESYS;
    free(where);
    free(line);
    clb_arena_free(&a);
    if (rc == CLB_EUSAGE) {
        clb_seterr("results file '%s' is not a JSON Lines file of clbench rows (its first line: "
                   "%s); choose another file with -o", path, clb_lasterr());
        return rc;
    }
    if (rc)
        return rc;
    if (v < CLB_SCHEMA)
        return clb_eusage("results file '%s' holds rows of schema v%d; rows are appended to v%d "
                          "files only: run 'clbench results upgrade %s' first (lossless), or "
                          "choose another file with -o", path, v, CLB_SCHEMA, path);
    return ends_with_newline(fd) ? CLB_OK : torn(path);
}

/* The schema (1..3) of a CSV header line; 0 for another line. */
static int header_version(const char *line)
{
    for (int v = CLB_SCHEMA; v >= 1; v--)
        if (strcmp(line, clb_csv_header(v)) == 0)
            return v;
    return 0;
}

/* Under the lock: a CSV file has the v3 header (an empty one gets it) and
 * ends with a whole line. */
static int check_csv(int fd, const char *path)
{
    int empty;
    char *line = first_line(fd, &empty); /* empty: or blank lines only, which readers skip */
    if (!line)
        return CLB_ESYS;
    int v = header_version(line);
    free(line);
    if (empty && put_header(fd))
        return clb_eusage("cannot write results file '%s': %s", path, strerror(errno));
    if (empty)
        return CLB_OK;
    if (v && v < CLB_SCHEMA)
        return clb_eusage("results file '%s' has the schema v%d header; rows are appended to v%d "
                          "files only: run 'clbench results upgrade %s' first (lossless), or "
                          "choose another file with -o", path, v, CLB_SCHEMA, path);
    if (!v)
        return clb_eusage("results file '%s' has another header (not a clbench results CSV); "
                          "choose another file with -o", path);
    return ends_with_newline(fd) ? CLB_OK : torn(path);
}

/* ---- outputs never replace results ------------------------------------------ */

/* Is path a clbench results file: its first line (after a byte order mark)
 * the CSV header of a schema, or a clbench row in JSON? */
static int is_results(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    int yes = 0;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        int blank;
        char *line = first_line(fd, &blank);
        const char *l = line && !strncmp(line, "\xEF\xBB\xBF", 3) ? line + 3 : line;
        if (l && header_version(l))
            yes = 1;
        else if (l && l[0] == '{') {
            struct clb_arena a = {0};
            struct clb_row r;
            int v;
            yes = clb_jsonl_row(l, strlen(l), path, &a, &r, &v) == CLB_OK;
            clb_arena_free(&a);
        }
        free(line);
    }
    if (fd >= 0)
        close(fd);
    return yes;
}

int clb_output_ok(const char *path, const char *opt, const char *noun)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return CLB_OK; /* nothing there, or a dangling link (the rename replaces the link) */
    int known = clb_files_known(st.st_dev, st.st_ino);
    const char *what = S_ISREG(st.st_mode) && is_results(path) ? "is a clbench results file"
                       : known == 2 ? "is the results file this run writes"
                       : known == 1 ? "is a file this command reads"
                                    : NULL;
    if (!what)
        return CLB_OK;
    return clb_eusage("%s '%s' %s: %s would replace it; nothing was written (choose another name)",
                      opt, path, what, noun);
}

enum clb_format clb_format_of_path(const char *path)
{
    size_t n = strlen(path);
    if ((n >= 5 && strcmp(path + n - 5, ".json") == 0) ||
        (n >= 6 && strcmp(path + n - 6, ".jsonl") == 0))
        return CLB_FORMAT_JSON;
    return CLB_FORMAT_CSV;
}

/* -o -: the rows to standard output, as they are measured (a CSV header
 * once per process, however many devices write), for a pipe: `clbench run
 * ... -o - --format json | jq`. Nothing to guard: no file to lose. */
static int writer_stream(struct clb_writer *w)
{
    static int header_done;
    w->stream = 1;
    w->fd = dup(STDOUT_FILENO);
    w->path = clb_strdup("-");
    int header = w->format == CLB_FORMAT_CSV && !header_done;
    if (w->fd < 0 || !w->path || (header && put_header(w->fd)))
        return clb_err(CLB_ESYS, "cannot write the rows to standard output: %s", strerror(errno));
    header_done |= header;
    return CLB_OK;
}

int clb_writer_open(struct clb_writer *w, const char *path, enum clb_format format)
{
    *w = (struct clb_writer){.fd = -1, .format = format};
    if (!strcmp(path, "-"))
        return writer_stream(w);
    int rc = mkdirs(path);
    if (rc)
        return rc;
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT)
            return clb_eusage("cannot use results file '%s': %s", path, strerror(errno));
        if (format == CLB_FORMAT_CSV && (rc = create_with_header(path)))
            return rc;
    } else if (S_ISLNK(st.st_mode) && (stat(path, &st) != 0 || !S_ISREG(st.st_mode))) {
        return clb_eusage("results file '%s' is a link to something that is not a regular file "
                          "(for standard output: -o -)", path);
    } else if (!S_ISLNK(st.st_mode) && !S_ISREG(st.st_mode)) {
        return clb_eusage("results file '%s' is not a regular file (for standard output: -o -)",
                          path);
    }
    int fd = open(path, O_RDWR | O_APPEND | O_NONBLOCK | O_CLOEXEC |
                            (format == CLB_FORMAT_JSON ? O_CREAT : 0), 0666);
    if (fd < 0)
        return clb_eusage("cannot write results file '%s': %s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        clb_seterr("results file '%s' is not a regular file", path);
        close(fd);
        return CLB_EUSAGE;
    }
    lock(fd, LOCK_EX);
    rc = format == CLB_FORMAT_JSON ? check_json(fd, path) : check_csv(fd, path);
    lock(fd, LOCK_UN);
    if (rc) {
        close(fd);
        return rc;
    }
    w->fd = fd;
    w->dev = st.st_dev;
    w->ino = st.st_ino;
    clb_files_note(st.st_dev, st.st_ino, 1); /* no page or figure may replace it */
    w->end = lseek(fd, 0, SEEK_END);
    w->path = clb_strdup(path);
    return w->path ? CLB_OK : CLB_ESYS;
}

int clb_writer_put(struct clb_writer *w, const struct clb_row *r)
{
    char *line = w->format == CLB_FORMAT_JSON ? clb_row_json(r) : clb_row_format(r, CLB_SCHEMA);
    if (!line)
        return CLB_ESYS;
    int rc = clb_writer_put_text(w, line);
    free(line);
    return rc;
}

/* Under the lock, before an append: is the file still the one we write, and
 * whole? Else w->lost and the message. */
static int guard(struct clb_writer *w)
{
    struct stat fs, ps;
    if (w->lost)
        return CLB_ESYS;
    if (fstat(w->fd, &fs) != 0)
        return clb_err(CLB_ESYS, "cannot check results file '%s': %s", w->path, strerror(errno));
    int named = stat(w->path, &ps) == 0;
    if (named && (ps.st_dev != w->dev || ps.st_ino != w->ino))
        w->lost = "replaced";
    else if (!named || fs.st_nlink == 0)
        w->lost = "deleted";
    else if (fs.st_size < w->end)
        w->lost = "truncated";
    if (!w->lost)
        return CLB_OK;
    if (fs.st_size < w->end && w->lost[0] == 't')
        clb_seterr("results file '%s' was truncated while the run wrote it (%lld bytes, where "
                   "its rows ended at %lld); no more rows are written, the run stops (exit %d)",
                   w->path, (long long)fs.st_size, (long long)w->end, CLB_EXIT_OUTPUT_LOST);
    else
        clb_seterr("results file '%s' was %s while the run wrote it; no more rows are written, "
                   "the run stops (exit %d)", w->path, w->lost, CLB_EXIT_OUTPUT_LOST);
    return CLB_ESYS;
}

int clb_writer_put_text(struct clb_writer *w, const char *line)
{
    size_t len = strlen(line);
    if (len == 0 || line[len - 1] != '\n')
        return clb_err(CLB_ESYS, "internal: a row for '%s' is not one whole line", w->path);
    if (len > CLB_MAX_LINE_BYTES) { /* no reader would take it */
        return clb_err(CLB_ESYS, "a row of %zu bytes for '%s' is longer than the %zu MiB a reader "
                                 "accepts; not written", len, w->path, CLB_MAX_LINE_BYTES >> 20);
    }
    if (w->stream) {   /* a pipe: each row one write, whole */
        if (clb_write_all(w->fd, line, len) == 0)
            return CLB_OK;
        return clb_err(CLB_ESYS, "cannot write a row to standard output: %s", strerror(errno));
    }
    lock(w->fd, LOCK_EX);
    if (guard(w)) {
        lock(w->fd, LOCK_UN);
        return CLB_ESYS;
    }
    /* Where the file ends under the lock: a write cut short (a full disk, a
     * file-size limit) is cut back to here, so the file still ends with its
     * last whole row and parses. Another writer's torn last line (no
     * newline) is not glued to: the row is refused. */
    off_t end = lseek(w->fd, 0, SEEK_END);
    int torn = !ends_with_newline(w->fd);
    int bad = torn || clb_write_all(w->fd, line, len);
    int saved = errno, cut = 0;
    if (bad && !torn && end >= 0)
        cut = ftruncate(w->fd, end) == 0;
    if (!bad)
        w->end = lseek(w->fd, 0, SEEK_END);
    lock(w->fd, LOCK_UN);
    if (torn)
        return clb_err(CLB_ESYS, "results file '%s' no longer ends with a newline (another writer "
                                 "left an incomplete row); the row was not appended", w->path);
    if (bad) {
        clb_seterr("cannot append to results file '%s': %s (%s)", w->path, strerror(saved),
                   cut ? "the file ends with the last row written whole"
                       : "the last row in the file may be incomplete");
        return CLB_ESYS;
    }
    return CLB_OK;
}

void clb_writer_close(struct clb_writer *w)
{
    if (w->fd >= 0)
        close(w->fd);
    free(w->path);
    *w = (struct clb_writer){.fd = -1};
}

/* ---- reading ---------------------------------------------------------- */

struct reader {
    const char *path;
    struct clb_buf fields[CLB_NCOLS];
    int nf, ncols;          /* fields of this record; columns of the file's schema */
    long record;            /* 1-based record number */
    size_t rec_bytes;       /* bytes of the fields of the record being read */
    int overflow, nul;
    struct clb_rowset *out;
    /* raw mode (upgrade): each record's fields handed to a callback */
    void (*raw)(struct reader *rd);
    void *raw_ctx;
    int rc;
};

static void on_field(void *s, size_t len, void *data)
{
    struct reader *rd = data;
    if (rd->nf >= CLB_NCOLS) {
        rd->overflow = 1;
        return;
    }
    struct clb_buf *b = &rd->fields[rd->nf++];
    rd->rec_bytes += len + 1;
    b->len = 0;
    clb_buf_add(b, s ? s : "", s ? len : 0);
    if (b->oom)
        rd->rc = CLB_ESYS;
    if (s && memchr(s, 0, len))
        rd->nul = 1;
}

/* A figure as clbench writes it: decimal digits, an optional fraction and
 * exponent, finite and >= 0. No sign, hex, inf or nan: a file that holds
 * them was not written by clbench or was changed by hand. */
static int parse_figure(const char *s, double *out)
{
    /* "-0" is the only negative clbench could print: refuse every sign */
    if (*s == '-' || clb_number_len(s) != strlen(s))
        return -1;
    double v = strtod(s, NULL);
    if (!isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static int bad_field(struct reader *rd, int col, const char *what)
{
    /* the field is the file's text: escaped (control bytes as \xNN), so
     * that a crafted file cannot drive the terminal through the message */
    struct clb_buf e = {0};
    const char *v = cmp_esc_tmp(&e, clb_buf_str(&rd->fields[col]), 0);
    rd->rc = clb_eusage("%s:%ld: column %s is not %s: '%.80s%s'", rd->path, rd->record,
                        clb_columns[col].name, what, v, strlen(v) > 80 ? "..." : "");
    clb_buf_free(&e);
    return -1;
}

/* A text column: interned in the set's arena; metrics checked. */
static int fill_text(struct reader *rd, struct clb_row *r, int col)
{
    const struct clb_buf *b = &rd->fields[col];
    const char *s = clb_buf_str(b), *why;
    if (clb_columns[col].kind == CLB_COL_MET && clb_metrics_check(s, &why)) {
        rd->rc = clb_eusage("%s:%ld: column metrics is not key=value;...: %s: '%.80s%s'", rd->path,
                            rd->record, why, s, strlen(s) > 80 ? "..." : "");
        return -1;
    }
    const char *c = clb_arena_intern(&rd->out->arena, s, b->len);
    if (!c) {
        rd->rc = CLB_ESYS;
        return -1;
    }
    set_str(r, col, c);
    return 0;
}

/* The metrics of a row of an older schema: from its detail. */
static int derive_metrics(struct reader *rd, struct clb_row *r)
{
    char *m = clb_metrics_from_detail(r->detail);
    const char *c = m ? clb_arena_intern(&rd->out->arena, m, strlen(m)) : NULL;
    free(m);
    if (!c) {
        rd->rc = CLB_ESYS;
        return -1;
    }
    r->metrics = c;
    return 0;
}

int clb_results_status_ok(const char *s)
{
    return clb_list_has("ok,failed,skipped,error,reference", s);
}

static int fill_row(struct reader *rd, struct clb_row *r)
{
    clb_row_init(r);
    for (int i = 0; i < rd->ncols; i++) {
        const char *s = clb_buf_str(&rd->fields[i]);
        int text = CLB_COL_TEXT(clb_columns[i].kind);
        if (text && fill_text(rd, r, i))
            return -1;
        if (text || !*s)
            continue;
        double v;
        if (parse_figure(s, &v))
            return bad_field(rd, i, "a non-negative decimal number");
        if (clb_columns[i].kind == CLB_COL_COUNT && (v != floor(v) || v > 2147483647.0))
            return bad_field(rd, i, "a count");
        set_num(r, i, v);
    }
    if (!clb_results_status_ok(r->status))
        return bad_field(rd, CLB_C_status, "a status (ok, failed, skipped, error, reference)");
    return rd->ncols < CLB_NCOLS ? derive_metrics(rd, r) : 0;
}

static int check_header(struct reader *rd)
{
    /* the columns named as the table names them: each schema is a prefix of it */
    int i = 0;
    while (i < rd->nf && i < CLB_NCOLS && !strcmp(clb_buf_str(&rd->fields[i]), clb_columns[i].name))
        i++;
    for (int v = CLB_SCHEMA; v >= 1; v--)
        if (rd->nf == clb_schema_ncols(v) && i == rd->nf) {
            rd->ncols = rd->nf;
            if (rd->out)
                rd->out->version = v;
            return 0;
        }
    if (i < rd->nf && i < CLB_NCOLS)
        clb_seterr("%s: not a clbench results file (column %d is '%.60s', expected '%s')",
                   rd->path, i + 1, clb_buf_str(&rd->fields[i]), clb_columns[i].name);
    else
        clb_seterr("%s: not a clbench results file (header has %s%d columns, expected %d, %d "
                   "or %d)", rd->path, rd->overflow ? "more than " : "", rd->nf, CLB_NCOLS_V1,
                   CLB_NCOLS_V2, CLB_NCOLS);
    rd->rc = CLB_EUSAGE;
    return -1;
}

/* A whole record: the header, else a row (or upgrade's callback). */
static void take_record(struct reader *rd)
{
    struct clb_row *r;
    if (rd->nul) {
        rd->rc = clb_eusage("%s:%ld: a field holds a NUL byte (not a text file)", rd->path,
                            rd->record);
    } else if (rd->record == 1) {
        check_header(rd);
    } else if (rd->overflow || rd->nf != rd->ncols) {
        rd->rc = clb_eusage("%s:%ld: row has %s%d fields, expected %d", rd->path, rd->record,
                            rd->overflow ? "more than " : "", rd->nf, rd->ncols);
    } else if (rd->raw) {
        rd->raw(rd);
    } else if (!(r = rowset_slot(rd->out))) {
        rd->rc = CLB_ESYS;
    } else if (fill_row(rd, r) == 0) {
        rd->out->n++;
    }
}

static void on_record(int c, void *data)
{
    (void)c;
    struct reader *rd = data;
    rd->record++;
    if (!rd->rc)
        take_record(rd);
    rd->nf = 0;
    rd->overflow = 0;
    rd->nul = 0;
    rd->rec_bytes = 0;
}

/* Open a file to read only when it is a regular file of at most
 * CLB_MAX_INPUT_BYTES: a FIFO, a device (/dev/zero) or a link to one would
 * hang or fill the memory. */
static FILE *open_regular(const char *path, const char *what)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        clb_seterr("cannot read %s '%s': %s", what, path, strerror(errno));
        return NULL;
    }
    if (clb_check_regular(fd, path, what, CLB_MAX_INPUT_BYTES, NULL))
        return NULL;
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        clb_seterr("cannot read %s '%s': %s", what, path, strerror(errno));
    }
    return f;
}

/* No byte is a blank to the parser: libcsv would trim spaces and tabs at the
 * edges of unquoted fields, and a field must read back byte for byte. */
static int no_space(unsigned char c)
{
    (void)c;
    return 0;
}

/* "-": standard input, read once (at most CLB_MAX_INPUT_BYTES) and kept,
 * so that every reader may open it again (the format is sniffed first):
 * `clbench run ... -o - | clbench compare -`. */
static FILE *open_stdin(void)
{
    static char *data;
    static size_t len;
    static int read_done;
    if (!read_done) {
        size_t cap = 0, k = 1;
        while (k > 0) {
            if (len == cap && clb_grow((void **)&data, len, &cap, 1, 1 << 16))
                return NULL;
            k = fread(data + len, 1, cap - len, stdin);
            len += k;
            if (len > CLB_MAX_INPUT_BYTES) {
                clb_seterr("standard input: larger than the %zu GiB clbench reads",
                           CLB_MAX_INPUT_BYTES >> 30);
                return NULL;
            }
        }
        if (ferror(stdin)) {
            clb_seterr("cannot read results from standard input: %s", strerror(errno));
            return NULL;
        }
        read_done = 1;
    }
    FILE *f = len ? fmemopen(data, len, "rb") : NULL;
    if (!f && len)
        clb_seterr("cannot read results from standard input: %s", strerror(errno));
    else if (!f)
        clb_seterr("standard input: empty, not a clbench results file");
    return f;
}

FILE *clb_results_open(const char *path)
{
    return strcmp(path, "-") ? open_regular(path, "results file") : open_stdin();
}

/* Does the file start (after a UTF-8 byte order mark) with '{'? 1 yes, 0 no,
 * -1 when it cannot be read (message set). */
static int is_jsonl(const char *path)
{
    FILE *f = clb_results_open(path);
    if (!f)
        return -1;
    /* the first byte that is not a line break (blank lines are skipped in
     * both formats), after a byte order mark */
    int c, at = 0, json = 0;
    unsigned char bom[3] = {0xEF, 0xBB, 0xBF};
    while ((c = getc(f)) != EOF) {
        if (at < 3 && c == bom[at]) {
            at++;
            continue;
        }
        at = 3;
        if (c != '\n' && c != '\r') {
            json = c == '{';
            break;
        }
    }
    fclose(f);
    return json;
}

static int parse_file(struct reader *rd)
{
    FILE *f = clb_results_open(rd->path);
    if (!f)
        return CLB_EUSAGE;
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
        fclose(f);
        return clb_err(CLB_ESYS, "cannot initialise the CSV parser");
    }
    csv_set_space_func(&p, no_space);
    /* libcsv grows a field's buffer by this many bytes at a time: by its
     * default (128) a 1 MiB field took 8 000 reallocs, 395 MB of peak memory
     * under ASan's quarantine */
    csv_set_blk_size(&p, 1 << 16);
    char *buf = clb_xmalloc(1 << 16);
    if (!buf) {
        csv_free(&p);
        fclose(f);
        return CLB_ESYS;
    }
    size_t k, total = 0;
    int first = 1;
    while (!rd->rc && (k = fread(buf, 1, 1 << 16, f)) > 0) {
        const char *b = buf;
        /* A UTF-8 byte order mark (an editor's) is skipped, not read as part of run_id. */
        if (first && k >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
            b += 3, k -= 3;
        first = 0;
        total += k;
        if (total > CLB_MAX_INPUT_BYTES) {
            rd->rc = clb_eusage("%s: larger than the %zu GiB clbench reads", rd->path,
                                CLB_MAX_INPUT_BYTES >> 30);
            break;
        }
        if (csv_parse(&p, b, k, on_field, on_record, rd) != k && !rd->rc)
            rd->rc = clb_eusage("%s:%ld: malformed CSV (%s)", rd->path, rd->record + 1,
                                csv_strerror(csv_error(&p)));
        /* the record being read (its fields so far, the one in the parser's
         * buffer): refused past the limit, so neither grows further */
        if (!rd->rc && rd->rec_bytes + p.entry_pos > CLB_MAX_LINE_BYTES)
            rd->rc = clb_eusage("%s:%ld: a record longer than the %zu MiB of any clbench row",
                                rd->path, rd->record + 1, CLB_MAX_LINE_BYTES >> 20);
    }
    if (!rd->rc && ferror(f))
        rd->rc = clb_eusage("%s: read error: %s", rd->path, strerror(errno));
    if (!rd->rc && csv_fini(&p, on_field, on_record, rd) != 0 && !rd->rc)
        rd->rc = clb_eusage("%s: malformed CSV at the end (%s)", rd->path,
                            csv_strerror(csv_error(&p)));
    csv_free(&p);
    free(buf);
    fclose(f);
    for (int i = 0; i < CLB_NCOLS; i++)
        clb_buf_free(&rd->fields[i]);
    if (!rd->rc && rd->record == 0)
        rd->rc = clb_eusage("%s: empty file, not a clbench results file", rd->path);
    return rd->rc;
}

int clb_results_read(const char *path, struct clb_rowset *out)
{
    int json = is_jsonl(path);
    if (json < 0)
        return CLB_EUSAGE;
    if (json)
        return clb_jsonl_read(path, out);
    struct reader rd = {.path = path, .out = out};
    return parse_file(&rd);
}

/* ---- upgrade v1, v2 -> v3 -------------------------------------------------- */

/* One record of the old file: its fields as they were, the columns it lacks
 * empty, its metrics derived from its detail. */
static void upgrade_record(struct reader *rd)
{
    FILE *f = rd->raw_ctx;
    for (int i = 0; i < rd->ncols; i++) {
        put_str(f, clb_buf_str(&rd->fields[i]));
        fputc(',', f);
    }
    for (int i = rd->ncols; i < CLB_NCOLS - 1; i++)
        fputc(',', f);
    char *m = clb_metrics_from_detail(clb_buf_str(&rd->fields[CLB_C_detail]));
    if (!m) {
        rd->rc = CLB_ESYS;
        return;
    }
    put_str(f, m);
    free(m);
    fputc('\n', f);
}

/* Write the upgraded file beside path and rename it into place. */
static int upgrade_write(const char *path)
{
    struct clb_rewrite w;
    int rc = clb_rewrite_open(path, &w);
    if (rc)
        return rc;
    fprintf(w.f, "%s\n", clb_csv_header(CLB_SCHEMA));
    struct reader rd = {.path = path, .raw = upgrade_record, .raw_ctx = w.f};
    return clb_rewrite_close(path, &w, parse_file(&rd));
}

int clb_results_upgrade(const char *path, int *already, int *from, size_t *rows)
{
    *already = 0;
    /* Read it whole first: a file that does not parse is not rewritten. */
    struct clb_rowset check = {0};
    int json = is_jsonl(path);
    int rc = json < 0 ? CLB_EUSAGE : clb_results_read(path, &check);
    *from = check.version;
    *rows = check.n;
    if (!rc && *from == CLB_SCHEMA)
        *already = 1;
    else if (!rc)
        rc = json ? clb_jsonl_upgrade(path, &check) : upgrade_write(path);
    clb_rowset_free(&check);
    return rc;
}
