/* Parsing of command-line values: counts, sizes, lists, ranges, key=value. */
#ifndef CLB_PARAMS_H
#define CLB_PARAMS_H

#include <stddef.h>

/* A problem size: up to 4 extents. "1000x3000" -> {2, {1000,3000}}. */
struct clb_size {
    int ndims;
    size_t d[4];
    size_t total;   /* product */
};

/* An unsigned count: "4096", "16K", "1M", "1G", "1T" (binary multipliers),
 * "2^28", "1e6", "1.5M" (the value must be whole). */
int clb_parse_count(const char *s, size_t *out);
/* A size as `run -s` takes it (docs/MEASURING.md): clb_parse_dims, and for 1-D
 * sizes also bytes with a unit ("1GB" = 1e9 B, "64MiB" = 64 x 2^20 B, "4096B"),
 * divided by unit_bytes (the element size; 1 where the size is bytes; 0:
 * byte units refused). */
int clb_parse_size(const char *s, int ndims, size_t unit_bytes, struct clb_size *out, char *err,
                   size_t errlen);
/* The canonical text of a size: extents in decimal, joined by 'x' ("268435456",
 * "8192x8192"); n >= 96 holds any. */
void clb_size_text(const struct clb_size *s, char *out, size_t n);
/* A size of exactly ndims extents (1..4) separated by 'x'; each a count >= 1.
 * On error fills err. */
int clb_parse_dims(const char *s, int ndims, struct clb_size *out, char *err, size_t errlen);

/* An integer list: "1,2,4", "1..8" (step 1), "1..64:*2" (geometric),
 * mixtures "1,3,8..10". Values must lie in [lo, hi]. Returns count or -1. */
int clb_parse_int_list(const char *s, long lo, long hi, long *out, int max, char *err,
                       size_t errlen);

/* One --param KEY=VALUE store. */
struct clb_kvlist {
    struct { char *key, *value; int used; } *v;
    size_t n;
};
int clb_kvlist_add(struct clb_kvlist *l, const char *kv); /* CLB_EUSAGE if no '=' */
int clb_kvlist_add_pair(struct clb_kvlist *l, const char *key, const char *value);
const char *clb_kvlist_get(const struct clb_kvlist *l, const char *key);
/* The value of "SCOPE.key" (--param cg.kernels=reg: for one workload of
 * several), else of "key"; scope NULL: of "key" only. */
const char *clb_kvlist_get_scoped(const struct clb_kvlist *l, const char *scope, const char *key);
void clb_kvlist_free(struct clb_kvlist *l);
/* The value of key in a row's params text ("rhs=4,links=full,iters=37")
 * into out (n bytes, cut there); "" when absent. */
void clb_params_value(const char *params, const char *key, char *out, size_t n);

/* Split a comma list into a NULL-terminated array of strings (one allocation). */
char **clb_split(const char *s, int *n);

#endif
