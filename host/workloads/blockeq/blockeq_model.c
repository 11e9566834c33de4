/* The C1060 report's blockEqPartition models [C1060Report, Part III]: the closed form
 * of the 512x512 case and a discrete-event simulation of its half-warp Gantt
 * chart, offered as `clbench model blockeq` and `clbench model blockeq --sim`.
 * See docs/MODELS.md for the assumptions and where they fail. */
#include "clb_workload.h"
#include "blockeq.h"

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
    if (!(p->overlap_halfwarps >= 0) || p->overlap_halfwarps > p->halfwarps)
        return clb_eusage("blockeq: overlap_halfwarps = %g must lie in 0..halfwarps (%g)",
                          p->overlap_halfwarps, p->halfwarps);
    double tiles = p->tiles_per_block;
    /* One block per SM walks its share of the tiles; the report rounds
     * 512 / 30 = 17.07 down to 17. */
    if (!(tiles > 0))
        tiles = fmax(1, floor(p->n1 * p->n2 / (p->halfwarps * HALFWARP) / p->sms));
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

static void ev_swap(struct event *a, struct event *b)
{
    struct event t = *a;
    *a = *b;
    *b = t;
}

static int heap_push(struct heap *h, double t, int kind, int id)
{
    if (CLB_GROW(h->v, h->n, h->cap))
        return CLB_ESYS;
    size_t i = h->n++;
    h->v[i] = (struct event){t, h->seq++, kind, id};
    for (; i > 0 && ev_less(&h->v[i], &h->v[(i - 1) / 2]); i = (i - 1) / 2)
        ev_swap(&h->v[i], &h->v[(i - 1) / 2]);
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
        ev_swap(&h->v[i], &h->v[m]);
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
        return clb_eusage("blockeq simulation: halfwarps, blocks, sms, blocks_per_sm and the size "
                          "must be >= 1");
    }
    if (!(p->index_cycles >= 0) || !(p->issue_cycles >= 0) || !(p->latency_cycles >= 0) ||
        !(p->transfer_cycles > 0) || !(p->bus_bytes > 0) || !(p->clock_mhz > 0)) {
        return clb_eusage("blockeq simulation: cycle counts must be >= 0, transfer_cycles, "
                          "bus_bytes and clock_mhz > 0");
    }
    long per_sm = (p->blocks + p->sms - 1) / p->sms;
    if (per_sm > p->blocks_per_sm)
        return clb_eusage("blockeq simulation: blocks=%d need %ld blocks on an SM, more than "
                          "blocks_per_sm=%d (sms=%d)", p->blocks, per_sm, p->blocks_per_sm, p->sms);
    if ((double)p->blocks * p->halfwarps > 1e6 || (double)p->n1 * (double)p->n2 > 1e10)
        return clb_eusage("blockeq simulation: too large (at most 1e6 half-warps, 1e10 elements)");
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
        clb_seterr("blockeq simulation: " CLB_OOM);
    for (int i = 0; S.sm && i < p->sms; i++)
        free(S.sm[i].queue);
    free(S.sm);
    free(S.hw);
    free(S.heap.v);
    return rc;
}

/* ---- the models: `clbench model blockeq [--sim]` ------------------------ */

static const struct clb_model_param closed_params[] = {
    {"halfwarps", "32", "half-warps per block"},
    {"overlap_halfwarps", "20", "the report's '(halfwarpPerBlock - 20)'"},
    {"index_cycles", NULL, "index computation per half-warp, core cycles"},
    {"transfer_cycles", NULL, "one bus word per SM, core cycles [core / memory data clock]"},
    {"bus_bytes", NULL, "bytes per bus word [bus_width_bits / 8]"},
    {"sms", NULL, "SMs [compute_units]"},
    {"clock_mhz", NULL, "core clock of the cycle counts [core_clock_mhz]"},
    {"tiles_per_block", "0", "tiles per block (0: size / tile / sms, rounded down)"},
    {"size", NULL, "matrix n1xn2 (or --size)"},
    {NULL, NULL, NULL},
};
static const struct clb_model_param gantt_params[] = {
    {"halfwarps", "32", "half-warps per block"},
    {"blocks", "1", "work-groups P (a list: 1,2,4,8,16,30,32)"},
    {"sms", NULL, "SMs [compute_units]"},
    {"blocks_per_sm", "1", "resident blocks per SM"},
    {"index_cycles", NULL, "SM busy per index computation"},
    {"issue_cycles", "1", "SM busy per write command"},
    {"latency_cycles", NULL, "request to data at the bus"},
    {"transfer_cycles", NULL, "one bus word, core cycles [core / memory data clock]"},
    {"bus_bytes", NULL, "bytes per bus word [bus_width_bits / 8]"},
    {"clock_mhz", NULL, "core clock [core_clock_mhz]"},
    {"size", NULL, "matrix n1xn2 (or --size)"},
    {NULL, NULL, NULL},
};

