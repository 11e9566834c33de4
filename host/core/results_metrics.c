/* The metrics column (docs/RESULTS.md, "Metrics"): a row's further measured
 * figures as `key=value;key=value`, written, checked and read here only.
 * Also the two readers of `detail` that remain, both for rows written before
 * the metrics column existed: the figures a v1/v2 row's detail wrote as text,
 * and the source named by a published figure's detail. */
#include "results_priv.h"
#include "clbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_key_start(char c) { return c >= 'a' && c <= 'z'; }
static int is_key_char(char c) { return is_key_start(c) || (c >= '0' && c <= '9') || c == '_'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int is_token_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' ||
           c == '.' || c == '+' || c == '-';
}

size_t clb_number_len(const char *s)
{
    size_t i = s[0] == '-';
    size_t digits = 0;
    while (is_digit(s[i]))
        i++, digits++;
    if (s[i] == '.')
        for (i++; is_digit(s[i]); i++)
            digits++;
    if (!digits)
        return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-')
            j++;
        if (!is_digit(s[j]))
            return i;
        while (is_digit(s[j]))
            j++;
        i = j;
    }
    return i;
}

/* The value of n bytes at s as a number: NAN for a token, -1 (and *why) for a
 * number that is not finite. */
static int value_num(const char *s, size_t n, double *num, const char **why)
{
    *num = NAN;
    if (clb_number_len(s) != n)
        return 0;
    char tmp[CLB_METRIC_MAX + 1];
    memcpy(tmp, s, n);
    tmp[n] = 0;
    double v = strtod(tmp, NULL);
    if (!isfinite(v)) {
        *why = "a number that is not finite";
        return -1;
    }
    *num = v;
    return 0;
}

int clb_metric_next(const char **pos, struct clb_metric *m, const char **why)
{
    const char *p = *pos;
    if (!*p)
        return 0;
    m->key = p;
    if (!is_key_start(*p)) {
        *why = "a key that does not start with a letter a-z";
        return -1;
    }
    while (is_key_char(*p))
        p++;
    m->klen = (size_t)(p - m->key);
    if (*p != '=') {
        *why = *p ? "a key with a character outside a-z, 0-9 and _ (or no '=')"
                  : "a key without '=value'";
        return -1;
    }
    m->val = ++p;
    while (is_token_char(*p))
        p++;
    m->vlen = (size_t)(p - m->val);
    if (m->klen > CLB_METRIC_MAX || m->vlen > CLB_METRIC_MAX) {
        *why = "a key or a value longer than 64 bytes";
        return -1;
    }
    if (!m->vlen || (*p && *p != ';') || (*p == ';' && !p[1])) {
        *why = !m->vlen ? "an empty value"
               : *p    ? "a value with a character outside A-Z, a-z, 0-9 and _.+- (or no ';')"
                       : "a ';' at the end";
        return -1;
    }
    if (value_num(m->val, m->vlen, &m->num, why))
        return -1;
    *pos = *p ? p + 1 : p;
    return 1;
}

static int same_key(const struct clb_metric *m, const char *key, size_t klen)
{
    return m->klen == klen && memcmp(m->key, key, klen) == 0;
}

/* The metric of key in text: 1 found, 0 not, -1 the text breaks the grammar. */
static int find(const char *text, const char *key, struct clb_metric *out)
{
    size_t kl = strlen(key);
    const char *p = text ? text : "", *why;
    int r;
    while ((r = clb_metric_next(&p, out, &why)) == 1)
        if (same_key(out, key, kl))
            return 1;
    return r;
}

int clb_metrics_check(const char *text, const char **why)
{
    const char *p = text;
    struct clb_metric m;
    int r, n = 0;
    while ((r = clb_metric_next(&p, &m, why)) == 1) {
        if (++n > CLB_METRICS_MAX_N) {
            *why = "more than 128 metrics";
            return CLB_EUSAGE;
        }
        /* a duplicate: an earlier metric of the same key (rows hold a few) */
        const char *q = text;
        struct clb_metric e;
        while (q < m.key && clb_metric_next(&q, &e, why) == 1)
            if (same_key(&e, m.key, m.klen)) {
                *why = "a key given twice";
                return CLB_EUSAGE;
            }
    }
    return r == 0 ? CLB_OK : CLB_EUSAGE;
}

double clb_metrics_num(const char *text, const char *key)
{
    struct clb_metric m;
    return find(text, key, &m) == 1 ? m.num : NAN;
}

