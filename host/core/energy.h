/* Energy of the timed repetitions (docs/ENERGY.md): NVML on NVIDIA GPUs
 * (libnvidia-ml.so.1 loaded at run time, the device matched by its PCI bus
 * id), RAPL package energy (/sys/class/powercap) on CPUs. Where no source
 * exists or access is denied, nothing is reported: never an estimate. */
#ifndef CLB_ENERGY_H
#define CLB_ENERGY_H

#include "clb_cl.h"

struct clb_energy;

/* A source for this device, or NULL with *why saying why there is none
 * (malloc'd; NULL when there is nothing to say). */
struct clb_energy *clb_energy_open(const struct clb_devinfo *di, char **why);
/* The counter in joules (monotonic; wrap-around handled inside). CLB_OK or
 * CLB_ESYS when the reading failed. */
int clb_energy_read(struct clb_energy *e, double *joules);
const char *clb_energy_source(const struct clb_energy *e);  /* "nvml", "rapl" */
/* Power drawn before any work (board or packages), watts; NAN if unknown. */
double clb_energy_idle_w(const struct clb_energy *e);
/* Why there is no idle figure where the source has power readings (the
 * board did not settle: still busy after earlier work); NULL otherwise. */
const char *clb_energy_idle_why(const struct clb_energy *e);
/* The shortest window (seconds) over which a reading of this source is kept. */
double clb_energy_min_window(const struct clb_energy *e);
void clb_energy_close(struct clb_energy *e);

/* A counter's increase from a to b when it wraps at `range` (0: never). */
double clb_energy_delta(double a, double b, double range);

/* The NVML source for a PCI bus id ("0000:3b:00.0") through the library at
 * `lib` (NULL: libnvidia-ml.so.1); exposed for the tests' fake library. */
struct clb_energy *clb_energy_open_nvml(const char *lib, const char *pci_bus_id, char **why);
/* The RAPL source under `root` (NULL: /sys/class/powercap); for the tests. */
struct clb_energy *clb_energy_open_rapl(const char *root, char **why);

#endif
