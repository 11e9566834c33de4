/* Parsing of counts, sizes, integer lists and key=value parameters. */
#include "clb_params.h"
#include "clbench.h"

#include <ctype.h>
#include <strings.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A number with an optional binary multiplier K, M, G, T (2^10 ...): "4096",
 * "16K", "2^28", "1e6", "1.5M"; the result must be a whole number. With
 * byte units allowed (*bytes non-NULL), also "64MiB", "1GB" (KB, MB, GB, TB
 * decimal; KiB, MiB, GiB, TiB binary; B): *bytes is set when one was given. */
static int parse_quantity(const char *s, size_t *out, int *bytes)
{
    if (bytes)
        *bytes = 0;
    if (!s || !*s || !isdigit((unsigned char)*s))
        return CLB_EUSAGE;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return CLB_EUSAGE;
    if (end[0] == '^') {                    /* 2^28 */
        char *e2;
        unsigned long long p = strtoull(end + 1, &e2, 10);
        if (e2 == end + 1 || *e2 || !isdigit((unsigned char)end[1]) || p > 63 || v < 2)
            return CLB_EUSAGE;
        unsigned long long r = 1;
        for (unsigned long long i = 0; i < p; i++) {
            if (r > UINT64_MAX / v)
                return CLB_EUSAGE;
            r *= v;
        }
        *out = (size_t)r;
        return CLB_OK;
    }
    long double x = (long double)v;
    int exact = 1;                          /* integer digits only: keep 64-bit precision */
    if (*end == '.' || *end == 'e' || *end == 'E') {
        char *e2;
        x = strtold(s, &e2);
        if (e2 == end || errno || !(x >= 0) || x > 1.8e19L)
            return CLB_EUSAGE;
        end = e2;
        exact = 0;
    }
    static const struct { const char *unit; unsigned long long mul; int bytes; } units[] = {
        {"", 1, 0},          {"K", 1ULL << 10, 0}, {"M", 1ULL << 20, 0}, {"G", 1ULL << 30, 0},
        {"T", 1ULL << 40, 0}, {"B", 1, 1},          {"KB", 1000ULL, 1},  {"MB", 1000000ULL, 1},
        {"GB", 1000000000ULL, 1}, {"TB", 1000000000000ULL, 1}, {"KiB", 1ULL << 10, 1},
        {"MiB", 1ULL << 20, 1},   {"GiB", 1ULL << 30, 1},      {"TiB", 1ULL << 40, 1},
    };
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        /* K, M, G, T, KB... case-insensitively; the 'i' of KiB as written */
        if (strcasecmp(end, units[i].unit) != 0)
            continue;
        if (units[i].bytes && !bytes)
            return CLB_EUSAGE;
        if (bytes)
            *bytes = units[i].bytes;
        unsigned long long mul = units[i].mul;
        if (exact) {
            if (v > UINT64_MAX / mul)
                return CLB_EUSAGE;
            *out = (size_t)(v * mul);
            return CLB_OK;
        }
        long double r = x * (long double)mul;
        if (r > 1.8e19L || r != (long double)(unsigned long long)r)
            return CLB_EUSAGE;              /* not whole, or past 64 bits */
        *out = (size_t)(unsigned long long)r;
        return CLB_OK;
    }
    return CLB_EUSAGE;
}

int clb_parse_count(const char *s, size_t *out) { return parse_quantity(s, out, NULL); }

int clb_parse_size(const char *s, int ndims, size_t unit_bytes, struct clb_size *out, char *err,
                   size_t errlen)
{
    size_t v;
    int bytes;
    if (ndims == 1 && s && parse_quantity(s, &v, &bytes) == CLB_OK && bytes) {
        memset(out, 0, sizeof *out);
        if (!unit_bytes) {
            snprintf(err, errlen, "size '%.80s': this workload's size is not in bytes (give a "
                     "count, e.g. 1048576, 1M or 2^20)", s);
            return CLB_EUSAGE;
        }
        if (v == 0 || v % unit_bytes) {
            snprintf(err, errlen, "size '%.80s' is %zu bytes, not a whole number of %zu-byte "
                     "elements", s, v, unit_bytes);
            return CLB_EUSAGE;
        }
        out->ndims = 1;
        out->d[0] = out->total = v / unit_bytes;
        return CLB_OK;
    }
    return clb_parse_dims(s, ndims, out, err, errlen);
}

