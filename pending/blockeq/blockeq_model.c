/* The C1060 report's blockEqPartition models (seed PART III): the closed form
 * of the 512x512 case and a discrete-event simulation of its half-warp Gantt
 * chart. See docs/MODELS.md for the assumptions and where they fail. */
#include "clb_model.h"
#include "clbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Elements one half-warp moves in one access. */
#define HALFWARP 16

static int positive(const char *what, double v)
{
    if (!(v > 0) || !isfinite(v)) {
        clb_seterr("blockeq: %s = %g must be a positive number", what, v);
        return 0;
    }
    return 1;
}

/* Bus words one half-warp access needs: 1 for 16 floats, 2 for 16 doubles on
 * a 512-bit interface. */
static double words_per_access(size_t esize, double bus_bytes)
{
    return ceil((double)(HALFWARP * esize) / bus_bytes);
}

int clb_blockeq_closed(const struct clb_blockeq_params *p, size_t esize,
                       struct clb_blockeq_result *r)
{
    memset(r, 0, sizeof *r);
    if (!positive("n1", p->n1) || !positive("n2", p->n2) || !positive("halfwarps", p->halfwarps) ||
        !positive("index_cycles", p->index_cycles) ||
        !positive("transfer_cycles", p->transfer_cycles) || !positive("bus_bytes", p->bus_bytes) ||
        !positive("sms", p->sms) || !positive("clock_mhz", p->clock_mhz) || esize == 0)
        return CLB_EUSAGE;
    if (!(p->overlap_halfwarps >= 0) || p->overlap_halfwarps > p->halfwarps) {
        clb_seterr("blockeq: overlap_halfwarps = %g must lie in 0..halfwarps (%g)",
                   p->overlap_halfwarps, p->halfwarps);
        return CLB_EUSAGE;
    }
    double tiles = p->tiles_per_block;
    if (!(tiles > 0)) {
        /* One block per SM walks its share of the tiles; the report rounds
         * 512 / 30 = 17.07 down to 17. */
        double ntiles = p->n1 * p->n2 / (p->halfwarps * HALFWARP);
        tiles = floor(ntiles / p->sms);
        if (tiles < 1)
            tiles = 1;
    }
    /* Latency of the report = the time 30 SMs need to move one half-warp's
     * data each, back to back: transfer x words x sms. */
    double latency = p->transfer_cycles * words_per_access(esize, p->bus_bytes) * p->sms;
    r->tiles_per_block = tiles;
    r->x_cycles = (p->halfwarps - p->overlap_halfwarps) * p->index_cycles;
    r->y_cycles = tiles * 2.0 * latency * p->sms;
    r->cycles = r->x_cycles + r->y_cycles;
    r->bytes = p->n1 * p->n2 * (double)esize * 2.0;
    r->gbps = r->bytes / (r->cycles / (p->clock_mhz * 1e6)) / 1e9;
    return CLB_OK;
}

/* ---- discrete-event simulation ---------------------------------------- */

enum { EV_SM_DONE, EV_MEM_DONE };
enum { HW_INDEX, HW_WRITE, HW_DONE };   /* what the half-warp needs the SM for next */

struct event { double t; long seq; int kind, id; };

struct heap { struct event *v; size_t n, cap; long seq; };

static int ev_less(const struct event *a, const struct event *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static int heap_push(struct heap *h, double t, int kind, int id)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 256;
        void *nv = realloc(h->v, cap * sizeof *h->v);
        if (!nv)
            return CLB_ESYS;
        h->v = nv;
        h->cap = cap;
    }
    size_t i = h->n++;
    h->v[i] = (struct event){t, h->seq++, kind, id};
    while (i > 0 && ev_less(&h->v[i], &h->v[(i - 1) / 2])) {
        struct event tmp = h->v[i];
        h->v[i] = h->v[(i - 1) / 2];
        h->v[(i - 1) / 2] = tmp;
        i = (i - 1) / 2;
    }
    return CLB_OK;
}

