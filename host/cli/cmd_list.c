/* `clbench list`, `clbench profiles` and `clbench WORKLOAD --help`. */
#include "cli.h"
#include "clb_model.h"
#include "clb_report.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* Both subcommands take --platforms-dir; list also -v. */
static int parse_simple(int argc, char **argv, const char **platforms_dir, int *verbose)
{
    static const struct option opts[] = {{"platforms-dir", required_argument, 0, 'L'},
                                         {"verbose", no_argument, 0, 'v'},
                                         {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":hv", opts, NULL)) != -1) {
        if (c == 'L') {
            *platforms_dir = optarg;
        } else if (c == 'v' && verbose) {
            *verbose = 1;
        } else if (c == 'h') {
            printf("usage: clbench %s [--platforms-dir DIR]%s\n", argv[0],
                   verbose ? " [-v|--verbose]" : "");
            return -1;
        } else {
            return clb_cli_eusage("%s: unknown option '%s'", argv[0], argv[optind - 1]);
        }
    }
    if (optind < argc)
        return clb_cli_eusage("%s: unexpected argument '%s'", argv[0], argv[optind]);
    return CLB_OK;
}

/* What a performance engineer checks before trusting a figure. */
static void device_details(const struct clb_devinfo *d, const struct clb_profile *p,
                           const struct clb_match *m)
{
    printf("      ");
    clb_wrapf(stdout, 6, 8, "platform %s; OpenCL %s, %s, driver %s, vendor %s", d->platform_name,
              d->version, d->c_version[0] ? d->c_version : "OpenCL C ?", d->driver, d->vendor);
    printf("      ");
    clb_wrapf(stdout, 6, 8, "memory %.2f GB, largest buffer %.2f GB, cache %.1f MB %s (line %u B), "
              "local %.0f KB", (double)d->global_mem / 1e9, (double)d->max_alloc / 1e9,
              (double)d->cache_size / 1e6, d->cache_type, d->cache_line,
              (double)d->local_mem / 1024);
    char pci[64] = "";
    if (d->pci_bus_id[0])
        snprintf(pci, sizeof pci, ", PCI %s", d->pci_bus_id);
    if (d->pci_device)
        clb_appendf(pci, sizeof pci, " (device 0x%04x)", d->pci_device);
    printf("      ");
    clb_wrapf(stdout, 6, 8, "%u compute units at %u MHz, work-group <= %zu%s (%zu x %zu x %zu), "
              "fp64 %s, fp16 %s%s", d->compute_units, d->clock_mhz, d->max_wg,
              d->wg_forced ? " (CLBENCH_MAX_WORK_GROUP)" : "", d->max_wi[0], d->max_wi[1],
              d->max_wi[2], d->fp64 ? "yes" : "no", d->fp16 ? "yes" : "no", pci);
    if (p) {
        printf("      ");
        clb_wrapf(stdout, 6, 8, "profile %s (%s) matched by %s", p->id, p->name ? p->name : "",
                  m->how);
    }
}

/* A device's profile column: the profile's id, "?" after it when the match
 * is loose, "+" when other profiles match too (the notes under the table say
 * how and which). */
static void profile_cell(char *buf, size_t n, const struct clb_profile *p, const struct clb_match *m)
{
    snprintf(buf, n, "%s%s%s", p ? p->id : "generic", p && m->loose ? "?" : "",
             p && m->n > 1 ? "+" : "");
}

/* Under the table: what a "?" or "+" says, per device. */
static void match_notes(const struct clb_devinfo *devs, int n, const struct clb_profiles *ps)
{
    for (int i = 0; i < n; i++) {
        struct clb_match m;
        const struct clb_profile *p = clb_profiles_match_how(ps, &devs[i], &m);
        if (p && m.loose)
            clb_wrapf(stdout, 0, 2, "%d: profile %s? matched loosely, by the %s: another board "
                      "of this name would match it too", i, p->id, m.how);
        if (p && m.n > 1)
            clb_wrapf(stdout, 0, 2, "%d: profile %s+ is one of %d that match (also %s); it is "
                      "used for the most checks, then the longest name (--profile picks another)",
                      i, p->id, m.n, m.other ? m.other->id : "?");
    }
}

