/* `clbench run`: the options, checked before any device is touched; the
 * driver (host/core/driver.c) does the rest. */
#include "cli.h"
#include "clb_report.h"
#include "clb_text.h"

#include <errno.h>
#include <getopt.h>
#include <unistd.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct option longopts[] = {
    {"device", required_argument, 0, 'd'},   {"profile", required_argument, 0, 'p'},
    {"type", required_argument, 0, 't'},     {"size", required_argument, 0, 's'},
    {"reps", required_argument, 0, 'n'},     {"warmup", required_argument, 0, 'W'},
    {"param", required_argument, 0, 'P'},    {"quick", no_argument, 0, 'Q'},
    {"output", required_argument, 0, 'o'},   {"quiet", no_argument, 0, 'q'},
    {"verbose", no_argument, 0, 'v'},        {"kernel-dir", required_argument, 0, 'K'},
    {"platforms-dir", required_argument, 0, 'L'}, {"help", no_argument, 0, 'h'},
    {"min-time", required_argument, 0, 1001},  {"max-time", required_argument, 0, 1002},
    {"min-reps", required_argument, 0, 1003},  {"tolerance", required_argument, 0, 1004},
    {"format", required_argument, 0, 1005},    {"peak-bw", required_argument, 0, 1006},
    {"peak-gflops", required_argument, 0, 1007}, {"peak-gflops-dp", required_argument, 0, 1008},
    {"energy", required_argument, 0, 1009},    {"energy-window", required_argument, 0, 1010},
    {"ceilings", required_argument, 0, 1011},  {"case-timeout", required_argument, 0, 1012},
    {"report", required_argument, 0, 1013},    {"cache", required_argument, 0, 1014},
    {"no-cache", no_argument, 0, 1015},        {"dry-run", no_argument, 0, 1017},
    {"devices-per-rank", required_argument, 0, 1018}, {"budget", required_argument, 0, 1016},
    {0, 0, 0, 0}};

/* The help text of `clbench run`; the man page (host/cli/clbench.1) carries the
 * same options and a test checks that every option here is documented there. */
static const char clb_run_help[] =
    "usage: clbench run WORKLOAD[,WORKLOAD...]|all [options]\n"
    "  -d, --device SPEC     flat index, P:D, part of a device name, cpu|gpu|accelerator,\n"
    "                        a comma list of these, or all (every device but emulators)\n"
    "      --devices-per-rank N|all  one process (MPI rank) drives N of the devices -d names\n"
    "                        (all: the node's, shared among its processes), each a rank of\n"
    "                        the job on its own thread (default 1; docs/SCALING.md)\n"
    "  -p, --profile NAME    force a profile (default: matched by device name)\n"
    "      --peak-bw GBS     peak bandwidth for %peak and the models (a device without a profile)\n"
    "      --peak-gflops G   peak single-precision GFlop/s;  --peak-gflops-dp G  double\n"
    "      --ceilings FILE   bandwidth and compute peaks measured on this device (its rows\n"
    "                        in FILE) for %peak and the models; --peak-* still win\n"
    "  -t, --type LIST       element types, e.g. float,double\n"
    "  -s, --size LIST       problem sizes: counts (1048576, 16M, 2^24, 1e6), extents NxM,\n"
    "                        bytes for 1-D sizes (1GB, 64MiB); see docs/MEASURING.md\n"
    "  -n, --reps N          the most timed repetitions (default 20)\n"
    "      --min-reps N      the fewest (default 3)\n"
    "      --min-time S      seconds of timed runs before the median may be called stable (0.1)\n"
    "      --max-time S      seconds of timed runs after which a configuration stops (1)\n"
    "      --tolerance PCT   stop once the median's standard error is below PCT % (1; 0: off)\n"
    "      --warmup N        untimed repetitions first (default 3, fewer when slow)\n"
    "      --case-timeout S  the most seconds a kernel build, a set-up or a case may take; past\n"
    "                        it the run names it, writes an error row and exits 6 (default 300,\n"
    "                        or 3 x --max-time when longer; 0: no limit)\n"
    "      --budget S        default sizes within S seconds: where the run's estimate is\n"
    "                        above, the rule's largest sizes step down first, said in a note\n"
    "      --param K=V       workload parameter, repeatable (V: value, list or range a..b);\n"
    "                        W.K=V: for workload W alone (run stream,cg --param cg.kernels=cache)\n"
    "      --quick           small sizes, for smoke tests and CI\n"
    "  -o, --output FILE     results file, appended (default results/local/<device>.csv);\n"
    "                        -: the rows to standard output (--format), the summary to stderr\n"
    "      --dry-run         per device the groups, cases, sizes and footprints, and the most\n"
    "                        time the timed runs may take; nothing runs, no file is written\n"
    "      --report FILE     then the page of this run's rows (clbench report; docs/REPORT.md)\n"
    "      --format csv|json CSV, or JSON Lines (one object per row; default by -o's name:\n"
    "                        .json/.jsonl)\n"
    "      --energy auto|on|off  device energy over the timed runs (NVML on NVIDIA GPUs, RAPL\n"
    "                        on CPUs). auto: where a source exists, on configurations whose\n"
    "                        timed runs span the source's window anyway; on: every\n"
    "                        configuration, its timed runs stretched to the window\n"
    "      --energy-window S the shortest window an energy reading is kept over, and with\n"
    "                        it set, timed runs stretch to it (default: 1 s NVML, 0.1 s RAPL)\n"
    "  -q, --quiet / -v, --verbose\n"
    "      --kernel-dir DIR  load kernels from DIR instead of the embedded copies\n"
    "      --cache auto|on|off  the program-binary cache ($XDG_CACHE_HOME/clbench): auto:\n"
    "                        where the driver does not cache builds itself (not PoCL)\n"
    "      --no-cache        build every program from source (--cache off)\n"
    "      --platforms-dir DIR  profiles directory\n";