static struct event heap_pop(struct heap *h)
{
    struct event top = h->v[0];
    h->v[0] = h->v[--h->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && ev_less(&h->v[l], &h->v[m]))
            m = l;
        if (r < h->n && ev_less(&h->v[r], &h->v[m]))
            m = r;
        if (m == i)
            break;
        struct event tmp = h->v[i];
        h->v[i] = h->v[m];
        h->v[m] = tmp;
        i = m;
    }
    return top;
}

struct halfwarp { int block, state; long tile; };

struct sm {
    int *queue;          /* ring buffer of ready half-warps (round robin = FIFO) */
    size_t head, len, cap;
    int busy;
    double busy_cycles;
    long tiles;
};

struct sim {
    const struct clb_gantt_params *p;
    struct halfwarp *hw;
    struct sm *sm;
    struct heap heap;
    double bus_free, bus_cycles, words, end;
    long ntiles;
};

static void sm_enqueue(struct sm *s, int id)
{
    s->queue[(s->head + s->len) % s->cap] = id;
    s->len++;
}

/* Give the SM its next ready half-warp, if any. */
static int sm_dispatch(struct sim *S, int smi, double t)
{
    struct sm *s = &S->sm[smi];
    if (s->busy || s->len == 0)
        return CLB_OK;
    int id = s->queue[s->head];
    s->head = (s->head + 1) % s->cap;
    s->len--;
    double cost = S->hw[id].state == HW_INDEX ? S->p->index_cycles : S->p->issue_cycles;
    s->busy = 1;
    s->busy_cycles += cost;
    return heap_push(&S->heap, t + cost, EV_SM_DONE, id);
}

static int sm_of(const struct sim *S, int id)
{
    return S->hw[id].block % S->p->sms;
}

/* The SM finished computing for half-warp id: its request goes to memory. */
static int on_sm_done(struct sim *S, int id, double t)
{
    const struct clb_gantt_params *p = S->p;
    /* Constant latency: requests reach the bus in the order they were issued,
     * and the bus serves them one after the other. */
    double start = fmax(t + p->latency_cycles, S->bus_free);
    double dur = S->words * p->transfer_cycles;
    S->bus_free = start + dur;
    S->bus_cycles += dur;
    int smi = sm_of(S, id);
    S->sm[smi].busy = 0;
    int rc = heap_push(&S->heap, start + dur, EV_MEM_DONE, id);
    return rc ? rc : sm_dispatch(S, smi, t);
}

/* A read or write of half-warp id completed. */
static int on_mem_done(struct sim *S, int id, double t)
{
    struct halfwarp *h = &S->hw[id];
    int smi = sm_of(S, id);
    if (h->state == HW_INDEX) {          /* the read came back: write it out */
        h->state = HW_WRITE;
    } else {                             /* the write completed: next tile */
        S->end = fmax(S->end, t);
        h->tile += S->p->blocks;
        if (h->tile >= S->ntiles) {
            h->state = HW_DONE;
            return CLB_OK;
        }
        h->state = HW_INDEX;
    }
    sm_enqueue(&S->sm[smi], id);
    return sm_dispatch(S, smi, t);
}

static int gantt_check(const struct clb_gantt_params *p)
{
    if (p->halfwarps < 1 || p->blocks < 1 || p->sms < 1 || p->blocks_per_sm < 1 || !p->n1 ||
        !p->n2 || !p->esize) {
        clb_seterr("blockeq simulation: halfwarps, blocks, sms, blocks_per_sm and the size must "
                   "be >= 1");
        return CLB_EUSAGE;
    }
    if (!(p->index_cycles >= 0) || !(p->issue_cycles >= 0) || !(p->latency_cycles >= 0) ||
        !(p->transfer_cycles > 0) || !(p->bus_bytes > 0) || !(p->clock_mhz > 0)) {
        clb_seterr("blockeq simulation: cycle counts must be >= 0, transfer_cycles, bus_bytes "
                   "and clock_mhz > 0");
        return CLB_EUSAGE;
    }
    long per_sm = (p->blocks + p->sms - 1) / p->sms;
    if (per_sm > p->blocks_per_sm) {
        clb_seterr("blockeq simulation: blocks=%d need %ld blocks on an SM, more than "
                   "blocks_per_sm=%d (sms=%d)", p->blocks, per_sm, p->blocks_per_sm, p->sms);
        return CLB_EUSAGE;
    }
    if ((double)p->blocks * p->halfwarps > 1e6 || (double)p->n1 * (double)p->n2 > 1e10) {
        clb_seterr("blockeq simulation: too large (at most 1e6 half-warps, 1e10 elements)");
        return CLB_EUSAGE;
    }
    return CLB_OK;
}

