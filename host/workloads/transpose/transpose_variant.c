/* The `best` variants of the transpose workload: their syntax, parsed and
 * named (see transpose.h and docs/workloads/transpose.md). Pure functions, unit-tested
 * in tests/unit/test_transpose_variant.c. */
#include "transpose.h"
#include "clbench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char order_letter[] = "RCDS"; /* by enum clb_tr_order */

void clb_tr_variant_name(const struct clb_tr_variant *v, char *buf, size_t n)
{
    if (v->rect)
        snprintf(buf, n, "rect%ldx%ldv%ldw%ld", v->bt, v->bc, v->bv, v->gx);
    else if (v->reg)
        snprintf(buf, n, "r%ldg%ldx%ld", v->bv, v->gx, v->gy);
    else if (v->bk == 1)
        snprintf(buf, n, "%ldx%ldv%ldl", v->bt, v->br, v->bv);
    else if (v->bk > 1)
        snprintf(buf, n, "%ldx%ldv%ldk%ld", v->bt, v->br, v->bv, v->bk);
    else if (v->bd)
        snprintf(buf, n, "%ldx%ldv%ldd%ld", v->bt, v->br, v->bv, v->bd);
    else if (v->bp)
        snprintf(buf, n, "%ldx%ldv%ldp%ld", v->bt, v->br, v->bv, v->bp);
    else
        snprintf(buf, n, "%ldx%ldv%ld", v->bt, v->br, v->bv);
    if (v->ord)
        clb_appendf(buf, n, "o%c", order_letter[v->ord - 1]);
    if (v->ord == 1 + CLB_TR_BANDS)
        clb_appendf(buf, n, "%ld", v->osk);
    if (v->nt)
        clb_appendf(buf, n, "nt");
}

int clb_tr_linear_grid(const struct clb_tr_variant *v)
{
    return v && !v->reg && !v->rect && (v->ord || v->bd || v->bp);
}

int clb_tr_parse_pair(const char *s, long *a, long *b, char stop, const char **rest)
{
    char *end;
    *a = strtol(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X'))
        return -1;
    const char *t = end + 1;
    *b = strtol(t, &end, 10);
    if (end == t || *end != stop || *a < 1 || *b < 1 || *a > 4096 || *b > 4096)
        return -1;
    if (rest)
        *rest = end;
    return 0;
}

int clb_tr_rect_ok(const struct clb_tr_variant *v, long w)
{
    long cv = v->bc / v->bv, ov = v->bt / v->bv;
    return w >= 1 && w % cv == 0 && w % ov == 0 && v->bt % (w / cv) == 0 &&
           v->bc % (w / ov) == 0;
}

/* A number at *s followed by `stop`; *s moves past the stop. */
static int field(const char **s, char stop, long *out)
{
    char *end;
    *out = strtol(*s, &end, 10);
    if (end == *s || *end != stop)
        return -1;
    *s = end + 1;
    return 0;
}

/* "rect128x32v4w256": R x C tile, the divisibility the kernel's loops need
 * (C a multiple of V, W a multiple of C/V and of R/V, R and C of the rows
 * per pass), R and C at most 256 (the index width assumes tiles overhang the
 * matrix by less than 256). W is bounded by R*C/V through the divisibility. */
static int parse_rect(const char *s, struct clb_tr_variant *v)
{
    v->rect = 1;
    v->gy = 1;
    if (field(&s, 'x', &v->bt) || field(&s, 'v', &v->bc) || field(&s, 'w', &v->bv) ||
        field(&s, 0, &v->gx) || (v->bv != 1 && v->bv != 2 && v->bv != 4) || v->bt < 1 ||
        v->bt > 256 || v->bc < 1 || v->bc > 256 || v->bc % v->bv || v->bt % v->bv)
        return -1;
    return clb_tr_rect_ok(v, v->gx) ? 0 : -1;
}

/* A number in lo..hi at s, ending at *end. */
static int parse_num(const char *s, long lo, long hi, long *out, char **end)
{
    if (*s < '0' || *s > '9')
        return -1;
    *out = strtol(s, end, 10);
    return *out < lo || *out > hi ? -1 : 0;
}

/* The suffixes of the tile form after "TxRvV": [l | kK | dK | pP] [oR | oC |
 * oD | oS<k>] [nt], nothing else. */
static int parse_suffix(const char *end, struct clb_tr_variant *v)
{
    char *e = (char *)end;
    if (*e == 'l') {
        v->bk = 1;
        e++;
    } else if (*e == 'k') {
        if (parse_num(e + 1, 2, CLB_TR_MAX_BK, &v->bk, &e))
            return -1;
    } else if (*e == 'd') {
        if (parse_num(e + 1, 2, CLB_TR_MAX_BD, &v->bd, &e))
            return -1;
    } else if (*e == 'p') {
        if (parse_num(e + 1, 1, CLB_TR_MAX_BP, &v->bp, &e))
            return -1;
    }
    if (*e == 'o') {
        const char *c = e[1] ? strchr(order_letter, e[1]) : NULL;
        if (!c)
            return -1;
        v->ord = 1 + (int)(c - order_letter);
        e += 2;
        if (v->ord == 1 + CLB_TR_BANDS && parse_num(e, 1, CLB_TR_MAX_OSK, &v->osk, &e))
            return -1;
    }
    if (e[0] == 'n' && e[1] == 't') {
        v->nt = 1;
        e += 2;
    }
    return *e ? -1 : 0;
}

/* "64x16v4" -> tile form {64, 4, 16}; "64x4v4l", "64x4v4k2" -> loads-first
 * tile form (bk 1, 2); "64x8v4d4oC" -> bd 4, ord 1 + columns; "r4g8x32" ->
 * register form; "rect..." -> parse_rect. */
int clb_tr_parse_variant(const char *s, struct clb_tr_variant *v)
{
    memset(v, 0, sizeof *v);
    if (strncmp(s, "rect", 4) == 0)
        return parse_rect(s + 4, v);
    if (s[0] == 'r') {
        v->reg = 1;
        s++;
        if (field(&s, 'g', &v->bv) || (v->bv != 2 && v->bv != 4))
            return -1;
        return clb_tr_parse_pair(s, &v->gx, &v->gy, 0, NULL);
    }
    /* TxR up to the first 'v' */
    const char *vp = strchr(s, 'v');
    if (!vp || clb_tr_parse_pair(s, &v->bt, &v->br, 'v', &vp))
        return -1;
    char *end;
    v->bv = strtol(vp + 1, &end, 10);
    if (end == vp + 1 || (v->bv != 1 && v->bv != 2 && v->bv != 4))
        return -1;
    if (parse_suffix(end, v))
        return -1;
    if (v->bt % v->br || v->bt % v->bv)
        return -1;
    return 0;
}
