/* Concurrent appends to one results CSV: several processes create the same
 * new file at once and append rows as fast as they can. The file must hold
 * one header and every row intact (the advisory lock around each append and
 * the link()-based creation of results.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "clb_results.h"
#include "clbench.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { WRITERS = 4, ROWS = 250, ROUNDS = 5 };

/* A row whose every field tells who wrote it, with a long detail so that
 * an interleaved write would show. */
static char run_id[WRITERS][32], kernel[ROWS][16], detail[WRITERS][401];

static void make_row(struct clb_row *r, int writer, int i)
{
    clb_row_init(r);
    snprintf(run_id[writer], sizeof run_id[writer], "writer-%d", writer);
    snprintf(kernel[i], sizeof kernel[i], "k%d", i);
    r->run_id = run_id[writer];
    r->kernel = kernel[i];
    r->workload = "concurrent";
    r->status = "ok";
    r->reps = i;
    r->gbps = writer * 1000.0 + i;
    memset(detail[writer], 'a' + writer, 400);
    detail[writer][400] = 0;
    memcpy(detail[writer] + 100, ", \"quoted\", with commas", 23);
    r->detail = detail[writer];
}

static void writer_child(const char *path, int writer, int go)
{
    char c;
    if (read(go, &c, 1) != 1) /* wait until every writer is ready */
        _exit(2);
    struct clb_writer w;
    if (clb_writer_open(&w, path, CLB_FORMAT_CSV))
        _exit(3);
    for (int i = 0; i < ROWS; i++) {
        struct clb_row r;
        make_row(&r, writer, i);
        if (clb_writer_put(&w, &r))
            _exit(4);
    }
    clb_writer_close(&w);
    _exit(0);
}

static void check_file(const char *path)
{
    struct clb_rowset set;
    memset(&set, 0, sizeof set);
    /* the reader refuses a second header or a row without 37 fields */
    assert_int_equal(clb_results_read(path, &set), CLB_OK);
    struct clb_row *rows = set.v;
    size_t n = set.n;
    assert_int_equal(n, WRITERS * ROWS);
    int next[WRITERS] = {0};
    for (size_t k = 0; k < n; k++) {
        int writer = -1;
        assert_int_equal(sscanf(rows[k].run_id, "writer-%d", &writer), 1);
        assert_true(writer >= 0 && writer < WRITERS);
        struct clb_row want;
        make_row(&want, writer, next[writer]);
        /* each writer's rows arrive whole and in its order */
        assert_string_equal(rows[k].kernel, want.kernel);
        assert_string_equal(rows[k].detail, want.detail);
        assert_true(rows[k].reps == want.reps);
        assert_true(rows[k].gbps == want.gbps);
        next[writer]++;
    }
    for (int i = 0; i < WRITERS; i++)
        assert_int_equal(next[i], ROWS);
    clb_rowset_free(&set);
}

static void test_concurrent_appends(void **st)
{
    (void)st;
    char dir[] = "/tmp/clbench-concurrent-XXXXXX";
    assert_non_null(mkdtemp(dir));
    for (int round = 0; round < ROUNDS; round++) {
        char path[128];
        snprintf(path, sizeof path, "%s/sub/r%d.csv", dir, round); /* new dir and file */
        int go[2];
        assert_int_equal(pipe(go), 0);
        pid_t pids[WRITERS];
        for (int i = 0; i < WRITERS; i++) {
            pids[i] = fork();
            assert_true(pids[i] >= 0);
            if (pids[i] == 0) {
                close(go[1]);
                writer_child(path, i, go[0]);
            }
        }
        close(go[0]);
        char start[WRITERS] = {0};
        assert_int_equal(write(go[1], start, WRITERS), WRITERS); /* release all at once */
        close(go[1]);
        for (int i = 0; i < WRITERS; i++) {
            int status;
            assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
            assert_true(WIFEXITED(status));
            assert_int_equal(WEXITSTATUS(status), 0);
        }
        check_file(path);
        unlink(path);
    }
    char sub[128];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    rmdir(sub);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_concurrent_appends)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
