/* Energy sources: NVML (NVIDIA GPUs; dlopen()ed, so clbench builds and runs
 * without NVIDIA's driver) and RAPL (CPU packages). See energy.h; what each
 * reads, how the device is matched and why: docs/ENERGY.md. */
#define _GNU_SOURCE
#include "energy.h"
#include "clbench.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum kind { NVML, RAPL };

#define MAX_ZONES 16
#define SAMPLE_NS 10000000L  /* 10 ms */

struct clb_energy {
    enum kind kind;
    double idle_w;
    char *idle_why;          /* no idle figure: why (the board did not settle) */
    /* NVML */
    void *lib;
    void *dev;               /* nvmlDevice_t */
    int (*shutdown)(void);
    int (*energy_mj)(void *dev, unsigned long long *mj);
    int (*power_mw)(void *dev, unsigned int *mw);
    int sampled;             /* no energy counter: a thread integrates power */
    pthread_t thread;
    pthread_mutex_t lock;
    volatile int stop;
    double sampled_j;
    /* RAPL */
    int nzones;
    char *zone[MAX_ZONES];   /* energy_uj paths */
    double range[MAX_ZONES], last[MAX_ZONES], total;
};

double clb_energy_delta(double a, double b, double range)
{
    if (b >= a)
        return b - a;
    return range > 0 ? range - a + b : 0; /* wrapped once (or reset: nothing known) */
}

const char *clb_energy_source(const struct clb_energy *e) { return e->kind == NVML ? "nvml" : "rapl"; }
double clb_energy_idle_w(const struct clb_energy *e) { return e->idle_w; }
const char *clb_energy_idle_why(const struct clb_energy *e) { return e->idle_why; }

/* The shortest window a reading is trusted over. NVML: on the H100 and H200
 * the board's energy counter moves in steps (its power sensor samples part
 * of the time): over 0.1 s windows stream copy and scale, the same traffic,
 * read 131-620 W (results/runs/2026-11-23/h100-suite-3.csv); windows of a
 * second or more agree (docs/ENERGY.md). RAPL counts every ~1 ms. */
double clb_energy_min_window(const struct clb_energy *e) { return e->kind == NVML ? 1.0 : 0.1; }

static void set_why(char **why, const char *fmt, const char *a, const char *b)
{
    if (why && !*why)
        *why = clb_asprintf(fmt, a, b);
}

/* ---- NVML ----------------------------------------------------------------- */

static void *power_sampler(void *arg)
{
    struct clb_energy *e = arg;
    struct timespec ts = {0, SAMPLE_NS};
    while (!e->stop) {
        unsigned int mw;
        if (e->power_mw(e->dev, &mw) == 0) {
            pthread_mutex_lock(&e->lock);
            e->sampled_j += mw * 1e-3 * (SAMPLE_NS * 1e-9);
            pthread_mutex_unlock(&e->lock);
        }
        nanosleep(&ts, NULL);
    }
    return NULL;
}

/* The board's power before any work, once it is at rest: a board that has
 * just run other work draws more for seconds after (docs/ENERGY.md tells of
 * the suites that read 280 and 316 W at open). Readings every
 * IDLE_STEP until the board has stopped falling: the mean of the last IDLE_N
 * within IDLE_AGREE (or 2 W) of the IDLE_N before, and so is their spread.
 * A board still falling after IDLE_WAIT seconds is not at rest: no figure. */
#define IDLE_STEP_NS 100000000L   /* 100 ms */
#define IDLE_N 5                  /* readings a mean takes: 0.5 s */
#define IDLE_AGREE 0.02
#define IDLE_WAIT_S 3.0

static double mean_of(const double *v, int n, double *spread)
{
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    for (int k = 0; k < n; k++) {
        lo = fmin(lo, v[k]);
        hi = fmax(hi, v[k]);
        sum += v[k];
    }
    *spread = hi - lo;
    return sum / n;
}

static double idle_power(struct clb_energy *e)
{
    double v[64];
    int n = 0, steps = (int)(IDLE_WAIT_S / (IDLE_STEP_NS * 1e-9)) + 1;
    for (int i = 0; i < steps && i < 64; i++) {
        unsigned int mw;
        if (e->power_mw && e->power_mw(e->dev, &mw) == 0)
            v[n++] = mw * 1e-3;
        if (n >= 2 * IDLE_N) {
            double spread, before, last = mean_of(v + n - IDLE_N, IDLE_N, &spread);
            double tol = fmax(2.0, IDLE_AGREE * last);
            before = mean_of(v + n - 2 * IDLE_N, IDLE_N, &(double){0});
            if (before - last <= tol && spread <= tol)
                return last;
        }
        struct timespec ts = {0, IDLE_STEP_NS};
        nanosleep(&ts, NULL);
    }
    if (n >= 2 && !e->idle_why)
        e->idle_why = clb_asprintf("the board's power did not settle within %.0f s (%.0f W, then "
                                   "%.0f W): it was busy or still drawing power after earlier "
                                   "work", IDLE_WAIT_S, v[0], v[n - 1]);
    return NAN;
}

