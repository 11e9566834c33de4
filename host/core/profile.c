/* Device profiles: the INI files of platforms/, read with inih, matched to devices. */
#define _GNU_SOURCE
#include "clb_profile.h"
#include "clb_cl.h"
#include "clb_params.h"
#include "clb_workload.h"
#include "clbench.h"

#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef CLB_SOURCE_DIR
#define CLB_SOURCE_DIR "."
#endif
#ifndef CLB_DATA_DIR
#define CLB_DATA_DIR "/usr/local/share/clbench"
#endif

static int is_dir(const char *p)
{
    struct stat st;
    return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *clb_profiles_dir(const char *explicit_dir)
{
    if (explicit_dir)
        return explicit_dir; /* checked by the loader, which names it */
    const char *env = getenv("CLBENCH_PLATFORMS");
    if (env && *env)
        return env;
    if (is_dir(CLB_SOURCE_DIR "/platforms"))
        return CLB_SOURCE_DIR "/platforms";
    if (is_dir(CLB_DATA_DIR "/platforms"))
        return CLB_DATA_DIR "/platforms";
    return NULL;
}

/* ---- parsing ---------------------------------------------------------- */

/* Every numeric key with the range a real device can have: a value outside
 * it (nan, inf, a sign, 0 where a divisor is needed) is a typo, refused with
 * file:line. */
struct numkey { const char *section, *key; size_t offset; double lo, hi; };
#define NK(sec, field, lo, hi) {sec, #field, offsetof(struct clb_profile, field), lo, hi}
static const struct numkey numkeys[] = {
    NK("device", match_compute_units, 1, 1e6),   NK("device", match_clock_mhz, 1, 1e5),
    NK("device", match_memory_gb, 0.001, 1e6),
    NK("device", compute_units, 1, 1e6),         NK("device", core_clock_mhz, 1, 1e5),
    NK("device", memory_clock_mhz, 1, 1e5),      NK("device", bus_width_bits, 1, 1e6),
    NK("device", memory_gb, 0.001, 1e6),         NK("device", peak_bandwidth_gbs, 0.001, 1e7),
    NK("device", peak_gflops_sp, 0.001, 1e9),    NK("device", peak_gflops_dp, 0.001, 1e9),
    NK("device", l2_kb, 0, 1e8),                 NK("device", local_mem_kb, 0, 1e7),
    NK("device", tdp_w, 0.001, 1e6),             NK("memory", partitions, 1, 65536),
    NK("memory", partition_width_bytes, 1, 1 << 20),
};
struct strkey { const char *key; size_t offset; };
#define SK(field) {#field, offsetof(struct clb_profile, field)}
static const struct strkey strkeys[] = {SK(name), SK(vendor), SK(architecture), SK(memory),
                                        SK(match), SK(match_platform)};
/* Keys accepted and kept for documentation only. */
static const char *const infokeys[] = {"boost_clock_mhz", "memory_type", "notes", "pcie",
                                       "channels", NULL};

/* The profile text, walked line by line for inih: the reader knows the line
 * number of each key and refuses a line longer than inih's buffer, which
 * inih would otherwise split into two lines (and a second key). */
struct parse_state {
    struct clb_profile *p;
    const char *text, *pos;
    int line;
    int long_line;
    struct clb_buf reason;
    int seen_device;
};

static char *read_line(char *str, int num, void *stream)
{
    struct parse_state *ps = stream;
    if (!*ps->pos || ps->long_line)
        return NULL;
    const char *nl = strchr(ps->pos, '\n');
    size_t len = nl ? (size_t)(nl - ps->pos) + 1 : strlen(ps->pos);
    ps->line++;
    if (len + 1 > (size_t)num) {
        ps->long_line = 1;
        return NULL;
    }
    memcpy(str, ps->pos, len);
    str[len] = 0;
    ps->pos += len;
    return str;
}

static int add_kv(struct clb_kv **v, size_t *n, const char *key, const char *value, int line)
{
    void *nv = realloc(*v, (*n + 1) * sizeof **v);
    if (!nv)
        return -1;
    *v = nv;
    (*v)[*n].key = clb_strdup(key);
    (*v)[*n].value = clb_strdup(value);
    (*v)[*n].line = line;
    (*n)++;
    return 0;
}

/* A figure: decimal, finite, no sign, no hex, within [lo, hi]. */
static int parse_range(const char *value, double lo, double hi, double *out)
{
    if ((!(*value >= '0' && *value <= '9') && *value != '.') || strpbrk(value, "xXpP"))
        return -1;
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    while (*end == ' ' || *end == '\t')
        end++;
    if (end == value || *end || errno || !isfinite(v) || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int on_ini(void *user, const char *section, const char *key, const char *value)
{
    struct parse_state *ps = user;
    struct clb_profile *p = ps->p;
    if (strcmp(section, "tuning") == 0) {
        if (!strchr(key, '.') || key[0] == '.') {
            clb_buf_printf(&ps->reason, "tuning key '%s' must be <workload>.<parameter>", key);
            return 0;
        }
        return add_kv(&p->tuning, &p->ntuning, key, value, ps->line) == 0;
    }
    if (strcmp(section, "model") == 0)
        return add_kv(&p->model, &p->nmodel, key, value, ps->line) == 0;
    int device = strcmp(section, "device") == 0;
    if (!device && strcmp(section, "memory") != 0) {
        clb_buf_printf(&ps->reason, "unknown section [%s] (known: device, memory, tuning, model)",
                       section);
        return 0;
    }
    ps->seen_device |= device;
    for (size_t i = 0; i < sizeof numkeys / sizeof *numkeys; i++) {
        const struct numkey *k = &numkeys[i];
        if (strcmp(k->section, section) || strcmp(k->key, key))
            continue;
        double v;
        if (parse_range(value, k->lo, k->hi, &v)) {
            clb_buf_printf(&ps->reason, "%s = '%s' is not a number in %g..%g", key, value, k->lo,
                           k->hi);
            return 0;
        }
        *(double *)((char *)p + k->offset) = v;
        return 1;
    }
    if (device && strcmp(key, "match_pci_device") == 0) {
        char *end;   /* a PCI device id is written in hex, as lspci and sysfs write it */
        errno = 0;
        unsigned long v = strncmp(value, "0x", 2) ? 0 : strtoul(value + 2, &end, 16);
        while (v && (*end == ' ' || *end == '\t'))
            end++;
        if (!v || *end || errno || v > 0xffff) {
            clb_buf_printf(&ps->reason, "match_pci_device = '%s' is not a PCI device id "
                                        "(0x0001..0xffff, e.g. 0x2330)", value);
            return 0;
        }
        p->match_pci_device = (double)v;
        return 1;
    }
    if (device) {
        for (size_t i = 0; i < sizeof strkeys / sizeof *strkeys; i++)
            if (strcmp(strkeys[i].key, key) == 0) {
                char **slot = (char **)((char *)p + strkeys[i].offset);
                free(*slot);
                *slot = clb_strdup(value);
                return 1;
            }
        for (int i = 0; infokeys[i]; i++)
            if (strcmp(infokeys[i], key) == 0)
                return 1;
    }
    clb_buf_printf(&ps->reason, "unknown key '%s' in [%s]", key, section);
    return 0;
}

static void profile_init(struct clb_profile *p)
{
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < sizeof numkeys / sizeof *numkeys; i++)
        *(double *)((char *)p + numkeys[i].offset) = NAN;
    p->match_pci_device = NAN;
}

int clb_profile_parse_file(const char *path, struct clb_profile *p)
{
    profile_init(p);
    char *text = clb_read_regular(path, "profile", 1u << 20);
    if (!text)
        return CLB_EUSAGE;
    struct parse_state ps = {.p = p, .text = text, .pos = text};
    int line = ini_parse_stream(read_line, &ps, on_ini, &ps);
    int rc = CLB_OK;
    if (ps.long_line) {
        rc = clb_eusage("%s:%d: line longer than %d characters (refused: it would be read as two "
                        "lines)", path, ps.line, INI_MAX_LINE - 2);
    } else if (line != 0) {
        rc = clb_eusage("%s:%d: %s", path, line > 0 ? line : ps.line,
                        ps.reason.len ? clb_buf_str(&ps.reason) : "malformed line");
    } else if (!ps.seen_device || !p->name) {
        rc = clb_eusage("%s: profile has no [device] section with a name", path);
    }
    free(text);
    clb_buf_free(&ps.reason);
    if (rc) {
        clb_profile_free(p);
        return rc;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    p->id = clb_strdup(base);
    char *dot = strrchr(p->id, '.');
    if (dot)
        *dot = 0;
    p->path = clb_strdup(path);
    return CLB_OK;
}

/* Every [tuning] key names a registered workload and one of its declared
 * parameters, like --param: "stream.vek" or "streem.vec" is a typo. */
static int check_tuning(const struct clb_profile *p)
{
    for (size_t i = 0; i < p->ntuning; i++) {
        const char *k = p->tuning[i].key;
        const char *dot = strchr(k, '.');
        char *wl = clb_xmalloc((size_t)(dot - k) + 1);
        if (!wl)
            return CLB_ESYS;
        memcpy(wl, k, (size_t)(dot - k));
        wl[dot - k] = 0;
        struct clb_buf why = {0};
        int ok = clb_workload_param_known(wl, dot + 1, &why);
        free(wl);
        if (!ok) {
            clb_seterr("%s:%d: [tuning] %s: %s", p->path, p->tuning[i].line, k, clb_buf_str(&why));
            clb_buf_free(&why);
            return CLB_EUSAGE;
        }
        clb_buf_free(&why);
    }
    return CLB_OK;
}

static void free_kvs(struct clb_kv *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].key);
        free(v[i].value);
    }
    free(v);
}