static void run_usage(FILE *f)
{
    fputs(clb_run_help, f);
    char *names = clb_workload_names();
    clb_wrapf(f, 0, 11, "workloads: %s", names ? names : "");
    free(names);
}

static int parse_seconds(const char *opt, const char *v, double lo, double hi, double *out)
{
    char *end;
    double x = strtod(v, &end);
    if (!*v || *end || !(x >= lo && x <= hi))
        return clb_cli_eusage("bad %s '%s' (accepted: a number %g..%g)", opt, v, lo, hi);
    *out = x;
    return CLB_OK;
}

static int parse_count(const char *opt, const char *v, int min, int *out)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (!*v || *end || x < min || x > 1000000)
        return clb_cli_eusage("bad %s '%s' (accepted: an integer %d..1000000)", opt, v, min);
    *out = (int)x;
    return CLB_OK;
}

/* auto|on|off: --energy and --cache (their enums count in this order). */
_Static_assert(CLB_ENERGY_ON == 1 && CLB_ENERGY_OFF == 2 && CLB_CACHE_ON == 1 && CLB_CACHE_OFF == 2,
               "auto, on, off");
static int parse_mode(const char *opt, const char *v, int *out)
{
    static const char *const modes[] = {"auto", "on", "off"};
    for (int i = 0; i < 3; i++)
        if (strcmp(v, modes[i]) == 0) {
            *out = i;
            return CLB_OK;
        }
    return clb_cli_eusage("bad %s '%s' (accepted: auto, on, off)", opt, v);
}

static int add_workload(struct clb_run_opts *o, const struct clb_workload *wl)
{
    for (int i = 0; i < o->nwl; i++)
        if (o->wls[i] == wl)
            return CLB_OK;
    void *nv = realloc(o->wls, (size_t)(o->nwl + 1) * sizeof *o->wls);
    if (!nv)
        return CLB_ESYS;
    o->wls = nv;
    o->wls[o->nwl++] = wl;
    return CLB_OK;
}

static int select_workloads(struct clb_run_opts *o, const char *list)
{
    if (strcmp(list, "all") == 0) {
        for (const struct clb_workload *const *w = clb_workload_list(); *w; w++)
            if (add_workload(o, *w))
                return CLB_ESYS;
        return CLB_OK;
    }
    int n;
    char **names = clb_split(list, &n);
    if (!names)
        return CLB_ESYS;
    int rc = n ? CLB_OK : clb_cli_eusage("run: empty workload list");
    for (int i = 0; i < n && rc == CLB_OK; i++) {
        const struct clb_workload *wl = clb_workload_find(names[i]);
        if (!wl) {
            char *known = clb_workload_names();
            clb_print_error("unknown workload '%s' (known: %s, all)", names[i], known ? known : "");
            free(known);
            rc = CLB_EUSAGE;
        } else {
            rc = add_workload(o, wl);
        }
    }
    free(names);
    return rc;
}