int clb_metrics_token(const char *text, const char *key, char *out, size_t n)
{
    struct clb_metric m;
    if (n)
        out[0] = 0;
    if (find(text, key, &m) != 1 || !isnan(m.num) || !n)
        return 0;
    snprintf(out, n, "%.*s", (int)(m.vlen < n ? m.vlen : n - 1), m.val);
    return 1;
}

int clb_metrics_flag(const char *text, const char *key)
{
    double v = clb_metrics_num(text, key);
    return !isnan(v) && v != 0;
}

size_t clb_row_text(const struct clb_row *r, const char *key, const char **val)
{
    struct clb_metric m;
    if (find(r->metrics, key, &m) != 1)
        return 0;
    *val = m.val;
    return m.vlen;
}

int clb_row_size_default(const struct clb_row *r)
{
    const char *v;
    size_t n = clb_row_text(r, "size_from", &v);
    if (!n)
        return -1;
    return (n == 4 && !memcmp(v, "rule", 4)) || (n == 7 && !memcmp(v, "profile", 7));
}

double clb_row_metric(const struct clb_row *r, const char *key)
{
    return clb_metrics_num(r->metrics, key);
}

int clb_row_flag(const struct clb_row *r, const char *key)
{
    return clb_metrics_flag(r->metrics, key);
}

/* The number of n bytes at s when they are exactly one, else NAN. */
static double whole_number(const char *s, size_t n)
{
    double v;
    const char *why;
    if (!n || n > CLB_METRIC_MAX || clb_number_len(s) != n || value_num(s, n, &v, &why))
        return NAN;
    return v;
}

double clb_row_param(const struct clb_row *r, const char *key)
{
    size_t kl = strlen(key);
    for (const char *p = r->params; *p;) {
        size_t n = strcspn(p, ",");
        if (n > kl && strncmp(p, key, kl) == 0 && p[kl] == '=')
            return whole_number(p + kl + 1, n - kl - 1);
        p += n + (p[n] == ',');
    }
    return NAN;
}

/* Does each key of the comma list have a number (from get)? */
static int has_all(const struct clb_row *r, const char *list, const char *what,
                   double (*get)(const struct clb_row *, const char *), struct clb_buf *out)
{
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, ",");
        char key[CLB_METRIC_MAX + 1];
        snprintf(key, sizeof key, "%.*s", (int)(n < CLB_METRIC_MAX ? n : CLB_METRIC_MAX), p);
        if (isnan(get(r, key))) {
            if (out)
                clb_buf_printf(out, "%s %s", what, key);
            return 0;
        }
        p += n + (p[n] == ',');
    }
    return 1;
}

int clb_row_has(const struct clb_row *r, const char *params, const char *metrics,
                struct clb_buf *what)
{
    return has_all(r, params, "params", clb_row_param, what) &&
           has_all(r, metrics, "metric", clb_row_metric, what);
}

/* ---- what each key is ------------------------------------------------------- */

#define MS "\xc2\xb5s"   /* µs */
#define H CLB_BETTER_HIGHER
#define L CLB_BETTER_LOWER
#define N CLB_BETTER_NONE
#define T0 CLB_MT_NONE
#define TR CLB_MT_RATE
#define TT CLB_MT_TIME

/* One entry per key of docs/RESULTS.md's table, in its order (a CLI test
 * holds the two to each other). */
