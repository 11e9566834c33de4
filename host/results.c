/* Results CSV: the writer appends one locked, flushed row at a time; the
 * reader turns a file back into rows. Quoting is libcsv's. */
#define _GNU_SOURCE
#include "clb_results.h"
#include "clbench.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

void clb_row_init(struct clb_row *r)
{
    memset(r, 0, sizeof *r);
    r->warmup = r->reps = -1;
    r->bytes = r->flops = NAN;
    r->t_min = r->t_median = r->t_mean = r->t_max = r->t_stddev = NAN;
    r->gbps = r->gbps_best = r->gflops = r->pct_peak_bw = r->model = NAN;
}

/* ---- writing ---------------------------------------------------------- */

static void put_str(FILE *f, const char *s, int last)
{
    /* csv_fwrite quotes every field; quote only where needed to keep the
     * file readable by eye: fields with separators, quotes or newlines. */
    if (strpbrk(s, ",\"\r\n") || (s[0] == ' ' || (s[0] && s[strlen(s) - 1] == ' ')))
        csv_fwrite(f, s, strlen(s));
    else
        fputs(s, f);
    fputc(last ? '\n' : ',', f);
}

static void put_num(FILE *f, double v)
{
    if (!isnan(v))
        fprintf(f, "%.6g", v);
    fputc(',', f);
}

static void put_time(FILE *f, double v)
{
    if (!isnan(v))
        fprintf(f, "%.9g", v);
    fputc(',', f);
}

static void put_int(FILE *f, int v)
{
    if (v >= 0)
        fprintf(f, "%d", v);
    fputc(',', f);
}

char *clb_row_format(const struct clb_row *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        clb_seterr("out of host memory formatting a row");
        return NULL;
    }
    const char *strs1[] = {r->run_id,   r->timestamp, r->host,    r->platform,    r->device,
                           r->device_type, r->driver, r->profile, r->workload,    r->kernel,
                           r->dtype,    r->size,      r->params,  r->local_size,  r->global_size};
    for (size_t i = 0; i < sizeof strs1 / sizeof *strs1; i++)
        put_str(f, strs1[i], 0);
    put_int(f, r->warmup);
    put_int(f, r->reps);
    /* bytes and flops are counts: print them exactly */
    if (!isnan(r->bytes)) fprintf(f, "%.0f", r->bytes);
    fputc(',', f);
    if (!isnan(r->flops)) fprintf(f, "%.0f", r->flops);
    fputc(',', f);
    put_time(f, r->t_min);
    put_time(f, r->t_median);
    put_time(f, r->t_mean);
    put_time(f, r->t_max);
    put_time(f, r->t_stddev);
    put_num(f, r->gbps);
    put_num(f, r->gbps_best);
    put_num(f, r->gflops);
    put_num(f, r->pct_peak_bw);
    put_num(f, r->model);
    put_str(f, r->status, 0);
    put_str(f, r->detail, 1);
    if (fclose(f) != 0) {
        free(buf);
        clb_seterr("out of host memory formatting a row");
        return NULL;
    }
    return buf;
}

static int mkdirs(const char *path)
{
    char *tmp = clb_strdup(path);
    if (!tmp)
        return CLB_ESYS;
    char *dir = dirname(tmp);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        mkdir(dir, 0777);
        *p = '/';
    }
    int rc = (mkdir(dir, 0777) == 0 || errno == EEXIST) ? CLB_OK : CLB_EUSAGE;
    if (rc)
        clb_seterr("cannot create directory '%s' for the results: %s", dir, strerror(errno));
    free(tmp);
    return rc;
}

/* Read the first line of an open file (at most n-1 bytes). */
static void first_line(int fd, char *buf, size_t n)
{
    ssize_t k = pread(fd, buf, n - 1, 0);
    buf[k > 0 ? k : 0] = 0;
    char *nl = strpbrk(buf, "\r\n");
    if (nl)
        *nl = 0;
}