/* A parameter nobody sets: the C1060's figures are in its profile; one that
 * --ceilings FILE should have given names what the file lacks. */
static int missing(struct clb_model_ctx *m, const char *prefix, const char *key)
{
    char *why = clb_model_ceiling_missing(m, key);
    if (why)
        clb_seterr("model blockeq: %s (or give --param %s=VALUE)", why, key);
    else
        clb_seterr("model blockeq: parameter '%s' is not set (give --param %s=VALUE, or a "
                   "profile whose [model] has %s.%s, e.g. --profile tesla_c1060)", key, key,
                   prefix, key);
    free(why);
    return CLB_EUSAGE;
}

static int required(struct clb_model_ctx *m, const char *prefix, const char *key, double *out)
{
    int rc = clb_model_num(m, key, out, 0);
    if (rc == CLB_OK && isnan(*out))
        rc = missing(m, prefix, key);
    return rc;
}

static int get_size(struct clb_model_ctx *m, const char *prefix, struct clb_size *s)
{
    const char *origin;
    const char *v = clb_model_size(m) ? clb_model_size(m) : clb_model_text(m, "size", &origin);
    if (!v)
        return missing(m, prefix, "size");
    char err[256];
    if (clb_parse_dims(v, 2, s, err, sizeof err))
        return clb_eusage("model blockeq: %s", err);
    return CLB_OK;
}

static const char *profile_id(const struct clb_model_ctx *m)
{
    const struct clb_profile *p = clb_model_profile(m);
    return p ? p->id : "(none)";
}

/* blockeq models float and double only. */
static int check_types(const char *list)
{
    int n;
    char **tl = clb_split(list, &n);
    if (!tl)
        return CLB_ESYS;
    for (int i = 0; i < n; i++)
        if (strcmp(tl[i], "float") && strcmp(tl[i], "double")) {
            clb_seterr("model blockeq: unknown type '%s' (known: float, double)", tl[i]);
            free(tl);
            return CLB_EUSAGE;
        }
    free(tl);
    return CLB_OK;
}

static int run_closed(struct clb_model_ctx *m)
{
    const char *pre = "blockeq";
    struct clb_blockeq_params bp;
    struct clb_size s;
    double *dst[] = {&bp.halfwarps, &bp.overlap_halfwarps, &bp.index_cycles, &bp.transfer_cycles,
                     &bp.bus_bytes, &bp.sms, &bp.clock_mhz, &bp.tiles_per_block};
    int rc = get_size(m, pre, &s);
    for (size_t i = 0; !rc && i < sizeof dst / sizeof *dst; i++) /* closed_params' order */
        rc = required(m, pre, closed_params[i].key, dst[i]);
    if (rc)
        return rc;
    const char *type = clb_model_type(m);
    if (type && (rc = check_types(type)))
        return rc;
    bp.n1 = (double)s.d[0];
    bp.n2 = (double)s.d[1];
    struct clb_blockeq_result rf, rd;
    if ((rc = clb_blockeq_closed(&bp, 4, &rf)) || (rc = clb_blockeq_closed(&bp, 8, &rd)))
        return rc;
    printf("blockeq closed form (C1060 report, PART III), profile %s, %zux%zu\n", profile_id(m),
           s.d[0], s.d[1]);
    for (const struct clb_model_param *p = closed_params; p->key; p++)
        if (strcmp(p->key, "size"))
            clb_model_show(m, p->key);
    printf("  X = (halfwarps - overlap) x index_cycles = %.6g cycles\n", rf.x_cycles);
    printf("  Y = tiles x 2 x (transfer_cycles x words x sms) x sms, tiles per block %.6g\n",
           rf.tiles_per_block);
    int f = !type || clb_list_has(type, "float");
    int d = !type || clb_list_has(type, "double");
    if (f)
        printf("float   %.4f GB/s  (X + Y  = %.6g cycles)\n", rf.gbps, rf.cycles);
    if (d)
        printf("double  %.4f GB/s  (X + 2Y = %.6g cycles)\n", rd.gbps, rd.cycles);
    if (f && d)
        printf("double/float ratio %.6f  (1 + X/(X+2Y) = %.6f)\n", rd.gbps / rf.gbps,
               1.0 + rf.x_cycles / (rf.x_cycles + 2.0 * rf.y_cycles));
    return CLB_OK;
}