static const struct clb_metric_def defs[] = {
    {"cache_resident", 0, "flag", N, T0},
    {"of_", 1, "ratio", H, T0},
    {"reduced", 0, "flag", N, T0},
    {"idle_power_w", 0, "W", N, T0},
    {"size_from", 0, "token", N, T0},
    {"llc_from", 0, "token", N, T0},
    {"devices_per_rank", 0, "count", N, T0},
    {"fp", 0, "token", N, T0},
    {"timer_host", 0, "flag", N, T0},
    {"launch_overhead_us", 0, MS, L, T0},
    {"impossible", 0, "flag", N, T0},
    {"loads", 0, "count", N, T0},
    {"ns_per_load", 0, "ns", L, TT},
    {"cycles", 0, "cycles", L, TT},
    {"clock_mhz", 0, "MHz", N, T0},
    {"clock_from", 0, "token", N, T0},
    {"llc_bytes", 0, "bytes", N, T0},
    {"latency_us", 0, MS, L, TT},
    {"submit_to_start_us", 0, MS, L, T0},
    {"start_to_end_us", 0, MS, L, T0},
    {"flop_per_cu_cycle", 0, "flop", H, TR},
    {"relerr", 0, "ratio", L, T0},
    {"relerr_bound", 0, "ratio", N, T0},
    {"dev_share", 0, "ratio", N, T0},
    {"max_err_over_tol", 0, "ratio", L, T0},
    {"rel_l2", 0, "ratio", L, T0},
    {"rhs_per_item", 0, "count", N, T0},
    {"rhs_per_pass", 0, "count", N, T0},
    {"best_kernel", 0, "token", N, T0},
    {"private_mem_bytes", 0, "bytes", N, T0},
    {"registers", 0, "count", N, T0},
    {"spill_store_bytes", 0, "bytes", L, T0},
    {"spill", 0, "flag", N, T0},
    {"rebuild_err", 0, "ratio", L, T0},
    {"op_applications", 0, "count", N, T0},
    {"halo_bytes", 0, "bytes", N, T0},
    {"halo_chain", 0, "token", N, T0},
    {"chunk_kib", 0, "KiB", N, T0},
    {"bus_d2h_gbps", 0, "GB/s", H, T0},
    {"bus_h2d_gbps", 0, "GB/s", H, T0},
    {"mpi_gbps", 0, "GB/s", H, T0},
    {"copy_gbps", 0, "GB/s", H, T0},
    {"mpi_notes_us", 0, MS, L, T0},
    {"node_d2h_gbps", 0, "GB/s", H, T0},
    {"node_h2d_gbps", 0, "GB/s", H, T0},
    {"node_notes_us", 0, MS, L, T0},
    {"w_hash", 0, "count", N, T0},
    {"mpi_btl", 0, "token", N, T0},
    {"mpi_single_copy", 0, "token", N, T0},
    {"halo_chain_model_ms", 0, "ms", N, T0},
    {"halo_model_ms", 0, "ms", N, T0},
    {"halo_exposed_model_ms", 0, "ms", N, T0},
    {"exchanges", 0, "count", N, T0},
    {"halo_ms", 0, "ms", L, T0},
    {"halo_exposed_ms", 0, "ms", L, T0},
    {"halo_exposed_frac", 0, "ratio", L, T0},
    {"halo_ms_max", 0, "ms", L, T0},
    {"halo_exposed_ms_max", 0, "ms", L, T0},
    {"halo_exposed_frac_max", 0, "ratio", L, T0},
    {"pack_ms", 0, "ms", L, T0},
    {"interior_ms", 0, "ms", L, T0},
    {"boundary_ms", 0, "ms", L, T0},
    {"eff", 0, "ratio", H, T0},
    {"eff_model", 0, "ratio", N, T0},
    {"reduce_ms_max", 0, "ms", L, T0},
    {"t_iter_us", 0, MS, L, TT},
    {"dslash_gflops", 0, "GFlop/s", H, T0},
    {"of_dslash", 0, "ratio", H, T0},
    {NULL, 0, NULL, N, T0}};
#undef MS
#undef H
#undef L
#undef N
#undef T0
#undef TR
#undef TT

const struct clb_metric_def *clb_metric_defs(void) { return defs; }

const struct clb_metric_def *clb_metric_def_of(const char *key)
{
    const struct clb_metric_def *family = NULL;
    for (const struct clb_metric_def *d = defs; d->key; d++) {
        if (!d->prefix && !strcmp(d->key, key))
            return d;
        if (d->prefix && !strncmp(d->key, key, strlen(d->key)) && key[strlen(d->key)])
            family = d;
    }
    return family;
}

const char *clb_better_name(enum clb_better b)
{
    return b == CLB_BETTER_HIGHER ? "higher" : b == CLB_BETTER_LOWER ? "lower" : "-";
}

/* ---- building ------------------------------------------------------------- */

static int check_key(const char *key)
{
    size_t n = strlen(key);
    int ok = n && n <= CLB_METRIC_MAX && is_key_start(key[0]);
    for (size_t i = 1; ok && i < n; i++)
        ok = is_key_char(key[i]);
    if (!ok)
        return clb_eusage("internal: metric key '%s' is outside the grammar ([a-z][a-z0-9_]*, at "
                          "most 64 bytes)", key);
    return CLB_OK;
}

/* Replace (or append) key's value in b by the n bytes at val. */
static int put(struct clb_buf *b, const char *key, const char *val, size_t n)
{
    struct clb_buf out = {0};
    const char *p = clb_buf_str(b), *why;
    struct clb_metric m;
    size_t kl = strlen(key);
    while (clb_metric_next(&p, &m, &why) == 1)
        if (!same_key(&m, key, kl))
            clb_buf_printf(&out, "%s%.*s=%.*s", out.len ? ";" : "", (int)m.klen, m.key,
                           (int)m.vlen, m.val);
    clb_buf_printf(&out, "%s%s=%.*s", out.len ? ";" : "", key, (int)n, val);
    if (out.oom) {
        clb_buf_free(&out);
        return clb_err(CLB_ESYS, CLB_OOM " recording a metric");
    }
    clb_buf_free(b);
    *b = out;
    return CLB_OK;
}