/* The options of list and profiles, then the profiles: CLB_OK, -1 after
 * --help, else the exit status with the message printed. */
static int start(int argc, char **argv, int *verbose, struct clb_profiles *ps,
                 const char **pdir_out)
{
    const char *pdir = NULL;
    int rc = parse_simple(argc, argv, &pdir, verbose);
    if (pdir_out)
        *pdir_out = pdir;
    if (rc)
        return rc < 0 ? -1 : clb_exit_status(rc);
    if ((rc = clb_load_profiles_for(pdir, ps))) {
        clb_print_error("%s", clb_lasterr());
        return clb_exit_status(rc);
    }
    return CLB_OK;
}

int clb_cmd_list(int argc, char **argv)
{
    int verbose = 0;
    struct clb_profiles ps;
    int rc = start(argc, argv, &verbose, &ps, NULL);
    if (rc)
        return rc < 0 ? 0 : rc;
    struct clb_devinfo *devs;
    int n;
    if ((rc = clb_devices(&devs, &n))) {
        clb_print_error("%s", clb_lasterr());
        clb_profiles_free(&ps);
        return clb_exit_status(rc);
    }
    int def = clb_select_device(devs, n, NULL); /* -1 when only emulators: no default */
    /* A row is one line; the device's name, never cut, last. --wide adds the
     * compute units, clock and platform to each row (what scripts read). */
    int wide = clb_out_width(stdout) > 160;
    int wp = 7;
    for (int i = 0; i < n; i++) {
        struct clb_match m;
        char cell[64];
        profile_cell(cell, sizeof cell, clb_profiles_match_how(&ps, &devs[i], &m), &m);
        wp = (int)strlen(cell) > wp ? (int)strlen(cell) : wp;
    }
    printf("%-2s %-4s %-9s %8s %s%-*s  %s%s\n", "#", "P:D", "type", "memory", wide ? "  CUs   MHz  " : "",
           wp, "profile", "device", wide ? "  (platform)" : "");
    for (int i = 0; i < n; i++) {
        const struct clb_devinfo *d = &devs[i];
        struct clb_match m;
        const struct clb_profile *p = clb_profiles_match_how(&ps, d, &m);
        char pd[24], mem[32], cell[64], cu[32] = "";
        snprintf(pd, sizeof pd, "%d:%d", d->pidx, d->didx);
        snprintf(mem, sizeof mem, "%.1f GB", (double)d->global_mem / 1e9);
        profile_cell(cell, sizeof cell, p, &m);
        if (wide)
            snprintf(cu, sizeof cu, "  %3u %5u  ", d->compute_units, d->clock_mhz);
        printf("%-2d %-4s %-9s %8s %s%-*s  %s", i, pd, d->type_name, mem, cu, wp, cell, d->name);
        if (wide)
            printf("  (%s)", d->platform_name);
        printf("%s\n", i == def ? "  (default)" : "");
        if (verbose)
            device_details(d, p, &m);
    }
    match_notes(devs, n, &ps);
    if (!wide && !verbose) {   /* the platforms, once (P of P:D) */
        struct clb_buf b = {0};
        for (int i = 0; i < n; i++) {
            int seen = 0;
            for (int j = 0; j < i; j++)
                seen |= devs[j].pidx == devs[i].pidx;
            if (!seen)
                clb_buf_printf(&b, "%s%d %s", b.len ? ", " : "", devs[i].pidx,
                               devs[i].platform_name);
        }
        clb_wrapf(stdout, 0, 2, "platforms: %s", clb_buf_str(&b));
        clb_buf_free(&b);
    }
    free(devs);
    clb_profiles_free(&ps);
    return 0;
}

