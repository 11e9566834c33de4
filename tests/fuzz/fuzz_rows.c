/* libFuzzer: every consumer of rows, on one fuzzed results file (CSV or JSON
 * Lines: the reader tells them apart by content). The file is read by the
 * results module and, when it reads, handed to each consumer below: a
 * consumer may refuse the file or skip rows (with a message), never crash,
 * leak or hit undefined behaviour; `results upgrade` must also keep every
 * row (the oracle reads the upgraded file back).
 *
 * To cover a new consumer of rows (the regression gate), add one
 * function and one entry to `consumers` below; tests/fuzz/run_fuzz.sh runs
 * the harness for a bounded time from a corpus seeded with every committed
 * results file, and once on each of those files whole.
 *
 * FUZZ_VERBOSE=1 keeps the commands' stdout and stderr (they go to /dev/null
 * otherwise); a sanitizer's report of a crash is then visible too. */
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "clb_ceilings.h"
#include "clb_compare.h"
#include "clb_report.h"
#include "clb_results.h"
#include "clb_workload.h"
#include "core/summary.h"
#include "fuzz_common.h"
#include "html_oracle.h"

static int quiet_fd[2] = {-1, -1}, null_fd = -1;

/* The commands' output goes to /dev/null while a consumer runs. */
static void quiet(int on)
{
    if (null_fd < 0)
        return;
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < 2; k++)
        dup2(on ? null_fd : quiet_fd[k], k + 1);
}

/* A command (argv[0] its name), getopt reset first. */
static int command(int (*fn)(int, char **), int argc, const char **argv)
{
    optind = 0;
    return fn(argc, (char **)argv);
}

/* ---- the consumers ---------------------------------------------------------- */

/* compare with each metric (-m), as text, Markdown, JSON and over any size. */
static void compare_metrics(const char *path, const struct clb_rowset *rows)
{
    (void)rows;
    static const char *const form[] = {"", "--markdown", "--json", "--any-size"};
    int k = 0;
    for (const struct cmp_metric *m = cmp_metric_list(); m->name; m++, k++) {
        const char *argv[] = {"compare", path, "-m", m->name, form[k % 4], NULL};
        command(clb_cmd_compare, form[k % 4][0] ? 5 : 4, argv);
    }
}

/* The file's rows as another run (run id "fuzz-baseline"): the gate refuses
 * a baseline's own rows on the new side, so the file is set against this
 * copy of itself. The path is the caller's to unlink; NULL when not written. */
static char *as_baseline(const struct clb_rowset *rows)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/fuzz-rows-base-%ld.csv", (long)getpid());
    unlink(path);
    struct clb_writer w;
    if (clb_writer_open(&w, path, CLB_FORMAT_CSV) != CLB_OK)
        return NULL;
    int rc = CLB_OK;
    for (size_t i = 0; i < rows->n && rc == CLB_OK; i++) {
        struct clb_row r = rows->v[i];
        r.run_id = "fuzz-baseline";
        rc = clb_writer_put(&w, &r);
    }
    clb_writer_close(&w);
    return path;
}

/* compare --baseline: the file against a copy of itself (the gate's input),
 * and against itself (refused: a run cannot be its own baseline). */
static void compare_baseline(const char *path, const struct clb_rowset *rows)
{
    const char *base = as_baseline(rows);
    const char *argv[] = {"compare", path, "--baseline", base ? base : path, "--json", NULL};
    command(clb_cmd_compare, 5, argv);
    argv[3] = path;
    command(clb_cmd_compare, 5, argv);
    if (base)
        unlink(base);
}

/* The regression gate: the file against a copy of itself with each of its options, as
 * text, Markdown and JSON (cross-device matching, the spread, missing lines;
 * a refusal is an answer too). */