int clb_metrics_set(struct clb_buf *b, const char *key, double v)
{
    int rc = check_key(key);
    if (rc || !isfinite(v))
        return rc;
    char num[40];
    /* whole numbers exactly (byte counts), others to 9 digits */
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(num, sizeof num, "%.0f", v);
    else
        snprintf(num, sizeof num, "%.9g", v);
    return put(b, key, num, strlen(num));
}

int clb_metrics_set_token(struct clb_buf *b, const char *key, const char *token)
{
    int rc = check_key(key);
    if (rc)
        return rc;
    size_t n = strlen(token);
    int ok = n && n <= CLB_METRIC_MAX && clb_number_len(token) != n;
    for (size_t i = 0; ok && i < n; i++)
        ok = is_token_char(token[i]);
    if (!ok)
        return clb_eusage("internal: metric %s: token '%s' is outside the grammar "
                          "([A-Za-z0-9_.+-], not a number, at most 64 bytes)", key, token);
    return put(b, key, token, n);
}

/* ---- rows written before the metrics column ---------------------------------- */

/* Figures whose detail name lacked its unit. */
static const char *const renamed[][2] = {{"llc", "llc_bytes"},
                                         {"per_cu_cycle", "flop_per_cu_cycle"}};

static const char *v3_name(const char *key, size_t n)
{
    for (size_t i = 0; i < sizeof renamed / sizeof *renamed; i++)
        if (strlen(renamed[i][0]) == n && memcmp(renamed[i][0], key, n) == 0)
            return renamed[i][1];
    return NULL;
}

/* One word "key=number" at p (p at a word's start): its metric added to out
 * unless out has the key already. Returns where the word ends. */
static const char *legacy_word(const char *p, struct clb_buf *out)
{
    const char *k = p;
    while (is_key_char(*p))
        p++;
    size_t kl = (size_t)(p - k);
    if (!is_key_start(*k) || *p != '=' || kl > CLB_METRIC_MAX)
        return p;
    const char *v = ++p;
    size_t vl = clb_number_len(v);
    double num;
    const char *why;
    if (!vl || vl > CLB_METRIC_MAX || (v[vl] && !strchr(" \t;,", v[vl])) ||
        value_num(v, vl, &num, &why))
        return p;
    const char *name = v3_name(k, kl);
    char key[CLB_METRIC_MAX + 1];
    snprintf(key, sizeof key, "%.*s", name ? (int)strlen(name) : (int)kl, name ? name : k);
    struct clb_metric m;
    if (find(out->s, key, &m) == 0)
        clb_buf_printf(out, "%s%s=%.*s", out->len ? ";" : "", key, (int)vl, v);
    return v + vl;
}

char *clb_metrics_from_detail(const char *detail)
{
    struct clb_buf out = {0};
    for (const char *p = detail; *p;) {
        const char *end = p == detail || strchr(" \t;,", p[-1]) ? legacy_word(p, &out) : p;
        p = end > p ? end : p + 1;
    }
    if (strstr(detail, "cache_resident")) {
        struct clb_metric m;
        if (find(out.s, "cache_resident", &m) == 0)
            clb_buf_printf(&out, "%scache_resident=1", out.len ? ";" : "");
    }
    if (out.oom) {
        clb_buf_free(&out);
        clb_seterr(CLB_OOM " deriving metrics");
        return NULL;
    }
    return out.s ? out.s : clb_strdup("");
}

size_t clb_reference_source(const char *detail, const char **start)
{
    const char *p = detail, *sp = strchr(detail, ' ');
    const char *slash = strchr(detail, '/');
    if (slash && (!sp || slash < sp)) {
        const char *last = strrchr(detail, '/');
        p = (!sp || last < sp) ? last + 1 : slash + 1;
    }
    size_t k = 0;
    int words = 0, inword = 0;
    for (; p[k]; k++) {
        if (strchr(";,(:'\"", p[k]))
            break;
        if (p[k] == ' ') {
            if (inword && ++words == 3)
                break;
            inword = 0;
        } else {
            inword = 1;
        }
    }
    while (k && p[k - 1] == ' ')
        k--;
    *start = p;
    return k;
}

int clb_row_is_sum(const struct clb_row *r)
{
    return r->ranks > 1 && strcmp(r->rank, "all") == 0;
}
