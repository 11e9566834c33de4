/* The fingerprint of what a case ran (docs/RESULTS.md, metric `fp`): the
 * kernel's source as its program was compiled, and the build options, so
 * that `compare --baseline` can tell a rewritten kernel (CHANGED) from one
 * that got slower (REGRESSED).
 *
 * Each kernel a group creates (clb_kernel) is noted with two hashes: of its
 * visible source -- the program's text (cl/common.cl and its file, from the
 * binary or --kernel-dir) with comments and runs of blanks taken out and the
 * bodies of the file's other kernels emptied, so that editing one kernel
 * leaves its neighbours' fingerprints alone while a shared helper or macro
 * changes them all -- and of the build options (the -D values a tuning
 * compiles in: tile, vec...). A case's fingerprint combines the kernels of
 * its group named like the case's kernel, else every kernel of the group.
 * The host code that launches a kernel is not in it: a change there shows as
 * a change of figure, judged as usual. */
#include "clb_cl.h"
#include "clbench.h"
#include "core.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct clb_fpent {
    char *name;
    uint64_t src, opt;
};
struct clb_fplog {
    struct clb_fpent *v;
    size_t n, cap;
    int broken;          /* a note was lost (memory): no fingerprint this group */
};

static int ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The text without comments, each run of blanks (and line breaks) one
 * space; string and character literals kept as written. malloc'd. */
static char *strip(const char *s)
{
    size_t n = strlen(s), k = 0;
    char *o = malloc(n + 1);
    if (!o)
        return NULL;
    for (size_t i = 0; i < n;) {
        if (s[i] == '/' && s[i + 1] == '*') {
            const char *e = strstr(s + i + 2, "*/");
            i = e ? (size_t)(e - s) + 2 : n;
            if (k && o[k - 1] != ' ')
                o[k++] = ' ';
        } else if (s[i] == '/' && s[i + 1] == '/') {
            while (i < n && s[i] != '\n')
                i++;
        } else if (s[i] == '"' || s[i] == '\'') {
            char q = s[i];
            o[k++] = s[i++];
            while (i < n && s[i] != q) {
                if (s[i] == '\\' && i + 1 < n)
                    o[k++] = s[i++];
                o[k++] = s[i++];
            }
            if (i < n)
                o[k++] = s[i++];
        } else if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\\') {
            /* a backslash outside a literal continues a line: a blank too */
            if (k && o[k - 1] != ' ')
                o[k++] = ' ';
            i++;
        } else {
            o[k++] = s[i++];
        }
    }
    o[k] = 0;
    return o;
}

/* A kernel definition in stripped text: its name and body [b0, b1) (the
 * braces included). */
struct kdef {
    const char *name;
    size_t nlen, b0, b1;
};

/* The kernel definition whose keyword (`__kernel` or `kernel` as a word)
 * starts at i, outside any brace; 0 when what follows is not one (a
 * declaration, a macro's text). */
static int kernel_at(const char *t, size_t i, struct kdef *k)
{
    size_t n = strlen(t), j = i, depth = 0;
    k->name = NULL;
    while (j < n && ident_char(t[j]))
        j++;
    /* the name: the identifier before the first '(' at parenthesis depth 0
     * that is not __attribute__ */
    for (size_t p = j; p < n; p++) {
        if (t[p] == '(' && depth == 0) {
            size_t e = p;
            while (e > j && t[e - 1] == ' ')
                e--;
            size_t b = e;
            while (b > j && ident_char(t[b - 1]))
                b--;
            if (e > b && !(e - b == 13 && !strncmp(t + b, "__attribute__", 13)) && !k->name) {
                k->name = t + b;
                k->nlen = e - b;
            }
        }
        if (t[p] == '(')
            depth++;
        else if (t[p] == ')' && depth)
            depth--;
        else if (t[p] == ';' && depth == 0)
            return 0;   /* a declaration */
        else if (t[p] == '{' && depth == 0) {
            size_t level = 0, q = p;
            for (; q < n; q++) {
                level += t[q] == '{';
                if (t[q] == '}' && --level == 0)
                    break;
            }
            if (q >= n || !k->name)
                return 0;
            k->b0 = p;
            k->b1 = q + 1;
            return 1;
        }
    }
    return 0;
}

/* Every kernel definition of stripped text t (up to max). */
static int kernels_of(const char *t, struct kdef *v, int max)
{
    size_t n = strlen(t), depth = 0;
    int nk = 0;
    for (size_t i = 0; i < n && nk < max; i++) {
        if (t[i] == '"' || t[i] == '\'') {   /* literals: skipped whole */
            char q = t[i];
            for (i++; i < n && t[i] != q; i++)
                i += t[i] == '\\';
            continue;
        }
        if (t[i] == '{')
            depth++;
        else if (t[i] == '}' && depth)
            depth--;
        int word = (i == 0 || !ident_char(t[i - 1]));
        if (depth || !word)
            continue;
        size_t len = !strncmp(t + i, "__kernel", 8) ? 8 : !strncmp(t + i, "kernel", 6) ? 6 : 0;
        if (len && !ident_char(t[i + len]) && kernel_at(t, i, &v[nk])) {
            i = v[nk].b1 - 1;
            nk++;
        }
    }
    return nk;
}