void clb_size_text(const struct clb_size *s, char *out, size_t n)
{
    out[0] = 0;
    for (int i = 0; i < s->ndims; i++)
        clb_appendf(out, n, "%s%zu", i ? "x" : "", s->d[i]);
}

int clb_parse_dims(const char *s, int ndims, struct clb_size *out, char *err, size_t errlen)
{
    static const char *const shapes[] = {"", "N, e.g. 1048576, 16M or 2^24", "NxM",
                                         "NxMxK", "LxxLyxLzxLt, e.g. 16x16x16x8"};
    memset(out, 0, sizeof *out);
    if (!s)
        s = "";
    int k = 0;
    size_t total = 1;
    const char *p = s;
    for (;;) {
        const char *x = p;
        while (*x && *x != 'x' && *x != 'X')
            x++;
        size_t v = 0;
        int ok = k < ndims && x > p && x - p < 64;
        if (ok) {
            char tok[64];
            memcpy(tok, p, (size_t)(x - p));
            tok[x - p] = 0;
            ok = clb_parse_count(tok, &v) == CLB_OK && v > 0;
        }
        if (!ok) {
            snprintf(err, errlen, "bad size '%.80s%s' (expected %s; extents >= 1)", s,
                     strlen(s) > 80 ? "..." : "", shapes[ndims]);
            return CLB_EUSAGE;
        }
        out->d[k++] = v;
        if (total > SIZE_MAX / v) {
            snprintf(err, errlen, "size '%.80s' is too large (its element count does not fit "
                     "in 64 bits)", s);
            return CLB_EUSAGE;
        }
        total *= v;
        if (!*x)
            break;
        p = x + 1;
    }
    if (k != ndims) {
        snprintf(err, errlen, "bad size '%.80s' (expected %d extent%s separated by 'x': %s)", s,
                 ndims, ndims > 1 ? "s" : "", shapes[ndims]);
        return CLB_EUSAGE;
    }
    out->ndims = ndims;
    out->total = total;
    return CLB_OK;
}

static int parse_long(const char *s, const char *end, long *out)
{
    if (s == end)
        return -1;
    char tmp[32];
    size_t n = (size_t)(end - s);
    if (n >= sizeof tmp)
        return -1;
    memcpy(tmp, s, n);
    tmp[n] = 0;
    size_t v;
    int neg = tmp[0] == '-';
    /* LONG_MIN itself is refused too: its magnitude is not a long. */
    if (clb_parse_count(tmp + neg, &v) != CLB_OK || v > (size_t)LONG_MAX)
        return -1;
    *out = neg ? -(long)v : (long)v;
    return 0;
}

int clb_parse_int_list(const char *s, long lo, long hi, long *out, int max, char *err,
                       size_t errlen)
{
    int n = 0;
    const char *p = s;
    if (!s || !*s)
        goto bad;
    while (*p) {
        const char *e = strchr(p, ',');
        if (!e)
            e = p + strlen(p);
        const char *dots = NULL;
        for (const char *q = p; q + 1 < e; q++)
            if (q[0] == '.' && q[1] == '.') { dots = q; break; }
        long a, b, step = 1;
        int geometric = 0;
        if (dots) {
            const char *colon = memchr(dots, ':', (size_t)(e - dots));
            const char *bend = colon ? colon : e;
            if (parse_long(p, dots, &a) || parse_long(dots + 2, bend, &b))
                goto bad;
            if (colon) {
                const char *st = colon + 1;
                if (*st == '*') { geometric = 1; st++; }
                if (parse_long(st, e, &step) || step < (geometric ? 2 : 1))
                    goto bad;
            }
            if (b < a || (geometric && a < 1))
                goto bad;
        } else {
            if (parse_long(p, e, &a))
                goto bad;
            b = a;
        }
        for (long v = a;; v = geometric ? v * step : v + step) {
            if (v < lo || v > hi) {
                snprintf(err, errlen, "value %ld in '%s' is out of range (accepted: %ld..%ld)", v, s,
                         lo, hi);
                return -1;
            }
            if (n >= max) {
                snprintf(err, errlen, "too many values in '%s' (at most %d)", s, max);
                return -1;
            }
            out[n++] = v;
            /* Stop before a step that would pass b: it could also overflow a long. */
            if (geometric ? v > b / step : (unsigned long)b - (unsigned long)v < (unsigned long)step)
                break;
        }
        p = *e ? e + 1 : e;
    }
    if (n == 0)
        goto bad;
    return n;
bad:
    snprintf(err, errlen,
             "bad list '%s' (accepted: integers, lists 1,2,4, ranges 1..8, geometric 1..64:*2)",
             s ? s : "");
    return -1;
}