int clb_gantt_simulate(const struct clb_gantt_params *p, struct clb_gantt_result *r)
{
    memset(r, 0, sizeof *r);
    int rc = gantt_check(p);
    if (rc)
        return rc;
    struct sim S = {.p = p};
    size_t tile_elems = (size_t)p->halfwarps * HALFWARP;
    S.ntiles = (long)((p->n1 * p->n2 + tile_elems - 1) / tile_elems);
    S.words = words_per_access(p->esize, p->bus_bytes);
    int nhw = p->blocks * p->halfwarps;
    S.hw = calloc((size_t)nhw, sizeof *S.hw);
    S.sm = calloc((size_t)p->sms, sizeof *S.sm);
    if (!S.hw || !S.sm) {
        rc = CLB_ESYS;
        goto out;
    }
    for (int i = 0; i < p->sms; i++) {
        S.sm[i].cap = (size_t)p->blocks_per_sm * (size_t)p->halfwarps;
        if (!(S.sm[i].queue = malloc(S.sm[i].cap * sizeof *S.sm[i].queue))) {
            rc = CLB_ESYS;
            goto out;
        }
    }
    /* Block b walks tiles b, b+P, ...; its half-warps start ready in order. */
    for (int b = 0; b < p->blocks; b++) {
        long mine = b < S.ntiles ? (S.ntiles - b + p->blocks - 1) / p->blocks : 0;
        S.sm[b % p->sms].tiles += mine;
        for (int h = 0; h < p->halfwarps; h++) {
            int id = b * p->halfwarps + h;
            S.hw[id] = (struct halfwarp){b, mine ? HW_INDEX : HW_DONE, b};
            if (mine)
                sm_enqueue(&S.sm[b % p->sms], id);
        }
    }
    for (int i = 0; i < p->sms && !rc; i++)
        rc = sm_dispatch(&S, i, 0.0);
    while (!rc && S.heap.n) {
        struct event e = heap_pop(&S.heap);
        rc = e.kind == EV_SM_DONE ? on_sm_done(&S, e.id, e.t) : on_mem_done(&S, e.id, e.t);
    }
    if (rc)
        goto out;
    r->cycles = S.end;
    r->tiles = S.ntiles;
    double bytes = 2.0 * (double)p->n1 * (double)p->n2 * (double)p->esize;
    r->gbps = S.end > 0 ? bytes / (S.end / (p->clock_mhz * 1e6)) / 1e9 : 0;
    r->bus_busy = S.end > 0 ? S.bus_cycles / S.end : 0;
    for (int i = 0; i < p->sms; i++) {
        if (S.end > 0 && S.sm[i].busy_cycles / S.end > r->sm_busy)
            r->sm_busy = S.sm[i].busy_cycles / S.end;
        if (S.sm[i].tiles > r->max_tiles_per_sm)
            r->max_tiles_per_sm = S.sm[i].tiles;
    }
out:
    if (rc == CLB_ESYS)
        clb_seterr("blockeq simulation: out of host memory");
    for (int i = 0; S.sm && i < p->sms; i++)
        free(S.sm[i].queue);
    free(S.sm);
    free(S.hw);
    free(S.heap.v);
    return rc;
}