void clb_profile_free(struct clb_profile *p)
{
    char *strs[] = {p->id, p->path, p->name, p->vendor, p->architecture, p->memory, p->match,
                    p->match_platform};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++)
        free(strs[i]);
    free_kvs(p->tuning, p->ntuning);
    free_kvs(p->model, p->nmodel);
    memset(p, 0, sizeof *p);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int clb_profiles_load(const char *dir, struct clb_profiles *out)
{
    memset(out, 0, sizeof *out);
    if (!dir)
        return clb_eusage("no profile directory found (use --platforms-dir or CLBENCH_PLATFORMS)");
    DIR *d = opendir(dir);
    if (!d)
        return clb_eusage("cannot open profile directory '%s': %s", dir, strerror(errno));
    char **names = NULL;
    size_t nn = 0;
    struct dirent *e;
    int rc = CLB_OK;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".ini") || e->d_name[0] == '.')
            continue;
        void *nv = realloc(names, (nn + 1) * sizeof *names);
        if (!nv) { rc = CLB_ESYS; break; }
        names = nv;
        names[nn++] = clb_strdup(e->d_name);
    }
    closedir(d);
    if (nn)
        qsort(names, nn, sizeof *names, cmp_name);
    out->v = calloc(nn ? nn : 1, sizeof *out->v);
    if (!out->v)
        rc = CLB_ESYS;
    for (size_t i = 0; i < nn && rc == CLB_OK; i++) {
        char *path = clb_asprintf("%s/%s", dir, names[i]);
        struct clb_profile *p = &out->v[out->n];
        rc = path ? clb_profile_parse_file(path, p) : CLB_ESYS;
        free(path);
        if (rc)
            break;
        out->n++;
        for (size_t j = 0; j + 1 < out->n; j++)
            if (clb_strieq(out->v[j].name, p->name)) {
                rc = clb_eusage("%s: duplicate profile name '%s' (also in %s)", p->path, p->name,
                                out->v[j].path);
                break;
            }
        if (rc == CLB_OK)
            rc = check_tuning(p);
    }
    for (size_t i = 0; i < nn; i++)
        free(names[i]);
    free(names);
    if (rc == CLB_ESYS && !names)
        clb_seterr(CLB_OOM " reading profiles");
    if (rc)
        clb_profiles_free(out);
    return rc;
}

