#!/usr/bin/env python3
"""Checks over clbench's result files, for the CLI tests (tests/cli/*.sh).

    python3 rows.py CHECK ARGS...      (lib.sh: rows CHECK ARGS...)

exits 0 when the check holds; otherwise 1, with the failed assertion (and
the rows it saw) on stderr. One place reads a results file (CSV, or JSON
Lines by its extension .jsonl), splits `metrics` (key=value;...) and holds
the checks the scripts share; a check only one script makes is a function
named after it (transpose_odd: test_transpose.sh's odd shapes).
"""
import csv
import json
import sys
import traceback


# ---- reading ----------------------------------------------------------------

def read(path):
    """Every row of a results file, as a dict of column -> text (CSV) or value (JSON Lines)."""
    if path.endswith(".jsonl"):
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]
    with open(path) as f:
        return list(csv.DictReader(f))


def metrics(row):
    """A row's `metrics` column (key=value;key=value) as a dict of text."""
    text = row["metrics"]
    return dict(kv.split("=", 1) for kv in text.split(";")) if text else {}


def by(rows, *cols):
    """The rows keyed by the tuple of COLS (by one column: its value)."""
    if len(cols) == 1:
        return {r[cols[0]]: r for r in rows}
    return {tuple(r[c] for c in cols): r for r in rows}


def ok_unless(rows, skip_reason):
    """Every row is ok, but those for which skip_reason(row) names a reason:
    those are skipped, with the reason in detail."""
    for r in rows:
        reason = skip_reason(r)
        if reason is not None:
            assert r["status"] == "skipped" and reason in r["detail"], r
        else:
            assert r["status"] == "ok", r


# ---- checks any script makes -------------------------------------------------

def ok_rows(f, wl, k, t):
    """At least one row of workload WL, kernel K, type T, and every one ok."""
    rows = [r for r in read(f) if r["workload"] == wl and r["kernel"] == k and r["dtype"] == t]
    assert rows and all(r["status"] == "ok" for r in rows), rows


def reduced(f, params, detail):
    """Every row ok; the rows whose params contain PARAMS (one at least) say DETAIL."""
    rows = read(f)
    hit = [r for r in rows if params in r["params"]]
    bad = [r for r in rows if r["status"] != "ok"] + [r for r in hit if detail not in r["detail"]]
    assert rows and hit and not bad, (hit, bad)


def replace(path, old, new):
    """Edit a copied source file: every OLD becomes NEW; OLD must occur."""
    with open(path) as f:
        s = f.read()
    assert old in s, old
    with open(path, "w") as f:
        f.write(s.replace(old, new))


def replace_after(path, anchor, old, new):
    """Edit a copied source file: the first OLD after ANCHOR becomes NEW; both must occur."""
    with open(path) as f:
        s = f.read()
    j = s.index(old, s.index(anchor))
    with open(path, "w") as f:
        f.write(s[:j] + new + s[j + len(old):])


# ---- test_transpose.sh ---------------------------------------------------------

def transpose_quick(f):
    rows = read(f)
    assert all("of_copy=" in r["detail"] for r in rows if r["kernel"] != "copy"), rows
    assert all("best probe GB/s" in r["detail"] and r["params"].startswith("best=")
               for r in rows if r["kernel"] == "best")
    assert all(r["bytes"] == str(2 * 256 * 256 * (4 if r["dtype"] == "float" else 8)) or
               float(r["bytes"]) == 2 * 256 * 256 * (4 if r["dtype"] == "float" else 8) for r in rows)


def transpose_odd(f):
    rows = read(f)
    assert len(rows) == 4 * 2 * 11, len(rows)
    ok_unless(rows, lambda r: "serial_max" if r["kernel"] == "serial" and r["size"] == "1000x3000" else None)


def transpose_per_row(f):
    grid = {r["size"]: r["global_size"] for r in read(f) if r["kernel"] == "per_row"}
    assert grid == {"1000x3000": "3008", "4097x33": "64", "1x1": "64", "5x70": "128"}, grid


def transpose_variants(f):
    rows = read(f)
    st = by(rows, "size", "kernel", "params")
    assert st[("1000x3000", "serial", "")]["status"] == "ok"
    assert st[("1000x3000", "best", "best=16x4v4")]["status"] == "ok"
    assert st[("1000x3000", "best", "best=32x8v1")]["status"] == "ok"
    assert st[("1000x3000", "best", "best=r4g8x32")]["status"] == "ok"
    for v in ("best=16x4v4", "best=r4g8x32"):
        r = st[("4097x33", "best", v)]
        assert r["status"] == "skipped" and "multiples of 4" in r["detail"], r
    assert len(rows) == 10, len(rows)


def transpose_pipe(f):
    rows = read(f)
    assert len(rows) == 4 * 2 * 4, len(rows)
    ok_unless(rows, lambda r: "multiples of" if r["size"] == "4097x33" and r["params"] != "best=16x4v1k3"
              else None)
    lo = {r["params"]: r["local_size"] for r in rows}
    assert lo["best=64x8v4k2"] == "16x8" and lo["best=32x4v2k4"] == "16x4", lo


def transpose_rect(f):
    rows = read(f)
    assert len(rows) == 4 * 2 * 5, len(rows)
    ok_unless(rows, lambda r: "multiples of" if r["size"] == "4097x33" and r["params"] != "best=rect64x8v1w64"
              else None)
    lo = {r["params"]: r["local_size"] for r in rows}
    assert lo["best=rect128x32v4w256"] == "256x1" and lo["best=rect64x8v1w64"] == "64x1", lo


def transpose_new(f):
    rows = read(f)
    assert len(rows) == 4 * 2 * 11, len(rows)
    scalar = {"best=16x4v1d3", "best=16x4v1p3oD", "best=16x8v1loR", "best=16x4v1k3oC", "best=16x4v1oS2"}

    def reason(r):
        if r["size"] in ("4097x33", "5x70") and r["params"] not in scalar:
            return "multiples of"
        return "not NVIDIA" if r["params"] == "best=64x8v4nt" else None
    ok_unless(rows, reason)
    sh = {(r["size"], r["params"]): (r["local_size"], r["global_size"]) for r in rows if r["dtype"] == "float"}
    # 1-D grids of work-groups: 16 x 16 tiles of 16 (oS2), 8 bands of 4 x 8 tile
    # columns (d4), 4 groups per compute unit (persistent: PoCL's units times 4 x 16)
    assert sh[("256x256", "best=16x4v1oS2")] == ("16x4", "4096x4"), sh
    assert sh[("256x256", "best=32x8v4d4oC")] == ("8x8", "128x8"), sh
    assert sh[("256x256", "best=64x8v4nt")] == ("16x8", "64x32"), sh  # no order: the 2-D grid


# ---- the command line ------------------------------------------------------------

CHECKS = {name.replace("_", "-"): fn for name, fn in dict(globals()).items()
          if callable(fn) and fn.__module__ == __name__ and not name.startswith("_")
          and name not in ("read", "metrics", "by", "ok_unless", "main")}


def main(argv):
    if len(argv) < 2 or argv[1] not in CHECKS:
        sys.exit("usage: rows.py CHECK ARGS...; checks: " + " ".join(sorted(CHECKS)))
    try:
        CHECKS[argv[1]](*argv[2:])
    except AssertionError:
        traceback.print_exc()
        sys.exit("rows.py %s: check failed" % " ".join(argv[1:]))


if __name__ == "__main__":
    main(sys.argv)
