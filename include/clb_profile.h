/* Device profiles (the INI files of platforms/), read with inih. */
#ifndef CLB_PROFILE_H
#define CLB_PROFILE_H

#include <stddef.h>

struct clb_devinfo;

struct clb_kv { char *key, *value; int line; };

/* Every numeric figure is NAN when the profile does not know it. */
struct clb_profile {
    char *id;              /* file stem: "h100_sxm"; "generic" for query-built */
    char *path;            /* the file it came from; NULL for generic */
    char *name, *vendor, *architecture, *memory;
    char *match;           /* comma-separated name substrings */
    char *match_platform;  /* optional platform substring */
    /* What tells boards of one name apart, each optional: compute units,
     * clock (2 %), the memory the device reports (3 %), the PCI device id. */
    double match_compute_units, match_clock_mhz, match_memory_gb, match_pci_device;
    double compute_units, core_clock_mhz, memory_clock_mhz, bus_width_bits, memory_gb;
    double peak_bandwidth_gbs, peak_gflops_sp, peak_gflops_dp;
    double l2_kb, local_mem_kb, tdp_w, partitions, partition_width_bytes;
    struct clb_kv *tuning; size_t ntuning;  /* "workload.key" -> value */
    struct clb_kv *model; size_t nmodel;    /* model parameters */
};

struct clb_profiles {
    struct clb_profile *v;
    size_t n;
};

/* Directory search order: explicit dir, $CLBENCH_PLATFORMS, the source tree,
 * the install prefix. Returns the first that exists, or NULL. */
const char *clb_profiles_dir(const char *explicit_dir);

/* Load every *.ini of dir. CLB_OK, or CLB_EUSAGE with "file:line: reason". */
int clb_profiles_load(const char *dir, struct clb_profiles *out);
/* The same for the first directory of the search order (clb_profiles_dir). */
int clb_load_profiles_for(const char *platforms_dir, struct clb_profiles *ps);
/* Parse one file into p (exposed for tests). */
int clb_profile_parse_file(const char *path, struct clb_profile *p);
void clb_profiles_free(struct clb_profiles *ps);
void clb_profile_free(struct clb_profile *p);

const struct clb_profile *clb_profiles_find(const struct clb_profiles *ps, const char *id);
/* The longest comma-separated word of `match` (NULL: none) found in name,
 * case-insensitive: its length, 0 when none ("K20X" beats "K20"). */
size_t clb_profile_match_len(const char *match, const char *name);
/* The profile matching a device (name substrings, then CUs/clock where the
 * profile asks for them), or NULL. */
const struct clb_profile *clb_profiles_match(const struct clb_profiles *ps,
                                             const struct clb_devinfo *dev);
/* How a device matched: how many profiles matched it (the one used has the
 * most checks, then the longest name), another that matched, and whether
 * the match is loose: none of the keys that tell boards of one name apart
 * (platform, compute units, clock, memory, PCI device id) was checked --
 * the profile names none, or the device reports none of them. */
struct clb_match {
    int n, loose;
    const struct clb_profile *other;
    char how[160];   /* "name, compute units and memory"; "name only (...)" */
};
const struct clb_profile *clb_profiles_match_how(const struct clb_profiles *ps,
                                                 const struct clb_devinfo *dev,
                                                 struct clb_match *m);
/* A profile built from device queries only; peaks stay NAN. */
void clb_profile_generic(struct clb_profile *p, const struct clb_devinfo *dev);

/* [tuning] "<workload>.<key>.<dtype>" (dtype non-empty), else "<workload>.<key>";
 * [model] "<key>"; NULL when absent. */
const char *clb_profile_tuning(const struct clb_profile *p, const char *workload, const char *key,
                               const char *dtype);
const char *clb_profile_model(const struct clb_profile *p, const char *key);
/* Peak flops for a type ("double" -> dp, others sp); NAN when unknown. */
double clb_profile_peak_gflops(const struct clb_profile *p, const char *dtype);

#endif