static void gate(const char *path, const struct clb_rowset *rows)
{
    const char *base = as_baseline(rows);
    static const char *const opts[][4] = {
        {"--strict", "--markdown", "--threshold", "0"},
        {"--cross-device", "--allow-missing", "--json", "-mgbps_best"},
        {"--cross-device", "--any-size", "--threshold", "0.5"},
        {"-m", "power", "--allow-missing", "--markdown"}};
    for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
        const char *argv[] = {"compare", path, "--baseline", base ? base : path, opts[k][0],
                              opts[k][1], opts[k][2], opts[k][3], NULL};
        command(clb_cmd_compare, 8, argv);
    }
    if (base)
        unlink(base);
}

static int report_chart(const struct clb_chart *c, void *ctx);

/* One of compare's charts: rendered and held to the plot oracle, as the
 * report's are. */
static int plot_chart(const char *final, struct clb_chart *c, void *ctx)
{
    (void)final;
    return report_chart(c, ctx);
}

/* compare --plot: every figure (tables, rooflines, staircases) and its
 * gnuplot script, in memory (no gnuplot). */
static void compare_plot(const char *path, const struct clb_rowset *rows)
{
    (void)rows;
    char *files[] = {(char *)path};
    struct cmp_filter flt = {.plot = 1};
    struct cmp_table t;
    if (cmp_build(&t, files, 1, &flt, cmp_metric_find("gbps")) == CLB_OK) {
        int n = 0;
        cmp_plot_each(&t, "/tmp/fuzz-rows.svg", plot_chart, &n);
    }
    cmp_free(&t);
}

/* model roofline --ceilings, by profile and by the file's first device. */
static void model_ceilings(const char *path, const struct clb_rowset *rows)
{
    const char *a[] = {"model", "roofline", "-w", "stream", "-k", "copy", "-t", "float", "-s",
                       "1M", "-p", "h100_sxm", "--ceilings", path, NULL};
    command(clb_cmd_model, 14, a);
    if (rows->n) {
        const char *b[] = {"model", "roofline", "-w", "dslash", "-t", "float", "-s", "8x8x8x8",
                           "--ceilings", path, "--device", rows->v[0].device, NULL};
        command(clb_cmd_model, 12, b);
    }
}

/* run --ceilings: what the run does with the file before it measures (the
 * device's ceilings and where each came from). */
static void run_ceilings(const char *path, const struct clb_rowset *rows)
{
    if (!rows->n)
        return;
    struct clb_ceil_pick pick = {rows->v[rows->n - 1].device, NULL, NULL, NULL};
    struct clb_ceilings c;
    if (clb_ceilings_load(path, &pick, &c) == CLB_OK)
        for (int k = 0; k < CLB_NCEILINGS; k++)
            free(clb_ceiling_origin(&c, (enum clb_ceiling_kind)k));
    clb_ceilings_free(&c);
}

/* The sweeps and summaries the workloads build from rows (their summarize
 * and ceilings hooks), on every row of the file. */
static void workload_hooks(const char *path, const struct clb_rowset *rows)
{
    (void)path;
    const struct clb_workload *wls[64];
    int n = 0;
    for (const struct clb_workload *const *w = clb_workload_list(); *w && n < 64; w++)
        wls[n++] = *w;
    FILE *null = fopen("/dev/null", "w");
    if (null)
        clb_summary_print(NULL, rows->v, rows->n, wls, n, null); /* no device: rows only */
    if (null)
        fclose(null);
    const struct clb_row **all = malloc((rows->n + 1) * sizeof *all);
    struct clb_ceiling_set *set = malloc(sizeof *set);
    for (size_t i = 0; all && i < rows->n; i++)
        all[i] = &rows->v[i];
    if (all && set)
        clb_ceilings_measure(all, rows->n, set);
    free(all);
    free(set);
}

