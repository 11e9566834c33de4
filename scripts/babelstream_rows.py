#!/usr/bin/env python3
"""The rows of scripts/babelstream_side_by_side.sh: BabelStream's --csv output
and clbench's stream rows as one CSV, one row per tool, model, kernel and type
per round, and the summary of the best of the rounds.

  babelstream_rows.py header OUT
  babelstream_rows.py device CLBENCH_CSV            the device's name
  babelstream_rows.py index NAME < `ocl-stream --list`   BabelStream's index of NAME
  babelstream_rows.py babelstream OUT ROUND SEQ MODEL VARIANT DEVICE DTYPE LOAD EXIT FILE
  babelstream_rows.py clbench OUT ROUND SEQ VARIANT LOAD CLBENCH_CSV
  babelstream_rows.py failed OUT ROUND SEQ MODEL VARIANT DEVICE DTYPE SIZE REPS LOAD NOTE
  babelstream_rows.py summary OUT
"""
import csv
import os
import re
import sys

COLUMNS = ["round", "seq", "tool", "model", "variant", "device", "kernel", "dtype", "elements",
           "reps", "gbps_best", "t_min_s", "load1", "threads", "status", "params", "note"]
# BabelStream's names -> clbench's (mul is scale: b = s*c)
KERNELS = {"Copy": "copy", "Mul": "scale", "Add": "add", "Triad": "triad", "Dot": "dot"}
ORDER = ["copy", "scale", "add", "triad"]


def threads():
    return os.environ.get("OMP_NUM_THREADS", "")


def append(out, rows):
    with open(out, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        for r in rows:
            w.writerow({k: r.get(k, "") for k in COLUMNS})


def header(out):
    with open(out, "w", newline="") as f:
        csv.writer(f).writerow(COLUMNS)


def device(path):
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r.get("device"):
                print(r["device"])
                return 0
    return 1


def index(name):
    for line in sys.stdin:
        m = re.match(r"\s*(\d+):\s*(.*?)\s*$", line)
        if m and m.group(2) == name:
            print(m.group(1))
            return 0
    return 1


def babelstream(out, rnd, seq, model, variant, dev, dtype, load, rc, path):
    """BabelStream --csv: function,num_times,n_elements,sizeof,max_MB_per_sec,
    min_runtime,max_runtime,avg_runtime (MB = 1e6 bytes; the first run of
    num_times is not counted). A validation failure is printed, not exited."""
    text = open(path, errors="replace").read()
    lines = text.splitlines()
    bad = [l for l in lines if re.search(r"Validation failed|terminate called|what\(\)|error", l, re.I)]
    start = next((i for i, l in enumerate(lines) if l.startswith("function,")), None)
    rows = []
    if start is not None:
        for r in csv.DictReader(lines[start:]):
            k = KERNELS.get(r.get("function", ""))
            if not k or not r.get("max_MB_per_sec"):
                continue
            try:
                gbps = float(r["max_MB_per_sec"]) / 1000.0
                reps = int(r["num_times"]) - 1
            except ValueError:
                continue
            rows.append({"kernel": k, "elements": r["n_elements"], "reps": reps,
                         "gbps_best": f"{gbps:.4f}", "t_min_s": r["min_runtime"]})
    status = "ok" if rc == "0" and not bad and rows else "failed"
    note = "; ".join(bad)[:300] if bad else ("" if rc == "0" else f"exit {rc}: " + " ".join(lines[-2:])[:300])
    if not rows:
        rows = [{"kernel": "", "elements": "", "reps": "", "gbps_best": "nan"}]
    for r in rows:
        r.update({"round": rnd, "seq": seq, "tool": "babelstream", "model": model,
                  "variant": variant, "device": dev, "dtype": dtype, "load1": load, "threads": threads(),
                  "status": status, "note": note})
    append(out, rows)
    return 0 if status == "ok" else 1


def clbench(out, rnd, seq, variant, load, path):
    rows = []
    if os.path.exists(path):
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r.get("workload") != "stream":
                    continue
                rows.append({"round": rnd, "seq": seq, "tool": "clbench", "model": "opencl",
                             "variant": variant, "device": r["device"], "kernel": r["kernel"], "dtype": r["dtype"],
                             "elements": r["size"], "reps": r["reps"],
                             "gbps_best": r["gbps_best"] or "nan", "t_min_s": r["t_min_s"],
                             "load1": load, "threads": threads(), "status": r["status"],
                             "params": r["params"], "note": r["detail"][:300]})
    append(out, rows)
    return 0 if rows else 1


def failed(out, rnd, seq, model, variant, dev, dtype, size, reps, load, note):
    append(out, [{"round": rnd, "seq": seq, "tool": "babelstream", "model": model,
                  "variant": variant, "device": dev, "dtype": dtype, "elements": size, "reps": reps,
                  "gbps_best": "nan", "load1": load, "threads": threads(),
                  "status": "failed", "note": note}])
    return 0


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return float("nan")


def summary(out):
    """Per kernel and type: each implementation's (tool, model, variant)
    rounds and best; the ratio of each clbench variant's best to the best of
    BabelStream's (any model and variant)."""
    with open(out, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "ok"]
    names = {("clbench", "opencl"): "clbench", ("babelstream", "ocl"): "BabelStream OpenCL",
             ("babelstream", "omp"): "BabelStream OpenMP"}
    impls = []
    for r in rows:
        key = (r["tool"], r["model"], r["variant"])
        if key not in impls:
            impls.append(key)
    impls.sort(key=lambda k: (k[0] != "babelstream", k))
    devs = sorted({r["device"] for r in rows if r["tool"] == "clbench"})
    print("best GB/s of each round, " + (", ".join(devs) or "no clbench rows"))
    for dtype in ["float", "double"]:
        for k in ORDER:
            lines, bs, cb = [], float("nan"), []
            for impl in impls:
                v = [num(r["gbps_best"]) for r in rows if (r["tool"], r["model"], r["variant"]) == impl
                     and r["kernel"] == k and r["dtype"] == dtype]
                v = [x for x in v if x == x]
                if not v:
                    continue
                name = names.get(impl[:2], impl[1]) + ("" if impl[2] == "default" else " " + impl[2])
                lines.append(f"  {name:34} {' / '.join(f'{x:.1f}' for x in v):32} best {max(v):8.1f}")
                if impl[0] == "babelstream":
                    bs = max(bs, max(v)) if bs == bs else max(v)
                else:
                    cb.append((impl[2], max(v)))
            if not lines:
                continue
            ratios = ", ".join(f"{v}: {b / bs:.3f}" for v, b in cb) if bs == bs and bs > 0 else "-"
            print(f"{k} {dtype}   clbench / best BabelStream: {ratios}")
            print("\n".join(lines))
    return 0


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, a = argv[1], argv[2:]
    table = {"header": (header, 1), "device": (device, 1), "index": (index, 1),
             "babelstream": (babelstream, 10), "clbench": (clbench, 6), "failed": (failed, 11),
             "summary": (summary, 1)}
    if cmd not in table or len(a) != table[cmd][1]:
        print(__doc__, file=sys.stderr)
        return 2
    return table[cmd][0](*a) or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