/* The report's own figures for the one-block float case (256x256). */
#define REPORT_MODEL_GBPS 3.22
#define REPORT_MEASURED_GBPS 3.1

static int run_sim(struct clb_model_ctx *m)
{
    const char *pre = "gantt";
    struct clb_size s;
    double d[9];
    static const char *const keys[] = {"halfwarps", "sms", "blocks_per_sm", "index_cycles",
                                       "issue_cycles", "latency_cycles", "transfer_cycles",
                                       "bus_bytes", "clock_mhz"};
    int rc = get_size(m, pre, &s);
    for (int i = 0; !rc && i < 9; i++)
        rc = required(m, pre, keys[i], &d[i]);
    if (rc)
        return rc;
    /* The first three are counts the simulation takes as ints. */
    for (int i = 0; i < 3; i++)
        if (d[i] < 1 || d[i] > 1e6 || d[i] != floor(d[i]))
            return clb_eusage("model blockeq --sim: parameter %s = %g is not a whole number in "
                              "1..1000000", keys[i], d[i]);
    const char *origin;
    const char *bl = clb_model_text(m, "blocks", &origin);
    long blocks[64];
    /* the message quotes the list: room for all of it */
    size_t errlen = strlen(bl) + 128;
    char *err = clb_xmalloc(errlen);
    if (!err)
        return CLB_ESYS;
    int nb = clb_parse_int_list(bl, 1, 100000, blocks, 64, err, errlen);
    if (nb < 0)
        clb_seterr("model blockeq --sim: parameter blocks: %s", err);
    free(err);
    if (nb < 0)
        return CLB_EUSAGE;
    const char *types = clb_model_type(m) ? clb_model_type(m) : "float,double";
    if ((rc = check_types(types)))
        return rc;
    int nt;
    char **tl = clb_split(types, &nt);
    if (!tl)
        return CLB_ESYS;
    printf("blockeq Gantt-chart simulation (C1060 report, figures 29-31 and 28), profile %s, "
           "%zux%zu\n", profile_id(m), s.d[0], s.d[1]);
    for (const struct clb_model_param *p = gantt_params; p->key; p++)
        if (strcmp(p->key, "size"))
            clb_model_show(m, p->key);
    printf("%-7s %7s %12s %10s %8s %8s %14s\n", "type", "blocks", "cycles", "GB/s", "bus%",
           "SM%", "tiles/SM(max)");
    for (int t = 0; t < nt && !rc; t++)
        for (int b = 0; b < nb && !rc; b++) {
            struct clb_gantt_params gp = {
                .n1 = s.d[0], .n2 = s.d[1], .halfwarps = (int)d[0], .blocks = (int)blocks[b],
                .sms = (int)d[1], .blocks_per_sm = (int)d[2], .index_cycles = d[3],
                .issue_cycles = d[4], .latency_cycles = d[5], .transfer_cycles = d[6],
                .bus_bytes = d[7], .clock_mhz = d[8], .esize = strcmp(tl[t], "float") ? 8 : 4};
            struct clb_gantt_result r;
            if ((rc = clb_gantt_simulate(&gp, &r)))
                break;
            printf("%-7s %7ld %12.0f %10.4f %7.1f%% %7.1f%% %14ld\n", tl[t], blocks[b], r.cycles,
                   r.gbps, 100 * r.bus_busy, 100 * r.sm_busy, r.max_tiles_per_sm);
        }
    free(tl);
    if (!rc)
        printf("report, one block of floats at 256x256: %.2f GB/s modelled (figure 31), "
               "%.1f GB/s measured\n", REPORT_MODEL_GBPS, REPORT_MEASURED_GBPS);
    return rc;
}

const struct clb_model_def clb_blockeq_models[] = {
    {"blockeq", NULL, NULL,
     "the C1060 report's closed form: float and double GB/s and their ratio", closed_params,
     run_closed},
    {"blockeq", "sim", "gantt",
     "discrete-event simulation of the report's half-warp Gantt chart", gantt_params, run_sim},
    {0, 0, 0, 0, 0, 0},
};
