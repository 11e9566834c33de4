/* `clbench model MODEL [options]`: analytic predictions, no device needed.
 * This file reads the command line; the models, their registry and the
 * services they use are host/models' (clb_model_run). The roofline is the
 * core's and counts any workload through the workload's own count(); the
 * other models belong to workloads (struct clb_model_def). */
#include "cli.h"
#include "clb_model.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: clbench model MODEL [options]   (no device needed)\n"
            "options:\n"
            "  -p, --profile NAME    a profile of platforms/ (parameters from its [model] and\n"
            "                        [device] sections)\n"
            "  -s, --size SIZE       problem size (as the workload takes it)\n"
            "  -t, --type LIST       element type(s)\n"
            "  -w, --workload NAME   roofline: any workload\n"
            "  -k, --kernel NAME     roofline: the workload's kernel (as in the CSV)\n"
            "  --param KEY=VALUE     a model parameter, or for roofline a workload parameter\n"
            "                        (as in the CSV's params column); repeatable\n"
            "  --sim                 blockeq: the Gantt-chart simulation\n"
            "  --ceilings FILE       bandwidth, compute peaks, memory latency and clock measured\n"
            "                        on the device (its rows in a results file) instead of the\n"
            "                        profile's figures\n"
            "  --device NAME         the device of --ceilings or --results FILE (part of its\n"
            "                        name); default: the profile's device, else the only one\n"
            "  --results FILE[,FILE] scaling: the plain and 1-rank distributed rows of one\n"
            "                        device\n"
            "  --plot OUT.svg|.png   scaling: efficiency against the ranks, drawn by gnuplot\n"
            "  --platforms-dir DIR   where the profiles are\n"
            "models and their parameters (--param KEY=VALUE; else the profile's [model]\n"
            "<model>.KEY, a [device] figure in brackets, or the default):\n");
    clb_model_print_all(f);
    fprintf(f, "See docs/MODELS.md.\n");
}

static int parse(int argc, char **argv, struct clb_model_req *m)
{
    static const struct option opts[] = {
        {"profile", required_argument, 0, 'p'}, {"size", required_argument, 0, 's'},
        {"type", required_argument, 0, 't'},    {"workload", required_argument, 0, 'w'},
        {"kernel", required_argument, 0, 'k'},  {"param", required_argument, 0, 'P'},
        {"sim", no_argument, 0, 'S'},           {"platforms-dir", required_argument, 0, 'L'},
        {"ceilings", required_argument, 0, 'C'}, {"device", required_argument, 0, 'D'},
        {"results", required_argument, 0, 'R'}, {"plot", required_argument, 0, 'G'},
        {"help", no_argument, 0, 'h'},          {0, 0, 0, 0}};
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":p:s:t:w:k:h", opts, NULL)) != -1) {
        switch (c) {
        case 'p': m->profile = optarg; break;
        case 's': m->size = optarg; break;
        case 't': m->type = optarg; break;
        case 'w': m->workload = optarg; break;
        case 'k': m->kernel = optarg; break;
        case 'S': m->variant = "sim"; break;
        case 'L': m->platforms_dir = optarg; break;
        case 'C': m->ceilings = optarg; break;
        case 'D': m->device = optarg; break;
        case 'R': m->results = optarg; break;
        case 'G': m->plot = optarg; break;
        case 'h': usage(stdout); return -1;
        case 'P':
            if (clb_kvlist_add(&m->params, optarg))
                return clb_eusage("model: --param '%s' is not KEY=VALUE", optarg);
            break;
        case ':':
            return clb_eusage("model: option '%s' needs a value", argv[optind - 1]);
        default:
            return clb_eusage("model: unknown option '%s' (see clbench model --help)",
                              argv[optind - 1]);
        }
    }
    char *known = clb_model_names();
    int rc = CLB_OK;
    if (m->device && !m->ceilings && !m->results) {
        rc = clb_eusage("model: --device picks the device of --ceilings or --results FILE; give "
                        "one too");
    } else if (optind >= argc) {
        rc = clb_eusage("model: missing MODEL (known: %s)", known ? known : "");
    } else if (optind + 1 < argc) {
        rc = clb_eusage("model: unexpected argument '%s'", argv[optind + 1]);
    } else {
        m->model = argv[optind];
        const struct clb_model_def *def = clb_model_find(m->model, m->variant);
        if (!def && clb_model_find(m->model, NULL)) {
            char *with = clb_model_with_variant(m->variant);
            clb_seterr("model: --%s applies to %s only", m->variant,
                       with && *with ? with : "no model");
            free(with);
            rc = CLB_EUSAGE;
        } else if (!def) {
            rc = clb_eusage("model: unknown model '%s' (known: %s)", m->model, known ? known : "");
        }
    }
    free(known);
    return rc;
}

int clb_cmd_model(int argc, char **argv)
{
    struct clb_model_req req = {0};
    int rc = parse(argc, argv, &req);
    if (rc == 0)
        rc = clb_model_run(&req);
    if (rc > 0)
        clb_print_error("%s", clb_lasterr());
    clb_kvlist_free(&req.params);
    return rc < 0 ? CLB_EXIT_OK : clb_exit_status(rc);
}
