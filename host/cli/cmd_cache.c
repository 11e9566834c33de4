/* `clbench cache info|clear`: the program-binary cache (host/cache). */
#include "cli.h"
#include "clb_cache.h"

#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: clbench cache info|clear\n"
          "  the program-binary cache: compiled kernels kept between runs, keyed by\n"
          "  platform, device, driver, source and build options, in $XDG_CACHE_HOME/clbench\n"
          "  (else ~/.cache/clbench). `clbench run --no-cache` builds without it.\n"
          "  info    the directory, its entries and their size\n"
          "  clear   remove every entry\n",
          f);
}

int clb_cmd_cache(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return CLB_EXIT_OK;
    }
    int clear = argc == 2 && strcmp(argv[1], "clear") == 0;
    if (argc != 2 || (!clear && strcmp(argv[1], "info") != 0)) {
        clb_print_error("cache: expected 'cache info' or 'cache clear' (see 'clbench cache "
                        "--help')");
        return CLB_EXIT_USAGE;
    }
    char *dir = clb_cache_path();
    if (!dir) {
        clb_print_error("cache: neither XDG_CACHE_HOME nor HOME is set: there is no cache");
        return CLB_EXIT_USAGE;
    }
    long n = 0;
    double bytes = 0;
    int rc = clear ? clb_cache_clear(dir, &n) : clb_cache_stat(dir, &n, &bytes);
    if (rc)
        clb_print_error("cache: %s", clb_lasterr());
    else if (clear)
        printf("%s: removed %ld file%s\n", dir, n, n == 1 ? "" : "s");
    else
        printf("%s: %ld entr%s, %.1f MiB\n", dir, n, n == 1 ? "y" : "ies", bytes / 1048576.0);
    free(dir);
    return clb_exit_status(rc);
}
