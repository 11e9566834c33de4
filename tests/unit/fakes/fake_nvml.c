#define _POSIX_C_SOURCE 200809L
/* A stand-in for libnvidia-ml.so.1 (the energy unit test loads it by path):
 * one device at PCI 0000:3b:00.0 drawing 250 W. Its energy counter advances
 * with the wall clock; FAKE_NVML_NO_ENERGY=1 makes the counter unsupported
 * (pre-Volta boards), so clbench must integrate the power instead.
 * FAKE_NVML_FALL=TAU: a board still drawing power after earlier work (a run
 * that had just ended): its power falls from 300 W to 90 W with a time
 * constant of TAU seconds from nvmlInit_v2, as an H100 read right after
 * another run did (280 W "idle", 120 W while its own transfers ran). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int device = 42;
static double t_init;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int nvmlInit_v2(void)
{
    t_init = now();
    return 0;
}
int nvmlShutdown(void) { return 0; }

int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, void **dev)
{
    if (strcmp(bus, "0000:3b:00.0") != 0)
        return 6; /* NVML_ERROR_NOT_FOUND */
    *dev = &device;
    return 0;
}

int nvmlDeviceGetTotalEnergyConsumption(void *dev, unsigned long long *mj)
{
    if (dev != &device || getenv("FAKE_NVML_NO_ENERGY"))
        return 3; /* NVML_ERROR_NOT_SUPPORTED */
    *mj = (unsigned long long)(now() * 250.0 * 1000.0);
    return 0;
}

int nvmlDeviceGetPowerUsage(void *dev, unsigned int *mw)
{
    if (dev != &device)
        return 2;
    const char *tau = getenv("FAKE_NVML_FALL");
    if (tau && atof(tau) > 0)
        *mw = (unsigned)(1000.0 * (90.0 + 210.0 * exp(-(now() - t_init) / atof(tau))));
    else
        *mw = 250000;
    return 0;
}