static int write_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t k = write(fd, s, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        s += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Take or drop the advisory lock. A signal (SIGINT) can interrupt a wait for
 * the lock: retry, or the row would be appended unlocked. */
static void lock(int fd, int op)
{
    while (flock(fd, op) != 0 && errno == EINTR)
        ;
}

/* Create path with its header atomically: write a temporary file, then link
 * it into place (link fails if another process created the file first). */
static int create_with_header(const char *path)
{
    size_t n = strlen(path) + 32;
    char *tmp = clb_xmalloc(n);
    if (!tmp)
        return CLB_ESYS;
    snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) {
        clb_seterr("cannot write results file '%s': %s", path, strerror(errno));
        free(tmp);
        return CLB_EUSAGE;
    }
    int ok = write_all(fd, CLB_CSV_HEADER "\n", strlen(CLB_CSV_HEADER) + 1) == 0 && fsync(fd) == 0;
    close(fd);
    if (ok && link(tmp, path) != 0 && errno != EEXIST)
        ok = 0;
    int saved = errno;
    unlink(tmp);
    free(tmp);
    if (!ok) {
        clb_seterr("cannot write results file '%s': %s", path, strerror(saved));
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

int clb_writer_open(struct clb_writer *w, const char *path)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    int rc = mkdirs(path);
    if (rc)
        return rc;
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno != ENOENT) {
            clb_seterr("cannot use results file '%s': %s", path, strerror(errno));
            return CLB_EUSAGE;
        }
        if ((rc = create_with_header(path)))
            return rc;
    } else if (!S_ISREG(st.st_mode)) {
        clb_seterr("results file '%s' is not a regular file", path);
        return CLB_EUSAGE;
    }
    int fd = open(path, O_RDWR | O_APPEND);
    if (fd < 0) {
        clb_seterr("cannot write results file '%s': %s", path, strerror(errno));
        return CLB_EUSAGE;
    }
    /* Check (or, for an empty file, write) the header under the lock. */
    lock(fd, LOCK_EX);
    char line[sizeof CLB_CSV_HEADER + 8];
    first_line(fd, line, sizeof line);
    if (line[0] == 0 && lseek(fd, 0, SEEK_END) == 0) {
        if (write_all(fd, CLB_CSV_HEADER "\n", strlen(CLB_CSV_HEADER) + 1)) {
            lock(fd, LOCK_UN);
            close(fd);
            clb_seterr("cannot write results file '%s': %s", path, strerror(errno));
            return CLB_EUSAGE;
        }
    } else if (strcmp(line, CLB_CSV_HEADER) != 0) {
        lock(fd, LOCK_UN);
        close(fd);
        clb_seterr("results file '%s' has another header (not a clbench %s CSV); "
                   "choose another file with -o",
                   path, CLB_VERSION);
        return CLB_EUSAGE;
    }
    lock(fd, LOCK_UN);
    w->fd = fd;
    w->path = clb_strdup(path);
    return CLB_OK;
}

int clb_writer_put(struct clb_writer *w, const struct clb_row *r)
{
    char *line = clb_row_format(r);
    if (!line)
        return CLB_ESYS;
    lock(w->fd, LOCK_EX);
    /* Where the file ends under the lock: a write cut short (a full disk, a
     * file-size limit) is cut back to here, so the file still ends with its
     * last whole row and parses. */
    off_t end = lseek(w->fd, 0, SEEK_END);
    int bad = write_all(w->fd, line, strlen(line));
    int saved = errno, cut = 0;
    if (bad && end >= 0)
        cut = ftruncate(w->fd, end) == 0;
    lock(w->fd, LOCK_UN);
    free(line);
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
    memset(w, 0, sizeof *w);
    w->fd = -1;
}

/* ---- reading ---------------------------------------------------------- */

struct reader {
    const char *path;
    char *fields[CLB_CSV_NCOLS];
    int nf;
    long record;             /* 1-based record number */
    int overflow;
    struct clb_row *rows;
    size_t n, cap;
    int rc;
};

static const char *const columns[CLB_CSV_NCOLS] = {
    "run_id", "timestamp", "host", "platform", "device", "device_type", "driver", "profile",
    "workload", "kernel", "dtype", "size", "params", "local_size", "global_size", "warmup",
    "reps", "bytes", "flops", "t_min_s", "t_median_s", "t_mean_s", "t_max_s", "t_stddev_s",
    "gbps", "gbps_best", "gflops", "pct_peak_bw", "model", "status", "detail"};

static void on_field(void *s, size_t len, void *data)
{
    struct reader *rd = data;
    if (rd->nf >= CLB_CSV_NCOLS) {
        rd->overflow = 1;
        return;
    }
    char *f = malloc(len + 1);
    if (!f) {
        rd->rc = CLB_ESYS;
        return;
    }
    memcpy(f, s, len);
    f[len] = 0;
    rd->fields[rd->nf++] = f;
}

static int get_num(struct reader *rd, int col, double *out)
{
    const char *s = rd->fields[col];
    if (!*s) {
        *out = NAN;
        return 0;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno) {
        clb_seterr("%s:%ld: column %s is not a number: '%s'", rd->path, rd->record, columns[col],
                   s);
        return -1;
    }
    *out = v;
    return 0;
}

/* warmup and reps are counts: a whole number that fits an int, or empty
 * (-1). Anything else is a corrupt row, not a value to convert. */