int clb_kvlist_add(struct clb_kvlist *l, const char *kv)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv || !eq[1])
        return clb_eusage("bad --param '%s' (expected KEY=VALUE)", kv);
    char *key = clb_asprintf("%.*s", (int)(eq - kv), kv);
    if (!key)
        return CLB_ESYS;
    /* A later --param of the same key replaces the earlier one. */
    int rc = clb_kvlist_add_pair(l, key, eq + 1);
    free(key);
    return rc;
}

int clb_kvlist_add_pair(struct clb_kvlist *l, const char *key, const char *value)
{
    void *nv = realloc(l->v, (l->n + 1) * sizeof *l->v);
    if (!nv)
        return clb_oom();
    l->v = nv;
    char *k = clb_strdup(key), *v = clb_strdup(value);
    if (!k || !v) {
        free(k);
        free(v);
        return CLB_ESYS;
    }
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i].key, k) == 0) {
            free(l->v[i].value);
            l->v[i].value = v;
            free(k);
            return CLB_OK;
        }
    l->v[l->n].key = k;
    l->v[l->n].value = v;
    l->v[l->n++].used = 0;
    return CLB_OK;
}

const char *clb_kvlist_get(const struct clb_kvlist *l, const char *key)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i].key, key) == 0)
            return l->v[i].value;
    return NULL;
}

const char *clb_kvlist_get_scoped(const struct clb_kvlist *l, const char *scope, const char *key)
{
    size_t sl = scope ? strlen(scope) : 0;
    for (size_t i = 0; scope && i < l->n; i++) {
        const char *k = l->v[i].key;
        if (strncmp(k, scope, sl) == 0 && k[sl] == '.' && strcmp(k + sl + 1, key) == 0)
            return l->v[i].value;
    }
    return clb_kvlist_get(l, key);
}

void clb_kvlist_free(struct clb_kvlist *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].key);
        free(l->v[i].value);
    }
    free(l->v);
    *l = (struct clb_kvlist){0};
}

char **clb_split(const char *s, int *n)
{
    int count = 1;
    for (const char *p = s; *p; p++)
        count += *p == ',';
    size_t len = strlen(s) + 1;
    char **v = clb_xmalloc((size_t)(count + 1) * sizeof *v + len);
    if (!v)
        return NULL;
    char *buf = (char *)(v + count + 1);
    memcpy(buf, s, len);
    int k = 0;
    char *p = buf;
    for (;;) {
        char *e = strchr(p, ',');
        if (e)
            *e = 0;
        while (*p == ' ')
            p++;
        if (*p)
            v[k++] = p;
        if (!e)
            break;
        p = e + 1;
    }
    v[k] = NULL;
    *n = k;
    return v;
}

void clb_params_value(const char *params, const char *key, char *out, size_t n)
{
    size_t kl = strlen(key);
    if (!n)
        return;
    out[0] = 0;
    for (const char *p = params; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, key, kl) && p[kl] == '=') {
            size_t len = strcspn(p + kl + 1, ",");
            snprintf(out, n, "%.*s", (int)(len < n ? len : n - 1), p + kl + 1);
            return;
        }
}
