/* The cache levels the device or the OS reports: what a summary may name.
 * A level is named only from a report (the OS's sysfs cache hierarchy for a
 * CPU device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, the profile's l2_kb, whose
 * figure has a source in the profile); never from a measured step. The sysfs
 * files are untrusted input: every field is checked and a bad one drops its
 * level, never the run. */
#include "clb_workload.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define SYSFS_CPU0_CACHE "/sys/devices/system/cpu/cpu0/cache"
#define SYSFS_FILE_MAX 4096
#define MAX_INDEX 64     /* index0 .. index63: more is not a cache hierarchy */

/* The first line of DIR/NAME/FIELD, without its newline; NULL when missing,
 * not a regular file, or longer than a line of a few characters should be. */
static char *sysfs_line(const char *dir, const char *name, const char *field)
{
    char *path = clb_asprintf("%s/%s/%s", dir, name, field);
    char *text = path ? clb_read_regular(path, "sysfs cache file", SYSFS_FILE_MAX) : NULL;
    free(path);
    if (!text)
        return NULL;
    text[strcspn(text, "\n")] = 0;
    if (strlen(text) > 32) {
        free(text);
        return NULL;
    }
    return text;
}

/* "32K", "1024K", "32768K", "2M", "1G" or a plain count of bytes: bytes, or 0
 * when the text is anything else (or beyond 1 TiB). */
static double parse_size(const char *s)
{
    char *end;
    if (!s || s[0] < '0' || s[0] > '9')
        return 0;
    unsigned long long v = strtoull(s, &end, 10);
    int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
    double mult = (double)(1ull << shift);
    if (shift)
        end++;
    double b = (double)v * mult;
    return *end == 0 && v > 0 && b <= 1099511627776.0 ? b : 0;
}

/* "index<digits>" with at most 2 digits. */
static int index_name(const char *n)
{
    size_t k = strlen(n);
    return k > 5 && k <= 7 && strncmp(n, "index", 5) == 0 && strspn(n + 5, "0123456789") == k - 5;
}

/* One sysfs index directory as a level: data and unified caches only. */
static int sysfs_level(const char *dir, const char *name, struct clb_cache_level *out)
{
    char *level = sysfs_line(dir, name, "level"), *type = sysfs_line(dir, name, "type");
    char *size = sysfs_line(dir, name, "size");
    int ok = 0;
    char *end = NULL;
    long lv = level ? strtol(level, &end, 10) : 0;
    double bytes = parse_size(size);
    if (level && end && *end == 0 && lv >= 1 && lv <= 9 && bytes > 0 && type &&
        (strcmp(type, "Data") == 0 || strcmp(type, "Unified") == 0)) {
        snprintf(out->name, sizeof out->name, "L%ld%s", lv, type[0] == 'D' ? "d" : "");
        snprintf(out->source, sizeof out->source, "sysfs cpu0/cache/%s", name);
        out->bytes = bytes;
        ok = 1;
    }
    free(level);
    free(type);
    free(size);
    return ok;
}

int clb_sysfs_caches(const char *dir, struct clb_cache_level *out, int max)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0, seen = 0;
    struct dirent *e;
    while (n < max && seen < MAX_INDEX && (e = readdir(d)))
        if (index_name(e->d_name)) {
            seen++;
            n += sysfs_level(dir, e->d_name, &out[n]);
        }
    closedir(d);
    return n;
}

static int by_size(const void *a, const void *b)
{
    const struct clb_cache_level *x = a, *y = b;
    int c = (x->bytes > y->bytes) - (x->bytes < y->bytes);
    return c ? c : strcmp(x->name, y->name);
}

/* Add a level, or only its source when a level of the same size is there. */
static int add_level(struct clb_cache_level *v, int n, int max, const char *name, double bytes,
                     const char *source)
{
    for (int i = 0; i < n; i++)
        if (v[i].bytes == bytes) {
            size_t k = strlen(v[i].source);
            snprintf(v[i].source + k, sizeof v[i].source - k, "; %s", source);
            return n;
        }
    if (n == max)
        return n;
    snprintf(v[n].name, sizeof v[n].name, "%s", name);
    snprintf(v[n].source, sizeof v[n].source, "%s", source);
    v[n].bytes = bytes;
    return n + 1;
}

int clb_cache_levels_from(const char *sysfs_dir, const struct clb_devinfo *info,
                          const struct clb_profile *p, struct clb_cache_level *out, int max)
{
    int n = 0;
    /* A CPU device is this host's CPU: the OS's hierarchy is the device's. */
    if (info && sysfs_dir && strcmp(info->type_name, "cpu") == 0)
        n = clb_sysfs_caches(sysfs_dir, out, max);
    if (info && info->cache_size > 0 && strcmp(info->cache_type, "none") != 0)
        n = add_level(out, n, max, "global memory cache", (double)info->cache_size,
                      "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE");
    if (p && !isnan(p->l2_kb) && p->l2_kb > 0)
        n = add_level(out, n, max, "L2", p->l2_kb * 1024.0, "profile l2_kb");
    qsort(out, (size_t)n, sizeof *out, by_size);
    return n;
}

int clb_cache_levels(const struct clb_devinfo *info, const struct clb_profile *p,
                     struct clb_cache_level *out, int max)
{
    return clb_cache_levels_from(SYSFS_CPU0_CACHE, info, p, out, max);
}
