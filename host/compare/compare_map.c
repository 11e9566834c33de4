/* clbench compare: the hash map that keeps every step linear (keys of a few
 * 64-bit words: interned strings' pointers, indices), open addressing. Its
 * own file so that the figures' builders link without the readers (the
 * fuzz harness of compare's plots, tests/fuzz/CMakeLists.txt). */
#include "compare_priv.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix(const uint64_t *k, int nk)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)nk;
    for (int i = 0; i < nk; i++) {
        h ^= k[i];
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    return h;
}

static int map_grow(struct cmp_map *m)
{
    size_t cap = m->cap ? 2 * m->cap : 64;
    uint64_t *keys = malloc(cap * (size_t)m->nk * sizeof *keys);
    int *vals = malloc(cap * sizeof *vals);
    if (!keys || !vals || cap > SIZE_MAX / 16) {
        free(keys);
        free(vals);
        clb_oom();
        return -1;
    }
    for (size_t i = 0; i < cap; i++)
        vals[i] = -1;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->vals[i] < 0)
            continue;
        const uint64_t *k = m->keys + i * (size_t)m->nk;
        size_t j = mix(k, m->nk) & (cap - 1);
        while (vals[j] >= 0)
            j = (j + 1) & (cap - 1);
        memcpy(keys + j * (size_t)m->nk, k, (size_t)m->nk * sizeof *k);
        vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return 0;
}

int cmp_map_add(struct cmp_map *m, const uint64_t *key, int v)
{
    if ((m->n + 1) * 2 > m->cap && map_grow(m))
        return -2;
    size_t mask = m->cap - 1;
    for (size_t j = mix(key, m->nk) & mask;; j = (j + 1) & mask) {
        uint64_t *k = m->keys + j * (size_t)m->nk;
        if (m->vals[j] < 0) {
            memcpy(k, key, (size_t)m->nk * sizeof *k);
            m->vals[j] = v;
            m->n++;
            return v;
        }
        if (!memcmp(k, key, (size_t)m->nk * sizeof *k))
            return m->vals[j];
    }
}

int cmp_map_get(const struct cmp_map *m, const uint64_t *key)
{
    if (!m->cap)
        return -1;
    size_t mask = m->cap - 1;
    for (size_t j = mix(key, m->nk) & mask;; j = (j + 1) & mask) {
        if (m->vals[j] < 0)
            return -1;
        if (!memcmp(m->keys + j * (size_t)m->nk, key, (size_t)m->nk * sizeof *key))
            return m->vals[j];
    }
}

void cmp_map_free(struct cmp_map *m)
{
    free(m->keys);
    free(m->vals);
    *m = (struct cmp_map){.nk = m->nk};
}

int cmp_slot(struct cmp_map *m, const uint64_t *key, void **v, int n, size_t *cap,
             size_t elem)
{
    int k = cmp_map_add(m, key, n);
    if (k != n)
        return k;
    if (clb_grow(v, (size_t)n, cap, elem, 16))
        return -2;
    memset((char *)*v + (size_t)n * elem, 0, elem);
    return k;
}

int cmp_text_keys(struct clb_arena *a, const char *const *texts, int n, uint64_t *key)
{
    for (int k = 0; k < n; k++) {
        const char *s = clb_arena_intern(a, texts[k], strlen(texts[k]));
        if (!s)
            return clb_oom();
        key[k] = CMP_KEY(s);
    }
    return CLB_OK;
}