static int parse_args(struct clb_run_opts *o, int argc, char **argv)
{
    o->reps = 20;
    o->warmup = 3;
    o->min_reps = 3;
    o->min_time = 0.1;
    o->max_time = 1.0;
    o->tolerance = 0.01;
    o->peak_bw = o->peak_sp = o->peak_dp = NAN;
    o->energy_window = NAN; /* the source's shortest trusted window */
    o->case_timeout = NAN;  /* clb_case_timeout's default */
    double pct;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":d:p:t:s:n:o:qvh", longopts, NULL)) != -1) {
        switch (c) {
        case 'd': o->device = optarg; break;
        case 'p': o->profile = optarg; break;
        case 't': o->types = optarg; break;
        case 's': o->sizes = optarg; break;
        case 'o': o->output = optarg; break;
        case 'K': o->kernel_dir = optarg; break;
        case 'L': o->platforms_dir = optarg; break;
        case 'Q': o->quick = 1; break;
        case 'q': clb_verbosity = 0; break;
        case 'v': clb_verbosity = 2; break;
        case 'n': if (parse_count("--reps", optarg, 1, &o->reps)) return CLB_EUSAGE; break;
        case 'W': if (parse_count("--warmup", optarg, 0, &o->warmup)) return CLB_EUSAGE; break;
        case 1001: if (parse_seconds("--min-time", optarg, 0, 86400, &o->min_time)) return CLB_EUSAGE; break;
        case 1002: if (parse_seconds("--max-time", optarg, 0, 86400, &o->max_time)) return CLB_EUSAGE; break;
        case 1003: if (parse_count("--min-reps", optarg, 1, &o->min_reps)) return CLB_EUSAGE; break;
        case 1004:
            if (parse_seconds("--tolerance", optarg, 0, 100, &pct))
                return CLB_EUSAGE;
            o->tolerance = pct / 100.0;
            break;
        case 1005:
            if (strcmp(optarg, "csv") && strcmp(optarg, "json"))
                return clb_cli_eusage("bad --format '%s' (accepted: csv, json)", optarg);
            o->format = strcmp(optarg, "json") ? CLB_FORMAT_CSV : CLB_FORMAT_JSON;
            o->format_set = 1;
            break;
        case 1006: if (parse_seconds("--peak-bw", optarg, 1e-6, 1e9, &o->peak_bw)) return CLB_EUSAGE; break;
        case 1007: if (parse_seconds("--peak-gflops", optarg, 1e-6, 1e12, &o->peak_sp)) return CLB_EUSAGE; break;
        case 1008: if (parse_seconds("--peak-gflops-dp", optarg, 1e-6, 1e12, &o->peak_dp)) return CLB_EUSAGE; break;
        case 1009: if (parse_mode("--energy", optarg, &o->energy)) return CLB_EUSAGE; break;
        case 1010: if (parse_seconds("--energy-window", optarg, 0, 3600, &o->energy_window)) return CLB_EUSAGE; break;
        case 1011: o->ceilings = optarg; break;
        case 1012: if (parse_seconds("--case-timeout", optarg, 0, 1e6, &o->case_timeout)) return CLB_EUSAGE; break;
        case 1013: o->report = optarg; break;
        case 1014: if (parse_mode("--cache", optarg, &o->cache)) return CLB_EUSAGE; break;
        case 1015: o->cache = CLB_CACHE_OFF; break;
        case 1017: o->dry_run = 1; break;
        case 1018: /* -1: all of the node's */
            if (strcmp(optarg, "all") &&
                parse_count("--devices-per-rank", optarg, 1, &o->devices_per_rank))
                return CLB_EUSAGE;
            if (!strcmp(optarg, "all"))
                o->devices_per_rank = -1;
            break;
        case 1016: if (parse_seconds("--budget", optarg, 1, 1e6, &o->budget)) return CLB_EUSAGE; break;
        case 'P':
            if (clb_kvlist_add(&o->params, optarg))
                return clb_cli_eusage("%s", clb_lasterr());
            break;
        case 'h': run_usage(stdout); return -1;
        case ':': clb_print_error("option '%s' needs a value", argv[optind - 1]); return CLB_EUSAGE;
        default:
            return clb_cli_eusage("unknown option '%s' (see 'clbench run --help')",
                                  argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return clb_cli_eusage("run: which workload? (known: all, or see 'clbench --help')");
    if (o->min_reps > o->reps)
        o->min_reps = o->reps; /* -n 1 means one run */
    if (optind + 1 < argc)
        return clb_cli_eusage("run: unexpected argument '%s' (give workloads as one comma list)",
                              argv[optind + 1]);
    return select_workloads(o, argv[optind]);
}

/* Does workload w declare key? "W.key" (for workload W alone) counts for W only. */
static int declares(const struct clb_workload *w, const char *key)
{
    size_t nl = strlen(w->name);
    if (strncmp(key, w->name, nl) == 0 && key[nl] == '.')
        key += nl + 1;
    else if (strchr(key, '.'))
        return 0;
    for (const struct clb_param_def *p = w->params; p && p->key; p++)
        if (strcmp(p->key, key) == 0)
            return 1;
    return 0;
}

/* Every --param key must belong to a selected workload. */
static int check_params(const struct clb_run_opts *o)
{
    for (size_t i = 0; i < o->params.n; i++) {
        const char *key = o->params.v[i].key;
        int found = 0;
        struct clb_buf known = {0};
        for (int w = 0; w < o->nwl; w++) {
            found |= declares(o->wls[w], key);
            for (const struct clb_param_def *p = o->wls[w]->params; p && p->key; p++)
                if (!clb_list_has(clb_buf_str(&known), p->key))
                    clb_buf_printf(&known, "%s%s", known.len ? "," : "", p->key);
        }
        if (!found)
            clb_print_error("unknown parameter '%s' for %s (known: %s%s)", key,
                            o->nwl == 1 ? o->wls[0]->name : "the selected workloads",
                            known.len ? clb_buf_str(&known) : "none",
                            o->nwl > 1 ? "; WORKLOAD.KEY for one of them" : "");
        clb_buf_free(&known);
        if (!found)
            return CLB_EUSAGE;
    }
    return CLB_OK;
}

/* The items of a -t or -s list (none when the option is not given); an
 * empty list is refused. *items is the caller's to free, whatever the result. */
static int split_option(const char *list, const char *what, char ***items, int *n)
{
    *items = NULL;
    *n = 0;
    if (!list)
        return CLB_OK;
    if (!(*items = clb_split(list, n)))
        return CLB_ESYS;
    if (!*n)
        return clb_cli_eusage("empty %s list", what);
    return CLB_OK;
}

/* Every -t type must be accepted by one of the selected workloads. */
static int check_types(const struct clb_run_opts *o)
{
    char **types;
    int n, rc = split_option(o->types, "type", &types, &n);
    for (int i = 0; i < n && rc == CLB_OK; i++) {
        int ok = 0, typed = 0;
        for (int w = 0; w < o->nwl; w++) {
            typed |= o->wls[w]->dtypes != NULL;
            ok |= o->wls[w]->dtypes && clb_list_has(o->wls[w]->dtypes, types[i]);
        }
        if (ok)
            continue;
        if (!typed)
            rc = clb_cli_eusage("-t %s: %s takes no types (it has no element type)", types[i],
                                o->nwl == 1 ? o->wls[0]->name : "none of the selected workloads");
        else if (o->nwl == 1)
            rc = clb_cli_eusage("unknown type '%s' for %s (accepted: %s)", types[i],
                                o->wls[0]->name, o->wls[0]->dtypes);
        else
            rc = clb_cli_eusage("unknown type '%s' (no selected workload accepts it)", types[i]);
    }
    free(types);
    return rc;
}

/* Every -s size must parse for each selected workload. */
static int check_sizes(const struct clb_run_opts *o)
{
    char **sizes;
    int n, rc = split_option(o->sizes, "size", &sizes, &n);
    for (int i = 0; i < n && !rc; i++)
        for (int w = 0; w < o->nwl && !rc; w++) {
            const struct clb_workload *wl = o->wls[w];
            struct clb_size sz;
            char err[512];
            /* byte units divide by the element size: check with the smallest
             * type the run uses (the driver checks each type again) */
            size_t unit = wl->size_in_bytes ? 1 : wl->dtypes ? 1 : 0;
            if (clb_parse_size(sizes[i], wl->size_dims, unit, &sz, err, sizeof err)) {
                rc = clb_cli_eusage("%s: %s", wl->name, err);
            } else if (wl->check_size && wl->check_size(&sz)) {
                rc = clb_cli_eusage("%s: %s", wl->name, clb_lasterr());
            }
        }
    free(sizes);
    return rc;
}

/* --report FILE: its directory must take the page, checked before the run. */
static int check_report(const struct clb_run_opts *o)
{
    if (!o->report)
        return CLB_OK;
    if (o->output && !strcmp(o->output, "-"))
        return clb_cli_eusage("--report reads the run's results file back: give -o FILE, not -o - "
                              "(or: clbench run ... -o - | tee rows.csv, then clbench report "
                              "rows.csv)");
    const char *slash = strrchr(o->report, '/');
    char *dir = slash ? clb_asprintf("%.*s", slash == o->report ? 1 : (int)(slash - o->report),
                                     o->report)
                      : clb_strdup(".");
    int rc = CLB_OK;
    if (!dir)
        return CLB_ESYS;
    struct cmp_esc_args a = {0};
    if (!*o->report || (slash && !slash[1]) || access(dir, W_OK) != 0)
        rc = clb_cli_eusage("--report '%s': cannot write to directory '%s': %s",
                            cmp_esc_arg(&a, o->report, 0), cmp_esc_arg(&a, dir, 0),
                            *o->report && !(slash && !slash[1]) ? strerror(errno)
                                                                : "not a file name");
    free(dir);
    /* never over the rows: the results file (-o), the ceilings read, any results file */
    const char *same = !rc && o->output && clb_same_path(o->report, o->output) ? "-o"
                       : !rc && o->ceilings && clb_same_path(o->report, o->ceilings) ? "--ceilings"
                                                                                     : NULL;
    if (same) {
        rc = clb_cli_eusage("--report '%s' is the results file of %s '%s': the page would replace "
                            "its rows; nothing was run (choose another name)",
                            cmp_esc_arg(&a, o->report, 0), same,
                            cmp_esc_arg(&a, same[1] == 'o' ? o->output : o->ceilings, 0));
    } else if (!rc && clb_output_ok(o->report, "--report", "the page")) {
        rc = clb_cli_eusage("%s", clb_lasterr());
    }
    cmp_esc_args_free(&a);
    return rc;
}

/* The page of the run's rows: its results files, its run ids. */
static int run_report(const struct clb_run_opts *o, int status)
{
    if (!o->report || !o->nouts || status > CLB_EXIT_NOTHING)   /* none, results lost (5), or a signal */
        return status;
    struct clb_report_opts ro = {CLB_NORM_ABSOLUTE, 1, clb_buf_str(&o->run_ids), NULL, NULL};
    /* the results files are known now (the default one is named by the device) */
    int rc = clb_output_ok(o->report, "--report", "the page");
    if (!rc)
        rc = clb_report_write(o->outs, o->nouts, &ro, o->report);
    struct clb_buf e = {0};
    if (rc)
        clb_print_error("%s", clb_lasterr());
    else
        printf("report: %s\n", cmp_esc_tmp(&e, o->report, 0));
    clb_buf_free(&e);
    return rc && !status ? clb_exit_status(rc) : status;
}

int clb_cmd_run(int argc, char **argv)
{
    struct clb_run_opts o = {0};
    int rc = parse_args(&o, argc, argv);
    if (rc == CLB_OK)
        rc = check_params(&o);
    if (rc == CLB_OK)
        rc = check_types(&o);
    if (rc == CLB_OK)
        rc = check_sizes(&o);
    if (rc == CLB_OK)
        rc = check_report(&o);
    int status = rc == -1 ? CLB_EXIT_OK : rc != CLB_OK ? clb_exit_status(rc) : clb_driver_run(&o);
    if (rc == CLB_ESYS)
        clb_print_error("%s", clb_lasterr());
    if (rc == CLB_OK)
        status = run_report(&o, status);
    clb_kvlist_free(&o.params);
    for (int k = 0; k < o.nouts; k++)
        free(o.outs[k]);
    free(o.outs);
    clb_buf_free(&o.run_ids);
    free(o.wls);
    return status;
}