/* results upgrade: a copy upgraded, then read back with every row. */
static void upgrade(const char *path, const struct clb_rowset *rows)
{
    char tmp[] = "/tmp/fuzz-rows-upgrade-XXXXXX";
    int fd = mkstemp(tmp), in = open(path, O_RDONLY);
    char buf[65536];
    ssize_t k;
    while (fd >= 0 && in >= 0 && (k = read(in, buf, sizeof buf)) > 0)
        if (write(fd, buf, (size_t)k) != k)
            break;
    if (in >= 0)
        close(in);
    if (fd < 0)
        return;
    close(fd);
    int already, from;
    size_t n;
    if (clb_results_upgrade(tmp, &already, &from, &n) == CLB_OK) {
        struct clb_rowset back = {0};
        if (clb_results_read(tmp, &back) != CLB_OK || back.n != rows->n || back.version != 3) {
            quiet(0);
            fprintf(stderr, "fuzz_rows: the upgrade of a file of %zu rows reads back as %zu rows "
                            "(v%d): %s\n", rows->n, back.n, back.version, clb_lasterr());
            abort();
        }
        for (size_t i = 0; i < back.n; i++)
            if (strcmp(back.v[i].detail, rows->v[i].detail) ||
                strcmp(back.v[i].metrics, rows->v[i].metrics)) {
                quiet(0);
                fprintf(stderr, "fuzz_rows: row %zu changed in the upgrade\n", i + 1);
                abort();
            }
        clb_rowset_free(&back);
    }
    unlink(tmp);
}

/* report (and compare): each chart rendered as gnuplot's input (no gnuplot run) and held
 * to the plot oracle; the page (tables only: no figure) to the HTML oracle. */
static int report_chart(const struct clb_chart *c, void *ctx)
{
    struct clb_chart_text t;
    int rc = clb_chart_gnuplot(c, &(struct clb_chart_out){1, 1}, &t);
    (*(int *)ctx)++;
    if (rc)
        return rc == CLB_ESYS ? rc : CLB_OK;
    const char *why = oracle_script(clb_buf_str(&t.script), t.script.len);
    if (!why)
        why = oracle_data(clb_buf_str(&t.data), t.data.len);
    if (!why)
        why = oracle_data(clb_buf_str(&t.peaks), t.peaks.len);
    if (why) {
        quiet(0);
        fprintf(stderr, "fuzz_rows: a chart: %s\n%s\n", why, clb_buf_str(&t.script));
        abort();
    }
    clb_chart_text_free(&t);
    return CLB_OK;
}

static void report(const char *path, const struct clb_rowset *rows)
{
    char *files[] = {(char *)path};
    int charts = 0;
    struct clb_report_opts o = {(enum clb_report_norm)(rows->n % 3), 0, NULL, report_chart,
                                &charts};
    struct clb_buf page = {0};
    if (clb_report_html(files, 1, &o, &page, NULL) == CLB_OK) {
        const char *why = oracle_page(clb_buf_str(&page), page.len);
        if (why) {
            quiet(0);
            fprintf(stderr, "fuzz_rows: the report's page: %s\n", why);
            abort();
        }
    }
    clb_buf_free(&page);
}

static const struct {
    const char *name;
    void (*run)(const char *path, const struct clb_rowset *rows);
} consumers[] = {
    {"compare -m each metric", compare_metrics},
    {"compare --baseline", compare_baseline},
    {"compare --plot", compare_plot},
    {"model --ceilings", model_ceilings},
    {"run --ceilings", run_ceilings},
    {"workload summaries and ceilings", workload_hooks},
    {"results upgrade", upgrade},
    {"the regression gate (compare --baseline --strict, --cross-device, ...)", gate},
    {"report", report},
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    clb_verbosity = 0;
    const char *v = getenv("FUZZ_VERBOSE");
    if (!(v && *v && strcmp(v, "0"))) {
        null_fd = open("/dev/null", O_WRONLY);
        quiet_fd[0] = dup(1);
        quiet_fd[1] = dup(2);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* a .csv name: a JSON Lines input is told apart by its content */
    const char *path = fuzz_file(data, size, ".csv");
    if (!path)
        return 0;
    struct clb_rowset rows = {0};
    if (clb_results_read(path, &rows) == CLB_OK) {
        quiet(1);
        for (size_t i = 0; i < sizeof consumers / sizeof *consumers; i++)
            consumers[i].run(path, &rows);
        quiet(0);
    }
    clb_rowset_free(&rows);
    return 0;
}