static int to_count(struct reader *rd, int col, double v, int *out)
{
    if (isnan(v)) {
        *out = -1;
        return 0;
    }
    if (!(v >= 0 && v <= INT_MAX) || v != floor(v)) {
        clb_seterr("%s:%ld: column %s is not a count: '%s'", rd->path, rd->record, columns[col],
                   rd->fields[col]);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static void fill_row(struct reader *rd, struct clb_row *r)
{
    char **f = rd->fields;
    char *strs[] = {r->run_id,   r->timestamp, r->host,    r->platform, r->device,
                    r->device_type, r->driver, r->profile, r->workload, r->kernel,
                    r->dtype,    r->size,      r->params,  r->local_size, r->global_size};
    size_t lens[] = {sizeof r->run_id,   sizeof r->timestamp, sizeof r->host,
                     sizeof r->platform, sizeof r->device,    sizeof r->device_type,
                     sizeof r->driver,   sizeof r->profile,   sizeof r->workload,
                     sizeof r->kernel,   sizeof r->dtype,     sizeof r->size,
                     sizeof r->params,   sizeof r->local_size, sizeof r->global_size};
    for (int i = 0; i < 15; i++)
        clb_strlcpy(strs[i], f[i], lens[i]);
    double w, reps;
    double *nums[] = {&w,         &reps,       &r->bytes,  &r->flops,     &r->t_min,
                      &r->t_median, &r->t_mean, &r->t_max, &r->t_stddev, &r->gbps,
                      &r->gbps_best, &r->gflops, &r->pct_peak_bw, &r->model};
    for (int i = 0; i < 14; i++)
        if (get_num(rd, 15 + i, nums[i])) {
            rd->rc = CLB_EUSAGE;
            return;
        }
    if (to_count(rd, 15, w, &r->warmup) || to_count(rd, 16, reps, &r->reps)) {
        rd->rc = CLB_EUSAGE;
        return;
    }
    clb_strlcpy(r->status, f[29], sizeof r->status);
    clb_strlcpy(r->detail, f[30], sizeof r->detail);
}

static void on_record(int c, void *data)
{
    (void)c;
    struct reader *rd = data;
    rd->record++;
    if (rd->rc)
        goto out;
    if (rd->overflow || rd->nf != CLB_CSV_NCOLS) {
        if (rd->record == 1)
            clb_seterr("%s: not a clbench results file (header has %s%d columns, expected %d)",
                       rd->path, rd->overflow ? "more than " : "", rd->nf, CLB_CSV_NCOLS);
        else
            clb_seterr("%s:%ld: row has %s%d fields, expected %d", rd->path, rd->record,
                       rd->overflow ? "more than " : "", rd->nf, CLB_CSV_NCOLS);
        rd->rc = CLB_EUSAGE;
        goto out;
    }
    if (rd->record == 1) {
        for (int i = 0; i < CLB_CSV_NCOLS; i++)
            if (strcmp(rd->fields[i], columns[i]) != 0) {
                clb_seterr("%s: not a clbench %s results file (column %d is '%s', expected '%s')",
                           rd->path, CLB_VERSION, i + 1, rd->fields[i], columns[i]);
                rd->rc = CLB_EUSAGE;
                goto out;
            }
        goto out;
    }
    if (rd->n == rd->cap) {
        size_t cap = rd->cap ? 2 * rd->cap : 64;
        void *nv = realloc(rd->rows, cap * sizeof *rd->rows);
        if (!nv) {
            clb_seterr("out of host memory reading '%s'", rd->path);
            rd->rc = CLB_ESYS;
            goto out;
        }
        rd->rows = nv;
        rd->cap = cap;
    }
    clb_row_init(&rd->rows[rd->n]);
    fill_row(rd, &rd->rows[rd->n]);
    if (!rd->rc)
        rd->n++;
out:
    for (int i = 0; i < rd->nf; i++)
        free(rd->fields[i]);
    rd->nf = 0;
    rd->overflow = 0;
}

int clb_results_read(const char *path, struct clb_row **rows, size_t *n)
{
    *rows = NULL;
    *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        clb_seterr("cannot read '%s': %s", path, strerror(errno));
        return CLB_EUSAGE;
    }
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0) {
        fclose(f);
        clb_seterr("cannot initialise the CSV parser");
        return CLB_ESYS;
    }
    struct reader rd = {.path = path};
    char buf[65536];
    size_t k;
    while (!rd.rc && (k = fread(buf, 1, sizeof buf, f)) > 0)
        if (csv_parse(&p, buf, k, on_field, on_record, &rd) != k) {
            clb_seterr("%s:%ld: malformed CSV (%s)", path, rd.record + 1,
                       csv_strerror(csv_error(&p)));
            rd.rc = CLB_EUSAGE;
        }
    if (!rd.rc && csv_fini(&p, on_field, on_record, &rd) != 0) {
        clb_seterr("%s: malformed CSV at the end (%s)", path, csv_strerror(csv_error(&p)));
        rd.rc = CLB_EUSAGE;
    }
    csv_free(&p);
    for (int i = 0; i < rd.nf; i++)
        free(rd.fields[i]);
    fclose(f);
    if (!rd.rc && rd.record == 0) {
        clb_seterr("%s: empty file, not a clbench results file", path);
        rd.rc = CLB_EUSAGE;
    }
    if (rd.rc) {
        free(rd.rows);
        return rd.rc;
    }
    *rows = rd.rows;
    *n = rd.n;
    return CLB_OK;
}