void clb_profiles_free(struct clb_profiles *ps)
{
    for (size_t i = 0; i < ps->n; i++)
        clb_profile_free(&ps->v[i]);
    free(ps->v);
    ps->v = NULL;
    ps->n = 0;
}

const struct clb_profile *clb_profiles_find(const struct clb_profiles *ps, const char *id)
{
    for (size_t i = 0; i < ps->n; i++)
        if (clb_strieq(ps->v[i].id, id) || clb_strieq(ps->v[i].name, id))
            return &ps->v[i];
    return NULL;
}

size_t clb_profile_match_len(const char *match, const char *name)
{
    size_t best = 0, nlen = strlen(name);
    for (const char *m = match; m && *m;) {
        size_t len = strcspn(m, ","), wl = len;
        const char *w = m;
        while (wl && *w == ' ')
            w++, wl--;
        while (wl && w[wl - 1] == ' ')
            wl--;
        if (wl && wl > best && wl <= nlen)
            for (size_t s = 0; s + wl <= nlen; s++)
                if (!strncasecmp(name + s, w, wl)) {
                    best = wl;
                    break;
                }
        m += len + (m[len] == ',');
    }
    return best;
}

/* Whether profile p matches dev: its name, then each key that tells boards
 * of one name apart, where both sides know it (a value the device does not
 * report is not checked). -1: no; else the keys checked, named in *how. */