#define FP_MAX_KERNELS 256

uint64_t clb_fp_source(const char *source, const char *name)
{
    char *t = strip(source);
    struct kdef *k = malloc(FP_MAX_KERNELS * sizeof *k);
    if (!t || !k) {   /* no memory: the whole text, unstripped */
        free(t);
        free(k);
        return clb_fnv1a(clb_fnv1a(CLB_FNV_START, source, strlen(source)), name, strlen(name));
    }
    int nk = kernels_of(t, k, FP_MAX_KERNELS), own = 0;
    size_t nl = strlen(name);
    for (int i = 0; i < nk; i++)
        own |= k[i].nlen == nl && !strncmp(k[i].name, name, nl);
    /* the text with the other kernels' bodies emptied; where the kernel is
     * not found (a macro defines it), the whole text */
    uint64_t h = clb_fnv1a(CLB_FNV_START, name, nl);
    size_t at = 0;
    for (int i = 0; i < nk; i++) {
        if (!own || (k[i].nlen == nl && !strncmp(k[i].name, name, nl)))
            continue;
        h = clb_fnv1a(h, t + at, k[i].b0 - at);
        h = clb_fnv1a(h, "{}", 2);
        at = k[i].b1;
    }
    h = clb_fnv1a(h, t + at, strlen(t + at));
    free(t);
    free(k);
    return h;
}

uint64_t clb_fp_options(const char *options)
{
    char *t = strip(options ? options : "");
    const char *x = t ? t : options ? options : "";
    uint64_t h = clb_fnv1a(CLB_FNV_START, x, strlen(x));
    free(t);
    return h;
}

int clb_fp_note(struct clb_device *d, const char *name, uint64_t src, uint64_t opt)
{
    if (!d->fp && !(d->fp = calloc(1, sizeof *d->fp)))
        return CLB_ESYS;
    struct clb_fplog *l = d->fp;
    if (!name) {
        l->broken = 1;
        return CLB_OK;
    }
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->v[i].name, name) && l->v[i].src == src && l->v[i].opt == opt)
            return CLB_OK;
    char *nm = clb_strdup(name);
    if (!nm || clb_grow((void **)&l->v, l->n, &l->cap, sizeof *l->v, 8)) {
        free(nm);
        l->broken = 1;
        return CLB_ESYS;
    }
    l->v[l->n++] = (struct clb_fpent){nm, src, opt};
    return CLB_OK;
}

void clb_fp_reset(struct clb_device *d)
{
    for (size_t i = 0; d->fp && i < d->fp->n; i++)
        free(d->fp->v[i].name);
    if (d->fp)
        d->fp->n = d->fp->broken = 0;
}

void clb_fp_free(struct clb_device *d)
{
    clb_fp_reset(d);
    if (d->fp)
        free(d->fp->v);
    free(d->fp);
    d->fp = NULL;
}

static int u64_order(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The combined hash of the entries' src (which 0) or opt (1), sorted. */
static uint64_t combine(const struct clb_fplog *l, const char *kernel, int any, int which)
{
    uint64_t *h = malloc((l->n + 1) * sizeof *h), out = CLB_FNV_START;
    size_t k = 0;
    for (size_t i = 0; h && i < l->n; i++)
        if (any || !strcmp(l->v[i].name, kernel))
            h[k++] = which ? l->v[i].opt : l->v[i].src;
    if (!h)
        return 0;   /* the caller's fingerprint is then wrong: clb_fp_case checks */
    qsort(h, k, sizeof *h, u64_order);
    for (size_t i = 0; i < k; i++) {
        char b[8];   /* little-endian on every host */
        for (int j = 0; j < 8; j++)
            b[j] = (char)(h[i] >> (8 * j));
        out = clb_fnv1a(out, b, sizeof b);
    }
    free(h);
    return out;
}

int clb_fp_case(const struct clb_device *d, const char *kernel, char *out, size_t n)
{
    const struct clb_fplog *l = d->fp;
    if (!l || !l->n || l->broken || !n)
        return 0;
    int named = 0;
    for (size_t i = 0; i < l->n && !named; i++)
        named = kernel && !strcmp(l->v[i].name, kernel);
    uint64_t s = combine(l, kernel, !named, 0), o = combine(l, kernel, !named, 1);
    snprintf(out, n, "s%012llx-o%08llx", (unsigned long long)(s >> 16),
             (unsigned long long)(o >> 32));
    return 1;
}