int clb_cmd_profiles(int argc, char **argv)
{
    struct clb_profiles ps;
    const char *pdir;
    int rc = start(argc, argv, NULL, &ps, &pdir);
    if (rc)
        return rc < 0 ? 0 : rc;
    printf("%-16s %-28s %5s %7s %10s %9s %9s %9s\n", "profile", "device", "CUs", "MHz", "peak GB/s",
           "SP GFl/s", "DP GFl/s", "L2 KB");
    for (size_t i = 0; i < ps.n; i++) {
        const struct clb_profile *p = &ps.v[i];
        const double v[6] = {p->compute_units, p->core_clock_mhz, p->peak_bandwidth_gbs,
                             p->peak_gflops_sp, p->peak_gflops_dp, p->l2_kb};
        static const char *const fmt[6] = {"%.0f", "%.0f", "%.1f", "%.0f", "%.0f", "%.0f"};
        char f[6][32];
        for (int k = 0; k < 6; k++)
            if (isnan(v[k]))
                clb_strlcpy(f[k], "-", sizeof f[k]); /* not in the profile */
            else
                snprintf(f[k], sizeof f[k], fmt[k], v[k]);
        printf("%-16s %-28.28s %5s %7s %10s %9s %9s %9s\n", p->id, p->name, f[0], f[1], f[2], f[3],
               f[4], f[5]);
    }
    printf("(%zu profiles from %s)\n", ps.n, clb_profiles_dir(pdir));
    clb_profiles_free(&ps);
    return 0;
}

/* Each field of the help wraps at words to the width (--wide: one line
 * each, as scripts/gen_param_docs.py reads it). */
int clb_workload_help(const struct clb_workload *wl, FILE *out)
{
    clb_wrapf(out, 0, 2, "%s: %s", wl->name, wl->summary);
    fputc('\n', out);
    fprintf(out, "types:  ");
    clb_wrapf(out, 8, 8, "%s (default %s)", wl->dtypes ? wl->dtypes : "(none)",
              wl->default_dtypes ? wl->default_dtypes : "-");
    fprintf(out, "sizes:  ");
    clb_wrap(out, 8, 8, wl->size_help);
    fprintf(out, "        --quick: ");
    clb_wrap(out, 17, 8, wl->sizes.quick);
    if (wl->baselines)
        clb_wrapf(out, 0, 2, "baselines: %s (ratios of_* in each row's metrics)", wl->baselines);
    clb_wrapf(out, 0, 0, "parameters (--param KEY=VALUE; profile [tuning] %s.KEY overrides the "
                         "default), each a case (part of what a line of results is) or tuning "
                         "(how it is run: shown beside the line, never matched on; "
                         "docs/COMPARE.md, \"Line identity\"):", wl->name);
    if (!wl->params || !wl->params->key)
        fprintf(out, "  (none)\n");
    for (const struct clb_param_def *p = wl->params; p && p->key; p++) {
        fprintf(out, "  %-14s %-6s ", p->key, clb_param_role_name(p->role));
        clb_wrapf(out, 24, 24, "%s%s%s%s", p->help, p->def[0] ? " [default " : "", p->def,
                  p->def[0] ? "]" : "");
    }
    if (wl->row_keys && wl->row_keys->key)
        clb_wrap(out, 0, 2, "keys of its rows' params besides these (written by the run, not "
                            "--param):");
    for (const struct clb_param_def *p = wl->row_keys; p && p->key; p++) {
        fprintf(out, "  %-14s %-6s ", p->key, clb_param_role_name(p->role));
        clb_wrap(out, 24, 24, p->help);
    }
    for (const struct clb_model_def *m = wl->models; m && m->name; m++)
        clb_wrapf(out, 0, 8, "model:  clbench model %s%s%s  %s", m->name, m->variant ? " --" : "",
                  m->variant ? m->variant : "", m->summary);
    struct clb_buf fig = {0};
    clb_report_figure_text(wl, &fig);
    clb_wrapf(out, 0, 8, "figure: %s", clb_buf_str(&fig));   /* clbench report, compare --plot */
    clb_buf_free(&fig);
    return CLB_OK;
}