static int match_checks(const struct clb_profile *p, const struct clb_devinfo *dev,
                        struct clb_buf *how)
{
    int checked = 0;
    double gb = (double)dev->global_mem / 1e9;
    struct {
        int set, known, agree;
        const char *name;
    } k[] = {
        {p->match_platform != NULL, 1,
         p->match_platform && clb_stristr(dev->platform_name, p->match_platform), "platform"},
        {!isnan(p->match_compute_units), dev->compute_units > 0,
         (double)dev->compute_units == p->match_compute_units, "compute units"},
        {!isnan(p->match_clock_mhz), dev->clock_mhz > 0,
         fabs((double)dev->clock_mhz - p->match_clock_mhz) <= 0.02 * p->match_clock_mhz, "clock"},
        {!isnan(p->match_memory_gb), gb > 0,
         fabs(gb - p->match_memory_gb) <= 0.03 * p->match_memory_gb, "memory"},
        {!isnan(p->match_pci_device), dev->pci_device > 0,
         (double)dev->pci_device == p->match_pci_device, "PCI device id"},
    };
    int nk = (int)(sizeof k / sizeof *k), unchecked = 0;
    for (int i = 0; i < nk; i++) {
        if (!k[i].set)
            continue;
        if (!k[i].known) {
            unchecked++;
            continue;
        }
        if (!k[i].agree)
            return -1;
        clb_buf_printf(how, checked++ ? ", %s" : "name, %s", k[i].name);
    }
    if (!checked)
        clb_buf_printf(how, "name only");
    if (unchecked) {
        clb_buf_printf(how, " (%s: ", checked ? "unchecked" : "the device reports no");
        for (int i = 0, n = 0; i < nk; i++)
            if (k[i].set && !k[i].known)
                clb_buf_printf(how, "%s%s", n++ ? ", " : "", k[i].name);
        clb_buf_printf(how, ")");
    } else if (!checked) {
        clb_buf_printf(how, " (the profile names nothing else)");
    }
    return checked;
}

