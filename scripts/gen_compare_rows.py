#!/usr/bin/env python3
"""Write a large synthetic clbench results file (schema v2) for
scripts/bench_compare.sh: N rows of made-up figures, deterministic (fixed
seed), no network.

    gen_compare_rows.py ROWS OUT.csv

The rows look like a year of CI runs: 16 devices on 2 hosts each, repeated
runs of stream-like configurations with a swept vector width, and a synthetic
workload with many distinct sizes, so that the table has about ROWS/40 lines
(1M rows: ~25k lines x 32 columns). About 1 % of the rows are failed or
skipped; some sizes are written as 2^k or with a K/M suffix (the same size as
the decimal form)."""
import csv
import os
import random
import re
import sys


def header():
    here = os.path.dirname(os.path.abspath(__file__))
    text = open(os.path.join(here, "..", "include", "clb_results.h")).read()
    block = text[text.index("#define CLB_COLUMNS(X)"):]
    block = block[: block.index("\n\n")]
    return re.findall(r"X\((\w+), *\w+\)", block)


def size_text(n, rnd):
    """The same count written three ways, as users and clbench do."""
    k = n.bit_length() - 1
    if n == 1 << k and rnd.random() < 0.2:
        return "2^%d" % k
    if n % (1 << 20) == 0 and rnd.random() < 0.2:
        return "%dM" % (n >> 20)
    return str(n)


def main():
    rows, out = int(sys.argv[1]), sys.argv[2]
    rnd = random.Random(12345)
    cols = header()
    devices = ["Bench GPU %02d" % i for i in range(16)]
    hosts = ["ci-a", "ci-b"]
    kernels = ["copy", "scale", "add", "triad"]
    # synthetic workload: enough distinct sizes for ~rows/40 lines in all
    nsyn = max(1, rows // 40 // 8)
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(cols)
        for i in range(rows):
            dev = rnd.randrange(len(devices))
            host = hosts[rnd.randrange(2)]
            r = dict.fromkeys(cols, "")
            r.update(run_id="run%06d" % (i // 200), timestamp="2026-11-%02dT%02d:%02d:%02dZ" % (
                1 + i % 28, i % 24, (i // 24) % 60, (i // 1440) % 60), host=host,
                platform="Bench Platform", device=devices[dev], device_type="gpu",
                driver="1.%d" % (dev % 3), profile="", warmup="3", reps="20",
                clbench_version="0.2.0")
            if rnd.random() < 0.5:
                k = kernels[rnd.randrange(4)]
                n = 1 << (20 + rnd.randrange(8))
                r.update(workload="stream", kernel=k, dtype=rnd.choice(["float", "double"]),
                         size=size_text(n, rnd),
                         params="vec=%d,ilp=1,local=256" % (1 << rnd.randrange(4)))
                base = 100.0 * (dev + 1)
            else:
                n = 4096 * (1 + rnd.randrange(nsyn))
                r.update(workload="synthetic", kernel="k%d" % rnd.randrange(8), dtype="float",
                         size="%dx%d" % (n, 4), params="tile=%d" % (8 << rnd.randrange(3)))
                base = 50.0 * (dev + 1)
            g = base * (0.8 + 0.2 * rnd.random())
            st = rnd.random()
            if st < 0.005:
                r.update(status="failed", detail="1 of %d elements wrong (first at 7)" % n)
            elif st < 0.01:
                r.update(status="skipped", detail="buffer above the allocation limit")
            else:
                t = 1e-3 * (1 + rnd.random())
                r.update(status="ok", bytes=str(8 * n), flops="0", t_min_s="%.9g" % t,
                         t_median_s="%.9g" % (t * 1.01), t_mean_s="%.9g" % (t * 1.02),
                         t_max_s="%.9g" % (t * 1.05), t_stddev_s="%.9g" % (t * 0.01),
                         gbps="%.6g" % g, gbps_best="%.6g" % (g * 1.01),
                         pct_peak_bw="%.4g" % (g / (base * 1.1) * 100),
                         detail="cache_resident (1 MB < 4 x 50 MB cache)"
                         if n < (1 << 21) and r["workload"] == "stream" else "")
            w.writerow([r[c] for c in cols])


if __name__ == "__main__":
    main()