struct clb_energy *clb_energy_open_nvml(const char *libname, const char *pci_bus_id, char **why)
{
    void *lib = dlopen(libname ? libname : "libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        set_why(why, "no NVML (%s)%s", "libnvidia-ml.so.1 not found", "");
        return NULL;
    }
    int (*init)(void) = (int (*)(void))dlsym(lib, "nvmlInit_v2");
    int (*by_bus)(const char *, void **) =
        (int (*)(const char *, void **))dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    struct clb_energy *e = calloc(1, sizeof *e);
    if (!e || !init || !by_bus) {
        set_why(why, "NVML %s%s", e ? "lacks nvmlInit_v2 or nvmlDeviceGetHandleByPciBusId_v2"
                                    : CLB_OOM, "");
        goto fail;
    }
    e->kind = NVML;
    e->lib = lib;
    e->shutdown = (int (*)(void))dlsym(lib, "nvmlShutdown");
    e->energy_mj = (int (*)(void *, unsigned long long *))dlsym(lib,
                                                               "nvmlDeviceGetTotalEnergyConsumption");
    e->power_mw = (int (*)(void *, unsigned int *))dlsym(lib, "nvmlDeviceGetPowerUsage");
    if (init() != 0) {
        set_why(why, "NVML did not initialise (%s)%s", "nvmlInit_v2 failed", "");
        goto fail;
    }
    unsigned long long mj;
    if (by_bus(pci_bus_id, &e->dev) != 0) {
        set_why(why, "NVML has no device at PCI %s%s", pci_bus_id, "");
    } else if (e->energy_mj && e->energy_mj(e->dev, &mj) == 0) {
        e->idle_w = idle_power(e);
        return e;
    } else if (e->power_mw) {
        /* no energy counter (before Volta): integrate the power */
        e->sampled = 1;
        e->idle_w = idle_power(e);
        pthread_mutex_init(&e->lock, NULL);
        if (pthread_create(&e->thread, NULL, power_sampler, e) == 0)
            return e;
        pthread_mutex_destroy(&e->lock);
        set_why(why, "cannot start the power sampler%s%s", "", "");
    } else {
        set_why(why, "NVML reports neither energy nor power for PCI %s%s", pci_bus_id, "");
    }
    if (e->shutdown)
        e->shutdown();
    free(e->idle_why);
fail:
    dlclose(lib);
    free(e);
    return NULL;
}

/* ---- RAPL ----------------------------------------------------------------- */

static int read_double(const char *path, double *out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    unsigned long long v;
    int ok = fscanf(f, "%llu", &v) == 1;
    fclose(f);
    if (!ok)
        return -1;
    *out = (double)v;
    return 0;
}

struct clb_energy *clb_energy_open_rapl(const char *root, char **why)
{
    if (!root)
        root = "/sys/class/powercap";
    DIR *d = opendir(root);
    if (!d) {
        set_why(why, "no RAPL (%s: %s)", root, strerror(errno));
        return NULL;
    }
    struct clb_energy *e = calloc(1, sizeof *e);
    if (!e) {
        closedir(d);
        return NULL;
    }
    e->kind = RAPL;
    e->idle_w = NAN;
    struct dirent *de;
    int denied = 0;
    while ((de = readdir(d)) && e->nzones < MAX_ZONES) {
        /* top-level package zones only: intel-rapl:N (not intel-rapl:N:M) */
        const char *n = de->d_name;
        if (strncmp(n, "intel-rapl:", 11) || strchr(n + 11, ':'))
            continue;
        char *uj = clb_asprintf("%s/%s/energy_uj", root, n);
        char *rng = clb_asprintf("%s/%s/max_energy_range_uj", root, n);
        double v, r = 0;
        if (uj && rng && read_double(uj, &v) == 0) {
            read_double(rng, &r);
            e->zone[e->nzones] = uj;
            e->range[e->nzones] = r;
            e->last[e->nzones++] = v;
            uj = NULL;
        } else if (uj && access(uj, F_OK) == 0) {
            denied = 1;
        }
        free(uj);
        free(rng);
    }
    closedir(d);
    if (e->nzones == 0) {
        set_why(why, "no RAPL package counter %s under %s",
                denied ? "readable (permission denied: root only)" : "found", root);
        free(e);
        return NULL;
    }
    return e;
}

/* ---- either ----------------------------------------------------------------- */

struct clb_energy *clb_energy_open(const struct clb_devinfo *di, char **why)
{
    *why = NULL;
    const char *rapl = getenv("CLBENCH_POWERCAP_ROOT"); /* tests: a fake sysfs */
    if (strcmp(di->type_name, "cpu") == 0)
        return clb_energy_open_rapl(rapl, why);
    if (di->pci_bus_id[0] && clb_stristr(di->vendor, "nvidia"))
        return clb_energy_open_nvml(getenv("CLBENCH_NVML_LIB"), di->pci_bus_id, why);
    *why = clb_asprintf("no energy source for a %s device of %s%s", di->type_name, di->vendor,
                        di->pci_bus_id[0] ? "" : " (no PCI bus id from the driver)");
    return NULL;
}

int clb_energy_read(struct clb_energy *e, double *joules)
{
    if (e->kind == NVML && e->sampled) {
        pthread_mutex_lock(&e->lock);
        *joules = e->sampled_j;
        pthread_mutex_unlock(&e->lock);
        return CLB_OK;
    }
    if (e->kind == NVML) {
        unsigned long long mj;
        if (e->energy_mj(e->dev, &mj) != 0)
            return CLB_ESYS;
        *joules = (double)mj * 1e-3;
        return CLB_OK;
    }
    for (int i = 0; i < e->nzones; i++) {
        double v;
        if (read_double(e->zone[i], &v) != 0)
            return CLB_ESYS;
        e->total += clb_energy_delta(e->last[i], v, e->range[i]) * 1e-6;
        e->last[i] = v;
    }
    *joules = e->total;
    return CLB_OK;
}

void clb_energy_close(struct clb_energy *e)
{
    if (!e)
        return;
    if (e->kind == NVML) {
        if (e->sampled) {
            e->stop = 1;
            pthread_join(e->thread, NULL);
            pthread_mutex_destroy(&e->lock);
        }
        if (e->shutdown)
            e->shutdown();
        dlclose(e->lib);
    }
    for (int i = 0; i < e->nzones; i++)
        free(e->zone[i]);
    free(e->idle_why);
    free(e);
}