const struct clb_profile *clb_profiles_match_how(const struct clb_profiles *ps,
                                                 const struct clb_devinfo *dev,
                                                 struct clb_match *m)
{
    const struct clb_profile *best = NULL;
    size_t best_len = 0;
    int best_checks = -1;
    struct clb_buf how = {0}, best_how = {0};
    memset(m, 0, sizeof *m);
    for (size_t i = 0; i < ps->n; i++) {
        const struct clb_profile *p = &ps->v[i];
        size_t len = clb_profile_match_len(p->match, dev->name);
        how.len = 0;
        int checks = len ? match_checks(p, dev, &how) : -1;
        if (checks < 0)
            continue;
        m->n++;
        if (checks > best_checks || (checks == best_checks && len > best_len)) {
            m->other = best;
            best = p;
            best_len = len;
            best_checks = checks;
            best_how.len = 0;
            clb_buf_add(&best_how, clb_buf_str(&how), how.len);
        } else {
            m->other = p;
        }
    }
    m->loose = best && best_checks == 0;
    clb_strlcpy(m->how, clb_buf_str(&best_how), sizeof m->how);
    clb_buf_free(&how);
    clb_buf_free(&best_how);
    return best;
}

const struct clb_profile *clb_profiles_match(const struct clb_profiles *ps,
                                             const struct clb_devinfo *dev)
{
    struct clb_match m;
    return clb_profiles_match_how(ps, dev, &m);
}

void clb_profile_generic(struct clb_profile *p, const struct clb_devinfo *dev)
{
    profile_init(p);
    p->id = clb_strdup("generic");
    p->name = clb_strdup(dev->name);
    p->vendor = clb_strdup(dev->vendor);
    p->compute_units = dev->compute_units;
    p->core_clock_mhz = dev->clock_mhz ? (double)dev->clock_mhz : NAN;
    p->memory_gb = (double)dev->global_mem / 1e9;
    p->l2_kb = dev->cache_size ? (double)dev->cache_size / 1024.0 : NAN;
    p->local_mem_kb = (double)dev->local_mem / 1024.0;
}

/* `<workload>.<key>.<dtype>` (one type's value, e.g. stream.vec.double)
 * before `<workload>.<key>`: launch shapes that suit 4-byte elements rarely
 * suit 8-byte ones. */
static const char *tuning_exact(const struct clb_profile *p, const char *workload,
                                const char *key, const char *dtype)
{
    size_t wl = strlen(workload), kl = strlen(key);
    for (size_t i = 0; i < p->ntuning; i++) {
        const char *k = p->tuning[i].key;
        if (strncmp(k, workload, wl) || k[wl] != '.' || strncmp(k + wl + 1, key, kl))
            continue;
        const char *rest = k + wl + 1 + kl;
        if (dtype ? rest[0] == '.' && strcmp(rest + 1, dtype) == 0 : rest[0] == 0)
            return p->tuning[i].value;
    }
    return NULL;
}

const char *clb_profile_tuning(const struct clb_profile *p, const char *workload, const char *key,
                               const char *dtype)
{
    if (!p)
        return NULL;
    const char *v = dtype && dtype[0] ? tuning_exact(p, workload, key, dtype) : NULL;
    return v ? v : tuning_exact(p, workload, key, NULL);
}

const char *clb_profile_model(const struct clb_profile *p, const char *key)
{
    if (!p)
        return NULL;
    for (size_t i = 0; i < p->nmodel; i++)
        if (strcmp(p->model[i].key, key) == 0)
            return p->model[i].value;
    return NULL;
}

double clb_profile_peak_gflops(const struct clb_profile *p, const char *dtype)
{
    if (!p)
        return NAN;
    /* the profiles know fp32 and fp64 peaks; not integer or half-precision ones */
    if (dtype && (strcmp(dtype, "half") == 0 || strcmp(dtype, "int") == 0 || strcmp(dtype, "uint") == 0))
        return NAN;
    return (dtype && strncmp(dtype, "double", 6) == 0) ? p->peak_gflops_dp : p->peak_gflops_sp;
}

int clb_load_profiles_for(const char *platforms_dir, struct clb_profiles *ps)
{
    return clb_profiles_load(clb_profiles_dir(platforms_dir), ps);
}
