#!/usr/bin/env python3
"""Checks over clbench's result files, for the CLI tests (tests/cli/*.sh).

    python3 rows.py CHECK ARGS...      (lib.sh: rows CHECK ARGS...)

exits 0 when the check holds; otherwise 1, with the failed assertion (and
the rows it saw) on stderr. One place reads a results file (CSV, or JSON
Lines by its extension .jsonl), splits `params` and `metrics` and holds the
checks the scripts share (ok-rows, fit and fitted, ok-sizes, col); a check only one
script makes is a function named after it (transpose_odd: test_transpose.sh's
odd shapes). A few commands make test inputs instead (compare_gen,
ceilings_as_device, to_jsonl, fake_rapl, replace: a planted kernel fault)
or print what a script compares (col, ok_workloads, report_run_ids).
"""
import csv
import html
import json
import os
import re
import sys
import time
import traceback


# ---- reading ----------------------------------------------------------------

def read(path):
    """Every row of a results file, as a dict of column -> text (CSV) or value (JSON Lines)."""
    if path.endswith(".jsonl"):
        with open(path) as f:
            return [json.loads(line) for line in f]
    with open(path) as f:
        return list(csv.DictReader(f))


def metrics(row):
    """A row's `metrics` (docs/RESULTS.md: key=value;key=value, no '=' in a
    value; in JSON Lines an object or null) as a dict."""
    text = row["metrics"]
    if text is None or isinstance(text, dict):
        return text or {}
    items = [kv.split("=") for kv in text.split(";")] if text else []
    assert all(len(kv) == 2 for kv in items), text
    return dict(items)


def params(row):
    """A row's params (key=value,key=value) as a dict; each item has one '='."""
    return dict(kv.split("=") for kv in row["params"].split(","))


def param(row, key):
    """The value of KEY=value in a row's params (a,b-separated)."""
    return row["params"].split(key + "=")[1].split(",")[0]


def of(rows, workload):
    """The rows of WORKLOAD."""
    return [r for r in rows if r["workload"] == workload]


def by(rows, *cols):
    """The rows keyed by the tuple of COLS (by one column: its value)."""
    if len(cols) == 1:
        return {r[cols[0]]: r for r in rows}
    return {tuple(r[c] for c in cols): r for r in rows}


def ok_unless(rows, skip_reason):
    """Every row is ok, but those for which skip_reason(row) names a reason
    (or a tuple of them, any of which will do): those are skipped, with the
    reason in detail."""
    for r in rows:
        reason = skip_reason(r)
        if isinstance(reason, tuple):  # any of these
            assert r["status"] == "skipped" and any(x in r["detail"] for x in reason), r
        elif reason is not None:
            assert r["status"] == "skipped" and reason in r["detail"], r
        else:
            assert r["status"] == "ok", r


# ---- checks any script makes -------------------------------------------------

def ok_rows(f, wl, k, t):
    """At least one row of workload WL, kernel K, type T, and every one ok."""
    rows = [r for r in read(f) if r["workload"] == wl and r["kernel"] == k and r["dtype"] == t]
    assert rows and all(r["status"] == "ok" for r in rows), rows


def skipped_for(f, reason):
    """Rows, every one skipped with REASON in detail."""
    rows = read(f)
    assert rows and all(r["status"] == "skipped" and reason in r["detail"] for r in rows), rows


def col(f, name):
    """Print column NAME of every row (lib.sh: csv_col)."""
    for r in read(f):
        print(r[name])


def ok_workloads(f):
    """Print how many workloads have an ok row."""
    print(len({r["workload"] for r in read(f) if r["status"] == "ok"}))


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


# ---- test_launch.sh, test_matmul.sh, test_stride.sh: one row or one set -------------

def launch_rate(f):
    """One rate row: batch 10 over 1000 work-items."""
    r = read(f)
    got = (len(r), r[0]["params"], r[0]["global_size"])
    assert got == (1, "batch=10", "1000"), got


def matmul_row100(f):
    """The n=100 row: flops 2n^3, bytes 3n^2*4, the error ratio in detail, a rate."""
    r = [x for x in read(f) if x["size"] == "100"][0]
    got = (float(r["flops"]), float(r["bytes"]), "max_err/tol=" in r["detail"], float(r["gflops"]) > 0)
    assert got == (2000000.0, 120000.0, True, True), got


def stride_bytes(f):
    """bytes are the useful bytes 2*N*sizeof at the quick N (262139)."""
    got = sorted({(r["dtype"], float(r["bytes"])) for r in read(f)})
    assert got == [("double", 4194224.0), ("float", 2097112.0)], got


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


def _best_local(name, esize):
    """The local memory a `best` variant of the tile form declares (transpose.c,
    variant_tile): one padded T x (T+1) tile, two for kK (K > 1), dK and pP."""
    m = re.fullmatch(r"(\d+)x\d+v\d+(.*)", name)
    two = 2 if re.search(r"k[2-9]|d\d|p\d", m[2]) else 1
    return two * int(m[1]) * (int(m[1]) + 1) * esize


def _vector_skip(r, local):
    """Why a vector variant is skipped on a shape of no multiple: the width, or,
    on a device with less local memory than it needs, the local memory."""
    e = 4 if r["dtype"] == "float" else 8
    if _best_local(r["params"][len("best="):], e) > int(local):
        return ("multiples of", "B of local memory")
    return "multiples of"


def transpose_pipe(f, local):
    rows = read(f)
    assert len(rows) == 4 * 2 * 4, len(rows)
    ok_unless(rows, lambda r: _vector_skip(r, local) if r["size"] == "4097x33" and r["params"] != "best=16x4v1k3"
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


def transpose_new(f, local):
    rows = read(f)
    assert len(rows) == 4 * 2 * 11, len(rows)
    scalar = {"best=16x4v1d3", "best=16x4v1p3oD", "best=16x8v1loR", "best=16x4v1k3oC", "best=16x4v1oS2"}

    def reason(r):
        if r["size"] in ("4097x33", "5x70") and r["params"] not in scalar:
            return _vector_skip(r, local)
        return "not NVIDIA" if r["params"] == "best=64x8v4nt" else None
    ok_unless(rows, reason)
    sh = {(r["size"], r["params"]): (r["local_size"], r["global_size"]) for r in rows if r["dtype"] == "float"}
    # 1-D grids of work-groups: 16 x 16 tiles of 16 (oS2), 8 bands of 4 x 8 tile
    # columns (d4), 4 groups per compute unit (persistent: PoCL's units times 4 x 16)
    assert sh[("256x256", "best=16x4v1oS2")] == ("16x4", "4096x4"), sh
    assert sh[("256x256", "best=32x8v4d4oC")] == ("8x8", "128x8"), sh
    assert sh[("256x256", "best=64x8v4nt")] == ("16x8", "64x32"), sh  # no order: the 2-D grid


# ---- tiles that fit: what the device's limits make of an asked tile -----------

def _tile_fits(local, own, lim):
    """clb_wg_fits on the device's limits: the work-items, each dimension, the local bytes."""
    items = 1
    for x in local:
        items *= x
    return (items <= lim["wg"] and all(x <= d for x, d in zip(local, lim["dim"]))
            and own <= lim["local"])


def _fit(state, tile, shrink, lim):
    """clb_fit_tile's first step: shrink the tile until it fits (None: nothing of the form does)."""
    for _ in range(64):
        local, own = tile(state)
        if _tile_fits(local, own, lim):
            return state
        state = shrink(state, lim)
        if state is None:
            return None
    return None


def _fit_rows(asked, lim, e):
    """clb_shrink_rows (copy2d; transpose's tile, whose padded SIDE x (SIDE+1)
    local tile of E-byte elements counts when E > 0): fewer rows of the same
    tile while the work-items are too many, else half the side and the rows."""
    side, rows = (int(x) for x in asked.split("x"))

    def own(side):
        return side * (side + 1) * e

    def shrink(st, lim):
        side, rows = st
        too_many = side * rows > lim["wg"] or rows > lim["dim"][1]
        if too_many and not own(side) > lim["local"] and rows > 1 and side <= lim["dim"][0] \
                and side <= lim["wg"]:
            rows -= 1
            while side % rows:
                rows -= 1
        elif side > 1:
            side //= 2
            rows = rows // 2 if rows % 2 == 0 else rows if side % rows == 0 else 1
        else:
            return None
        return side, rows
    got = _fit((side, rows), lambda st: (st, own(st[0])), shrink, lim)
    return "%dx%d" % got if got else None


def _fit_blockeq(asked, lim, e):
    """blockeq's shrink: fewer rows (as many as the work-items allow), then, at
    one row, half the width."""
    def shrink(st, lim):
        tw, th = st
        if th > 1:
            return tw, max(1, min(lim["wg"] // tw, th - 1))
        return (tw // 2, th) if tw > 1 else None
    got = _fit(tuple(int(x) for x in asked.split("x")), lambda st: (st, 0), shrink, lim)
    return "%dx%d" % got if got else None


def _fit_matmul(asked, lim, e, tiled):
    """matmul's shrink: half the side until side x side work-items fit; the tiled
    kernel's two side x side tiles of floats in local memory."""
    def shrink(side, lim):
        if side <= 1:
            return None
        side //= 2
        while side > 1 and side * side > lim["wg"]:
            side //= 2
        return side
    got = _fit(int(asked), lambda s: ((s, s), 2 * s * s * 4 if tiled else 0), shrink, lim)
    return str(got) if got else None


def _fit_items(asked, lim, e):
    """clb_fit_items (a 1-D work-group, no local memory): the largest that fits."""
    return str(min(int(asked), lim["wg"], lim["dim"][0]))


def _fit_best(asked, lim, e):
    """transpose's `best` variants (vfit_shrink): the tile form loses rows of
    work-items while they are too many, else halves the tile and its rows,
    then the vector; the register form halves the longer side of its
    work-group; the rectangular form halves W while its divisibility holds."""
    m = re.fullmatch(r"r(\d+)g(\d+)x(\d+)(.*)", asked)
    if m:
        def shrink(st, lim):
            gx, gy = st
            if gx * gy <= 1:
                return None
            return (gx // 2, gy) if gx >= gy else (gx, gy // 2)
        got = _fit((int(m[2]), int(m[3])), lambda st: (st, 0), shrink, lim)
        return "r%sg%dx%d%s" % (m[1], got[0], got[1], m[4]) if got else None
    m = re.fullmatch(r"rect(\d+)x(\d+)v(\d+)w(\d+)(.*)", asked)
    if m:
        bt, bc, bv = int(m[1]), int(m[2]), int(m[3])

        def rect_ok(w):
            cv, ov = bc // bv, bt // bv
            return w >= 1 and w % cv == 0 and w % ov == 0 and bt % (w // cv) == 0 and bc % (w // ov) == 0

        def shrink(w, lim):
            return w // 2 if rect_ok(w // 2) else None
        got = _fit(int(m[4]), lambda w: ((w, 1), bt * (bc + 1) * e), shrink, lim)
        return "rect%sx%sv%sw%d%s" % (m[1], m[2], m[3], got, m[5]) if got else None
    m = re.fullmatch(r"(\d+)x(\d+)v(\d+)(.*)", asked)
    assert m, asked

    def tile(st):
        bt, br, bv = st
        return (bt // bv, br), _best_local("%dx%dv%d%s" % (bt, br, bv, m[4]), e)

    def shrink(st, lim):
        bt, br, bv = st
        if br > 1 and bt // bv * br > lim["wg"] and tile(st)[1] <= lim["local"]:
            br -= 1
            while bt % br:
                br -= 1
        elif bt // 2 >= bv and (bt // 2) % bv == 0:
            bt //= 2
            br = br // 2 if br % 2 == 0 else br if bt % br == 0 else 1
        elif bv > 1:
            bv //= 2
        else:
            return None
        return bt, br, bv
    got = _fit((int(m[1]), int(m[2]), int(m[3])), tile, shrink, lim)
    return "%dx%dv%d%s" % (got + (m[4],)) if got else None


FIT_RULES = {"rows": _fit_rows, "blockeq": _fit_blockeq, "items": _fit_items, "best": _fit_best,
             "matmul-tiled": lambda a, lim, e: _fit_matmul(a, lim, e, True),
             "matmul-naive": lambda a, lim, e: _fit_matmul(a, lim, e, False)}


def fit_of(rule, asked, wg, dims, local, esize=0):
    """What the fit makes of ASKED under RULE (FIT_RULES) on a device of these
    limits; None when nothing of its form fits."""
    lim = {"wg": int(wg), "dim": [int(x) for x in dims.split("x")], "local": int(local)}
    return FIT_RULES[rule](asked, lim, int(esize))


def fit(rule, asked, wg, dims, local, esize="0"):
    """The tile a workload runs for ASKED on a device of these limits (`clbench
    list -v`: the work-group maximum, its dimensions AxBxC, the local memory in
    bytes; ESIZE: an element's bytes where the tile's local memory counts),
    each candidate asked the question the fit asks (does it fit the device?)
    along the workload's shrink rule (RULE: rows, blockeq, matmul-tiled,
    matmul-naive, items, best), so that a test expects what this device
    reduces to, not what one machine did. Prints it (the asked one when it fits
    as it is), or "none" when nothing of its form fits (lib.sh: fit_expect)."""
    print(fit_of(rule, asked, wg, dims, local, esize) or "none")


def _param_or_none(row, key):
    p = dict(kv.split("=", 1) for kv in row["params"].split(",") if "=" in kv)
    return p.get(key)


def fitted(f, key, asked, got):
    """Every row ok and run with KEY=GOT: reduced from ASKED (said in detail and
    flagged in metrics) when GOT differs, else as asked (KEY in params or not)
    with no note."""
    rows = read(f)
    assert rows and all(r["status"] == "ok" for r in rows), rows
    for r in rows:
        if got != asked:
            assert _param_or_none(r, key) == got, (got, r["params"])
            assert "%s %s reduced to %s" % (key, asked, got) in r["detail"], r["detail"]
            assert metrics(r).get("reduced") == "1", r["metrics"]
        else:
            assert _param_or_none(r, key) in (None, asked), (asked, r["params"])
            assert "reduced" not in r["detail"] and "reduced" not in metrics(r), r


# ---- test_dslash.sh -----------------------------------------------------------

def dslash_combos(f, want):
    """WANT distinct (size, type, params, kernel) among the ok dslash rows."""
    combos = {(r["size"], r["dtype"], r["params"], r["kernel"]) for r in of(read(f), "dslash")
              if r["status"] == "ok"}
    assert len(combos) == int(want), len(combos)


def dslash_counts(f):
    """The counts of the talk [Wagner15]: 1146 flop and 1024 + 408 r bytes per
    even site (fp32, compressed)."""
    for r in of(read(f), "dslash"):
        sites = 8 * 8 * 8 * (8 if r["size"] == "8x8x8x8" else 4) // 2
        rhs = int(param(r, "rhs"))
        links = 1024 if "compressed" in r["params"] else 1152
        scale = 2 if r["dtype"] == "double" else 1
        assert abs(float(r["flops"]) - 1146 * sites * rhs) < 1e-6 * float(r["flops"]), r
        assert abs(float(r["bytes"]) - scale * (links + 408 * rhs) * sites) < 1, r
        assert "rel_l2=" in r["detail"], r
        assert ("rebuild_err=" in r["detail"]) == ("compressed" in r["params"]), r


def dslash_variants(f):
    rows = of(read(f), "dslash")
    got = {(r["dtype"], r["kernel"], r["params"]) for r in rows}
    want = set()
    for t in ("float", "double"):
        for z in ("", ",zstrip=2"):
            for k, p in (("reg", ""), ("reg", ",pass=2"), ("regcache", ",k=2"), ("best", "")):
                want.add((t, k, "rhs=4,links=compressed" + p + z))
    assert got == want, (sorted(got ^ want))
    for r in rows:
        m = metrics(r)
        if r["kernel"] != "best":
            per_item = "2" if r["kernel"] == "regcache" else "4"
            per_pass = "2" if "pass=2" in r["params"] or r["kernel"] == "regcache" else "4"
            assert (m["rhs_per_item"], m["rhs_per_pass"]) == (per_item, per_pass), (r["params"], m)
        assert "of_stream_triad" in m and "of_stream_copy" in m, m
        assert "private_mem_bytes" in m, m
        if r["kernel"] == "best":
            assert m["best_kernel"] in ("reg", "cache", "regcache"), m
            assert "probe: reg" in r["detail"] and "regcache k=2" in r["detail"], r["detail"]


def dslash_best_per_rhs(f):
    rows = by(read(f), "params")
    m2 = rows["rhs=2,links=full"]["metrics"]
    m4 = rows["rhs=4,links=full"]["metrics"]
    assert "best_kernel=cache" in m2 and "best_kernel=regcache" in m4 and "rhs_per_item=2" in m4, (m2, m4)
    assert "best=regcache k=2 (param)" in rows["rhs=4,links=full"]["detail"]


def dslash_scaling(f):
    rows = of(read(f), "dslash")
    assert len(rows) == 8, len(rows)
    for r in rows:
        assert r["params"].endswith(",scaling=strong,grid=1x1x1x1,part=8x8x8x8"), r["params"]
        rhs = int(param(r, "rhs"))
        assert float(r["flops"]) == 1146 * rhs * 8 ** 4 // 2, r
        for key in ("halo_ms=", "halo_exposed_ms=", "halo_model_ms=", "halo_bytes=", "(measured)",
                    "sites_interior=512 ", "sites_boundary=1536", "rel_l2=", "exchange=pipe"):
            assert key in r["detail"], (key, r["detail"])
        m = metrics(r)
        for key in ("halo_ms", "halo_exposed_ms", "halo_model_ms", "halo_exposed_model_ms", "eff",
                    "eff_model", "pack_ms", "interior_ms", "boundary_ms", "bus_d2h_gbps",
                    "bus_h2d_gbps", "halo_chain_model_ms"):
            assert key in m and float(m[key]) >= 0, (key, r["metrics"])
        assert m["halo_chain"] == "pipe" and "mpi_gbps" not in m, r["metrics"]  # one rank: no message
        assert 0 < float(m["eff"]) <= 1 and 0 < float(m["eff_model"]) <= 1, r["metrics"]


def dslash_chains(f):
    """Rank 0's rows: ok with halo_chain bulk, then shm."""
    rows = [r for r in read(f) if r["rank"] == "0"]
    chains = " ".join(r["status"] + ":" + r["metrics"].split("halo_chain=")[1].split(";")[0] for r in rows)
    assert chains == "ok:bulk ok:shm", chains


def dslash_chain_params(f):
    """Rank 0's rows' params end in exchange= (and chunk=) after the part."""
    ends = " ".join(r["params"].split("part=8x8x8x4")[1] for r in read(f) if r["rank"] == "0")
    assert ends == ",exchange=bulk ,exchange=shm,chunk=1", ends


# ---- test_cg.sh ----------------------------------------------------------------

def cg_rows(f):
    """8 rows; flops and bytes from the params by the counts of [Wagner15]; the detail."""
    rows = of(read(f), "cg")
    assert len(rows) == 8, len(rows)
    vh = 8 ** 4 // 2
    combos = set()
    for r in rows:
        p = params(r)
        rhs = int(p["rhs"])
        its = [int(x) for x in p["iters"].split(":")]
        its = its * rhs if len(its) == 1 else its
        links = 1024 if p["links"] == "compressed" else 1152
        scale = 2 if r["dtype"] == "double" else 1
        flops = vh * (2364 * sum(its) + 12 * rhs)
        bytes_ = scale * vh * (2 * links * max(its) + 24 * (43 * sum(its) + 4 * rhs))
        assert abs(float(r["flops"]) - flops) <= 1e-9 * flops, (r["flops"], flops)
        assert abs(float(r["bytes"]) - bytes_) <= 1e-9 * bytes_, (r["bytes"], bytes_)
        d = r["detail"]
        for key in ("true_res=", "rec_res=", "t_iter_us=", "dslash_gflops=", "solved_in_setup"):
            assert key in d, (key, d)
        true = [float(x) for x in d.split("true_res=")[1].split()[0].split(":")]
        tol, eps = (1e-12, 2.22e-16) if r["dtype"] == "double" else (1e-6, 1.19e-7)
        assert len(true) == rhs and all(t <= 10 * max(tol, eps * n) for t, n in zip(true, its)), d
        # the float solves need more iterations in double (1e-12 against 1e-6)
        assert (max(its) > 40) == (r["dtype"] == "double"), (its, r["dtype"])
        combos.add((r["dtype"], rhs, p["links"]))
    assert len(combos) == 8, combos


def cg_fixed(f):
    rows = of(read(f), "cg")
    assert len(rows) == 4
    vh = 8 ** 4 // 2
    for r in rows:
        assert r["params"] == "rhs=3,links=compressed,iters=20:10:15", r["params"]
        scale = 2 if r["dtype"] == "double" else 1
        assert float(r["flops"]) == vh * (2364 * 45 + 36)
        assert float(r["bytes"]) == scale * vh * (2048 * 20 + 24 * (43 * 45 + 12))
        d = r["detail"]
        assert "fixed_iters" in d and "fp64_cg_res=" in d, d
        true = [float(x) for x in d.split("true_res=")[1].split()[0].split(":")]
        ref = [float(x) for x in d.split("fp64_cg_res=")[1].split(";")[0].split(":")]
        # fewer iterations, larger residual: the mask stopped rhs 1 at 10
        assert ref[1] > ref[2] > ref[0] > 0, ref
        assert all(abs(t - f) <= 1e-3 * f for t, f in zip(true, ref)), (true, ref)


def cg_mass_plant(f):
    d = read(f)[0]["detail"]
    rec = float(d.split("rec_res=")[1].split(";")[0])
    true = float(d.split("true_res=")[1].split()[0])
    assert rec <= 1e-6 and true > 1e-2, (rec, true)


def cg_scaling(*files):
    rows = [r for f in files for r in of(read(f), "cg")]
    assert len(rows) == 5, len(rows)
    for r in rows:
        p = params(r)
        assert p["grid"] == "1x1x1x1" and p["part"] == "8x8x8x8", r["params"]
        rhs = int(p["rhs"])
        its = [int(x) for x in p["iters"].split(":")]
        its = its * rhs if len(its) == 1 else its
        assert float(r["flops"]) == 8 ** 4 // 2 * (2364 * sum(its) + 12 * rhs), r
        for key in ("halo_ms=", "halo_exposed_ms=", "halo_model_ms=", "exchanges=%d " % (2 * max(its)),
                    "true_res="):
            assert key in r["detail"], (key, r["detail"])
        if "fp64_cg_res=" in r["detail"]:
            true = r["detail"].split("true_res=")[1].split()[0]
            ref = r["detail"].split("fp64_cg_res=")[1].split(";")[0].split()[0]
            assert true == ref, (true, ref)


def cg_regcache(f):
    rows = of(read(f), "cg")
    assert len(rows) == 1 and rows[0]["params"].startswith("rhs=4,links=compressed,k=2,iters="), rows
    assert "of_stream_triad=" in rows[0]["metrics"], rows[0]["metrics"]


# ---- test_ux.sh ----------------------------------------------------------------

def ux_progress(f):
    """The [i/n] progress lines on stderr (file F): one counter over both
    workloads, the total known from the start. (The ETA is shown only once
    it can be estimated, which a fast --quick run may never reach:
    test_progress.sh checks it on cases made long enough.)"""
    with open(f) as fh:
        lines = [l for l in fh if l.startswith("[")]
    m = [re.match(r"\[(\d+)/(\d+)\] (\w+)", l) for l in lines]
    done = [int(x.group(1)) for x in m]
    totals = {int(x.group(2)) for x in m}
    wls = {x.group(3) for x in m}
    assert done == list(range(1, len(lines) + 1)), done
    assert totals == {len(lines)}, totals          # the plan was exact
    assert wls == {"stream", "copy2d"}
    assert "ETA" not in lines[0], lines[0]         # nothing measured yet


def progress_eta(f, wall, whole="1"):
    """Every ETA of the progress lines (file F) is at most 3 x the run's wall
    seconds WALL plus 2 s; with WHOLE 1, the last workload's lines carry a
    whole one (no >)."""
    def secs(t):
        m = re.fullmatch(r">?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?", t)
        h, mi, s = (int(x or 0) for x in m.groups())
        return 3600 * h + 60 * mi + s
    lines = open(f).read().splitlines()
    etas = [(l, re.search(r"  ETA (\S+)$", l)) for l in lines]
    etas = [(l, m.group(1)) for l, m in etas if m]
    if whole == "0" and not etas:
        return
    assert etas, "no ETA at all"
    worst = max(secs(t) for _, t in etas)
    assert worst <= 3 * float(wall) + 2, (worst, wall, [t for _, t in etas][:5])
    last_wl = lines[-1].split()[1]
    assert whole == "0" or any(not t.startswith(">") for l, t in etas if l.split()[1] == last_wl), \
        etas[-3:]


def plan_cases(f, want):
    """`run --dry-run`'s plan (F): its groups' cases add up to WANT, every size
    has a unit, every group a footprint, and a bound on the time is given."""
    text = open(f).read()
    groups = re.findall(r"^(\w+) +(\S+) +(.+?) +(\d+) +([\d.e+-]+) (B|kB|MB|GB)$", text, re.M)
    assert sum(int(g[3]) for g in groups) == int(want), (want, groups)
    assert all(re.search(r"(elements|lattice|B|work-items?|work-item|side.*)$", g[2]) for g in groups), groups
    assert re.search(r"at most\s+about [\dms ]+of timed runs", text), text[-400:]


def ux_budget(f):
    rows = read(f)
    assert rows and all(3 <= int(r["reps"]) < 200 for r in rows), [r["reps"] for r in rows]


def ux_peaks(f):
    rows = read(f)
    assert rows and all(r["pct_peak_bw"] != "" and
                        abs(float(r["gbps"]) * 2 - float(r["pct_peak_bw"])) < 0.01 * float(r["gbps"]) + 0.01
                        and r["model"] != "" and r["profile"].endswith("+cli-peaks") for r in rows), rows


def ux_jsonl(f):
    assert f.endswith(".jsonl"), f
    objs = read(f)
    assert len(objs) == 4 and all(len(o) == 38 for o in objs)
    assert all(o["status"] == "ok" and isinstance(o["gbps"], float) and o["energy_j"] is None for o in objs)


# ---- test_stream.sh ------------------------------------------------------------

def stream_too_big(f):
    rows = read(f)
    assert rows and all(r["status"] == "skipped" and "CL_DEVICE_MAX_MEM_ALLOC_SIZE" in r["detail"] and
                        str(2**40 * 4) in r["detail"] for r in rows if r["dtype"] == "float"), rows


def stream_build_error(f):
    rows = read(f)
    assert rows and all(r["status"] == "error" and "CL_BUILD_PROGRAM_FAILURE" in r["detail"] for r in rows), rows


def stream_per_type(f, f_sizes):
    vec = {(r["dtype"], r["params"].split(",")[0]) for r in read(f)}
    sizes = {r["size"] for r in read(f_sizes)}
    assert vec == {("float", "vec=4"), ("double", "vec=2")} and sizes == {"4096"}, (vec, sizes)


def stream_nt(f):
    """2 types x vec 1,8 x nt 0,1 x local 0,64,48 x copy,triad: every row ok,
    nt=1 in the params of half of them, init=device in every row's params."""
    rows = read(f)
    assert len(rows) == 48 and all(r["status"] == "ok" for r in rows), [(r["params"], r["status"]) for r in rows]
    assert sum(",nt=1" in r["params"] for r in rows) == 24, [r["params"] for r in rows]
    assert all(r["params"].endswith(",init=device") for r in rows), [r["params"] for r in rows]


def stream_local2(f):
    rows = [(r["kernel"], r["local_size"]) for r in read(f)]
    want = [("copy", "32"), ("scale", "32"), ("add", "128"), ("triad", "128"), ("copy", "64"), ("scale", "64")]
    assert rows == want, rows


# ---- test_energy.sh ------------------------------------------------------------

def fake_rapl(path):
    """A fake RAPL counter at PATH: 100 W, wrapping at 1 kJ, rewritten every 2 ms (until killed)."""
    t0 = time.monotonic()
    while True:
        v = int(990e6 + (time.monotonic() - t0) * 100e6) % 1000000000   # 100 W, wraps at 1 kJ
        tmp = path + ".new"
        with open(tmp, "w") as f:
            f.write("%d\n" % v)
        os.replace(tmp, path)
        time.sleep(0.002)


# The fake writes 100 W, but it is a process of its own: on a loaded 2-core CI
# machine it stalls for tens of ms (readings of 22 W and 7.7 W were seen over
# 0.1-0.2 s windows), so a row's power is only checked to be of the right
# order. A wrong unit in the pipeline (uJ read as J, or the reverse) is off by
# 10^6 and still fails; the arithmetic itself is unit_test_core_energy's.
FAKE_W_LO, FAKE_W_HI = 2.0, 5000.0


def energy_rapl(f):
    rows = read(f)
    # the timed window covers --energy-window: more runs than -n's minimum when they are short
    print([(r["reps"], r["energy_j"], r["avg_power_w"]) for r in rows])
    assert rows and all(r["power_source"] == "rapl" and float(r["energy_j"]) > 0 and
                        FAKE_W_LO < float(r["avg_power_w"]) < FAKE_W_HI for r in rows)


def energy_short(f):
    rows = read(f)
    assert rows and all(r["energy_j"] == "" and int(r["reps"]) <= 3 for r in rows), rows


def energy_on(f):
    rows = read(f)
    # stretched (more runs than -n) and read: 100 W over the window. (Not energy_j
    # against 100 W x 0.1 s: on a loaded 2-core machine the fake's writer stalls,
    # and a reading at the window's ends can be a stall old; the power over the
    # window's own time bounds it: 20-500 W.)
    assert rows and all(r["power_source"] == "rapl" and int(r["reps"]) > 3 and
                        float(r["energy_j"]) > 0 and FAKE_W_LO < float(r["avg_power_w"]) < FAKE_W_HI
                        for r in rows), \
        [(r["reps"], r["t_mean_s"], r["energy_j"]) for r in rows]


# ---- writing (fixtures made from fixtures) ---------------------------------------

def write(path, fieldnames, rows, crlf=False):
    """A results CSV at PATH: the header, then ROWS (dicts); lines end in
    \\n, or in \\r\\n (the csv module's default) with CRLF."""
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fieldnames, lineterminator="\r\n" if crlf else "\n")
        w.writeheader()
        for r in rows:
            w.writerow(r)


def header(path):
    """The column names of a results CSV."""
    with open(path) as f:
        return next(csv.reader(f))


# ---- test_budget.sh ---------------------------------------------------------------

def budget_rows(f, steps, cache_mb, units):
    """Every row size_from=budget, at the size the note's "  WL [TYPE] A -> B"
    line gave its group; llc_from=unit_cap where the device's cache (list -v,
    MB) is above 16 MiB a compute unit, else reported (no verdict within the
    figure's rounding)."""
    rows = read(f)
    went = {}
    for line in open(steps):
        left, right = line.strip().split(" -> ")
        parts = left.split()
        went[(parts[0], parts[1] if len(parts) == 3 else "")] = right
    assert rows and went, (rows, went)
    cap = 16 * 1048576 * int(units) / 1e6
    for r in rows:
        m = metrics(r)
        assert m.get("size_from") == "budget", r
        assert went.get((r["workload"], r["dtype"])) == r["size"], (went, r["size"])
        if abs(float(cache_mb) - cap) > 0.1:
            assert m.get("llc_from") == ("unit_cap" if float(cache_mb) > cap else "reported"), m


# ---- test_tiles_fit.sh -------------------------------------------------------------

def tiles_fit(f, limit):
    """Every row ok or skipped for a type the device lacks, and every
    work-group (local_size, e.g. 32x1) at most LIMIT work-items."""
    limit = int(limit)
    rows = read(f)
    lacks = ("no fp64", "no half precision")
    bad = [r for r in rows if r["status"] != "ok" and
           not (r["status"] == "skipped" and any(x in r["detail"] for x in lacks))]
    over = []
    for r in rows:
        p = 1
        for x in filter(None, r["local_size"].split("x")):
            p *= int(x)
        if r["local_size"] and p > limit:
            over.append(r)
    for r in (bad + over)[:5]:
        print(r["workload"], r["kernel"], r["dtype"], r["params"], r["local_size"], r["status"],
              r["detail"][:160])
    wls = sorted({r["workload"] for r in rows if r["status"] == "ok"})
    print(len(rows), "rows,", len(wls), "workloads with ok rows")
    assert rows and not bad and not over


def tiles_fit_reduced(f):
    """A reduced tile is in params, said in detail and flagged in metrics."""
    rows = [r for r in read(f) if r["status"] == "ok"]

    def row(wl, k):
        return next(r for r in rows if r["workload"] == wl and r["kernel"] == k)
    c, b, t = row("copy2d", "coalesced"), row("blockeq", "divmod"), row("transpose", "naive")
    assert c["params"] == "tile=4x1" and c["local_size"] == "4x1", c
    assert "tile 32x8 reduced to 4x1" in c["detail"], c["detail"]
    assert "tile=4x1" in b["params"] and "reduced to 4x1" in b["detail"], b
    assert t["params"] == "tile=4x1" and "CLBENCH_MAX_WORK_GROUP allows 7" in t["detail"], t
    for r in (c, b, t):
        assert metrics(r).get("reduced") == "1", r  # as data too (docs/RESULTS.md)


def tiles_fit_defaults(f, wg, dims, local):
    """The studies' tiles of copy2d (32x8), blockeq (64x8 floats) and matmul (16)
    on a device of these limits: as asked where they fit (no note, no reduced
    metric), else what the fit makes of them, said and flagged (as fitted).
    Prints each workload's tile."""
    rows = read(f)
    asked = {"copy2d": ("rows", "32x8"), "blockeq": ("blockeq", "64x8"),
             "matmul": ("matmul-tiled", "16")}
    assert rows and {r["workload"] for r in rows} == set(asked), rows
    seen = {}
    for r in rows:
        rule, a = asked[r["workload"]]
        if r["workload"] == "matmul" and r["kernel"] == "naive":
            rule = "matmul-naive"
        want = fit_of(rule, a, wg, dims, local)
        assert r["status"] == "ok", r
        if want != a:
            assert _param_or_none(r, "tile") == want, (want, r)
            assert "tile %s reduced to %s" % (a, want) in r["detail"] and metrics(r).get("reduced") == "1", r
        else:
            assert _param_or_none(r, "tile") in (None, a), r
            assert "reduced" not in r["detail"] and "reduced" not in metrics(r), r
        seen[r["workload"]] = a if want == a else "%s reduced to %s" % (a, want)
    print(", ".join("%s %s" % kv for kv in sorted(seen.items())))


def tiles_fit_rusticl_transpose(f):
    rows = read(f)
    s = [r for r in rows if r["kernel"] == "serial"][0]
    assert s["status"] == "skipped" and "after 65535 iterations" in s["detail"], s
    assert all(r["status"] == "ok" for r in rows if r["kernel"] != "serial"), rows


# ---- test_ceilings.sh --------------------------------------------------------------

def ceilings_no_bandwidth(src, out):
    """OUT: SRC's H100 rows that measure no bandwidth ceiling (latency, cache-resident)."""
    write(out, header(src), [r for r in read(src) if r["device"].startswith("NVIDIA H100") and
                             (r["workload"] == "latency" or "cache_resident" in r["detail"])])


def ceilings_as_device(src, dev, out):
    """OUT: SRC's H100 80GB HBM3 rows, measured (so it says) on device DEV."""
    rows = [r for r in read(src) if r["device"] == "NVIDIA H100 80GB HBM3"]
    for r in rows:
        r["device"] = dev
    write(out, header(src), rows)


def ceilings_rows(f):
    """The copy row: profile and model from the ceilings, %peak on the measured 3076.1 GB/s."""
    copy = [r for r in read(f) if r["kernel"] == "copy"][0]
    got = (copy["profile"], copy["model"],
           abs(float(copy["pct_peak_bw"]) - 100 * float(copy["gbps"]) / 3076.1) < 0.01)
    assert got == ("pocl_cpu+ceilings", "3076.1", True), got


# ---- test_compare.sh ---------------------------------------------------------------

def compare_json(f):
    """compare --json --by-size over the fixtures: columns, lines and values."""
    with open(f) as fh:
        d = json.load(fh)
    assert d["schema"] == "clbench-compare-2" and d["metric"]["name"] == "auto"
    assert len(d["columns"]) == 7 and d["columns"][0]["label"] == "NVIDIA H100 80GB HBM3"
    assert d["columns"][0]["files"][0].endswith("gpu.csv") and abs(d["columns"][0]["peak_gbs"] - 3352) < 1
    assert d["columns"][3]["reference"] and d["columns"][3]["source"] == "Matrix transpose whitepaper"
    assert len(d["lines"]) == 16
    l = d["lines"][0]
    assert (l["workload"], l["kernel"], l["dtype"], l["size"]) == ("stream", "copy", "float", "268435456")
    assert (l["metric"], l["unit"], l["higher_is_better"]) == ("gbps", "GB/s", True), l
    v = l["values"][0]
    assert v["value"] == 3000 and v["runs"] == 2 and abs(v["spread_pct"] - 1) < 1e-9 and v["status"] == "ok"
    assert l["values"][3] is None
    f = [x for x in d["lines"] if x["kernel"] == "naive" and x["dtype"] == "double"][0]
    assert f["values"][0]["status"] == "failed" and f["values"][1]["status"] == "skipped"


def compare_gen(template, kind, n, out):
    """OUT: N ok rows in TEMPLATE's header; KIND long: names thousands of bytes
    long; cols: every row another device; else: one device, N sizes."""
    head = header(template)
    rows = []
    for i in range(int(n)):
        r = dict.fromkeys(head, "")
        r.update(run_id="g", host="h", device="Dev", workload="wl", kernel="k", dtype="float",
                 size=str(i + 1), params="", status="ok", gbps=str(1 + i % 97), bytes="8")
        if kind == "long":
            r.update(device="D" * 5000 + " end", workload="W" * 1000, kernel="K" * 700,
                     size="1048576", params="p=%d,q=%s%d" % (i + 1, "v" * 300, i))
        if kind == "cols":
            r.update(device="Dev %d" % i, size="1048576")
        rows.append(r)
    write(out, head, rows)


def compare_watts(src, out):
    """OUT: SRC with an energy reading (12.5 J, 250 W, nvml) on every ok row with a figure."""
    rows = read(src)
    for r in rows:
        if r["status"] == "ok" and r["gbps"]:
            r["energy_j"], r["avg_power_w"], r["power_source"] = "12.5", "250", "nvml"
    write(out, list(rows[0].keys()), rows, crlf=True)


# ---- test_gate.sh --------------------------------------------------------------

def gate_roles(tmp, doc, *names):
    """Every parameter of the workloads NAMES (their --help in TMP/help.NAME)
    declares the role case or tuning; DOC (docs/COMPARE.md) lists them as the
    code does."""
    rows = ["| workload | case parameters | tuning parameters |", "|---|---|---|"]
    for w in names:
        roles = {"case": [], "tuning": []}
        section = None
        for line in open("%s/help.%s" % (tmp, w)):
            if line.startswith("parameters ("):   # its heading ends in "):" (on one line with --wide)
                section = "param" if line.rstrip().endswith("):") else "head"
            elif section == "head":
                section = "param" if line.rstrip().endswith("):") else "head"
            elif line.startswith("keys of its rows"):
                section = "row"
            elif section in ("param", "row") and line.startswith("  ") and not line.startswith("   "):
                m = re.match(r"  (\S+) +(\S+) ", line)
                if not m:
                    continue
                key, role = m.groups()
                assert role in roles, "%s: parameter %s has role '%s'" % (w, key, role)
                roles[role].append(key + (" (row)" if section == "row" else ""))
            elif section in ("param", "row") and not line.startswith(" "):
                section = None
        cell = lambda l: ", ".join("`%s`" % k.replace(" (row)", "") + (" (row)" if "(row)" in k else "")
                                   for k in l) or "-"
        rows.append("| %s | %s | %s |" % (w, cell(roles["case"]), cell(roles["tuning"])))
    want = "\n".join(rows)
    text = open(doc).read()
    m = re.search(r"<!-- roles: begin.*?-->\n(.*?)\n<!-- roles: end -->", text, re.S)
    assert m, "docs/COMPARE.md has no roles table between <!-- roles: begin --> and <!-- roles: end -->"
    if m.group(1).strip() != want:
        sys.exit("docs/COMPARE.md's roles table differs from the workloads' declarations; it should read:\n" + want)


def gate_formats_agree(f_text, f_md, f_json):
    """compare --baseline's text, Markdown and JSON give the same verdicts and counts."""
    words = {"same": "same", "better": "improved", "REGRESSED": "regressed", "noise": "noise",
             "LOST": "lost", "MISSING": "missing", "missing (allowed)": "missing", "no figure": "no_figure",
             "new": "new", "CHANGED": "changed"}
    text = [l.rstrip("\n") for l in open(f_text)]
    # the table: from its header to the first blank line; a row ends with its status (a
    # long key stands on a line of its own above its figures; notes are indented)
    table = text[text.index(next(l for l in text if l.startswith("line "))) + 1:]
    table = table[:table.index("")]
    ends = sorted(words, key=len, reverse=True)
    st_text = [next(words[w] for w in ends if l.endswith(" " + w)) for l in table
               if not l.startswith("  ") and any(l.endswith(" " + w) for w in ends)]
    md = [l for l in open(f_md) if l.startswith("| ") and not l.startswith("| workload")]
    st_md = [words[l.rstrip(" |\n").split("| ")[-1].strip()] for l in md]
    doc = json.load(open(f_json))
    st_json = [l["state"] for l in doc["lines"]]
    assert st_text == st_md == st_json, (st_text, st_md, st_json)
    at = [i for i, l in enumerate(text) if l.startswith("gate: ")][0]
    summary, second = text[at], text[at + 1]
    c = doc["gate"]["counts"]
    assert summary.startswith("gate: %d compared, %d regressed, %d improved, %d changed, %d missing, %d new; "
                              % (c["compared"], c["regressed"], c["improved"], c["changed"], c["missing"],
                                 c["new"])), summary
    assert second.startswith("  %d within noise, %d lost" % (c["noise"], c["lost"])), second
    md = [l.rstrip("\n") for l in open(f_md)]
    assert md[md.index(summary) + 1] == second, md
    assert doc["verdict"] == ("fail" if summary.endswith("FAIL") else "pass")


def gate_tuned_json(f):
    """The JSON line: both sides, their spread and tuning, the change."""
    d = json.load(open(f))
    assert d["schema"] == "clbench-compare-baseline-3" and d["failed"] == 1
    assert d["metric"]["name"] == "auto"
    assert d["devices"] == {"baseline": "Gate Test GPU A", "new": "Gate Test GPU A"}
    assert d["gate"]["threshold_pct"] == 5 and d["gate"]["strict"] is False
    l = d["lines"][0]
    assert (l["workload"], l["kernel"], l["case"], l["state"]) == ("stream", "copy", "", "regressed")
    assert l["tuned"] == "local 128\u21921024" and (l["metric"], l["unit"]) == ("gbps", "GB/s")
    assert l["baseline"]["tuning"] == "ilp=1,local=128,vec=4" and l["new"]["tuning"] == "ilp=1,local=1024,vec=4"
    assert l["baseline"]["value"] == 1000 and l["new"]["value"] == 800 and abs(l["delta_pct"] + 20) < 1e-9
    assert l["baseline"]["lo"] < 1000 < l["baseline"]["hi"] and l["new"]["hi"] < l["baseline"]["lo"]


# ---- test_report.sh ------------------------------------------------------------

def report_marks(f):
    """The marks of schema v3 on the page: host-timed rows (H) and an impossible one."""
    page = open(f).read()
    text = html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<svg.*?</svg>", "", page, flags=re.S)))
    bad = []
    care = re.search(r"Figures to read with care(.*?)</table>", page, re.S)
    if not care or not re.search(r"<td>stream</td><td>[^<]*timed on the host clock", care.group(1)):
        bad.append("the host-timed stream rows are not among the figures to read with care")
    bars = re.search(r"<h2[^>]*>stream</h2>.*?<svg.*?</svg>", page, re.S)
    if not bars or not re.search(r"<text[^>]*>[^<]*H[^<]*</text>", bars.group(0)):
        bad.append("the stream chart writes no H above the host-timed bars")
    if not re.search(r"fp32 compute.*?peak fma[^\n]*timed on the host clock", text):
        bad.append("the fp32 ceiling measured by host-timed rows is not marked")
    if text.count("9.877e+05") != 1 or "987654" in page:
        bad.append("the impossible figure is shown beyond its row's detail")
    if not re.search(r"Rows without a figure.*?roofline\s+fma\s+float.*?impossible:", text, re.S):
        bad.append("the impossible row is not among the rows without a figure")
    print("; ".join(bad) if bad else "H on the host-timed bars, in the flagged rows and the ceiling; "
          "the impossible row has no figure, listed with its reason")
    if bad:
        sys.exit(1)


def report_run_ids(f):
    """Print the page's run ids (empty when it names none)."""
    m = re.search(r"<dt>run ids</dt><dd>([^<]*)</dd>", open(f).read())
    print(m.group(1) if m else "")


def report_doc_table(doc, table):
    """DOC's table of figures is TABLE (scripts/gen_report_doc.sh's)."""
    doc, table = open(doc).read(), open(table).read().strip()
    begin, end = "<!-- figures: scripts/gen_report_doc.sh -->", "<!-- end of figures -->"
    assert doc[doc.index(begin) + len(begin):doc.index(end)].strip() == table


def _sections(page):
    """The page's sections: {title: markup} (its charts' SVG removed)."""
    out = {}
    for m in re.finditer(r'<section id="s\d+">\s*<h2>(.*?)</h2>(.*?)</section>', page, re.S):
        out[html.unescape(m.group(1))] = re.sub(r"<svg.*?</svg>", "", m.group(2), flags=re.S)
    return out


def _table_cells(table):
    """A table's data rows (those without a th) as lists of their cells' markup."""
    return [re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S) for tr in re.findall(r"<tr>(.*?)</tr>", table, re.S)
            if "<th" not in tr]


def report_read(f):
    """The page of the committed H100 and H200 suites beside every published
    figure: every flag a section shows is explained in it by a
    sentence naming a row; no B or byte-count ! beside a flop rate; no column
    or line of a table without a figure or a flag; sizes with their unit;
    a log axis only for a range that needs it, said in its label; the idle
    power that contradicts the rows flagged."""
    page = open(f).read()
    bad = []
    for title, body in _sections(page).items():
        shown = set(re.findall(r'<td[^>]*>(?:(?!</td>).)*?<span class="flag[^"]*">([^<]{1})</span>', body, re.S))
        marks = re.search(r'<ul class="marks">(.*?)</ul>', body, re.S)
        told = set(re.findall(r'<li><span class="flag[^"]*">(.)</span>', marks.group(1))) if marks else set()
        if shown - told:
            bad.append("%s: flags %s shown, not explained" % (title, "".join(sorted(shown - told))))
        for li in re.findall(r"<li>(.*?)</li>", marks.group(1) if marks else "", re.S):
            if " on NVIDIA H" not in li:
                bad.append("%s: a mark's sentence names no row: %s" % (title, li[:80]))
        for table in re.findall(r"<table>(.*?)</table>", body, re.S):
            data = [c for c in _table_cells(table) if c]
            ths = re.findall(r"<th[^>]*>(.*?)</th>", table)
            if title in ("dslash", "cg") and re.search(r"GFlop/s.*?\d <span class=\"flag\">[!B]</span>", table):
                bad.append("%s: a byte-count flag beside a flop rate" % title)
            width = max((len(c) for c in data), default=0)
            for k in range(width):
                col = [c[k] for c in data if len(c) == width]
                empty = col and all(re.sub(r"<[^>]+>|\s", "", v) in ("&ndash;", "–", "") for v in col)
                if empty and ths[k:k + 1] != ["flags"]:   # no flags: an empty flags cell
                    bad.append("%s: a column without a figure or a flag (%s)" % (title, ths[k:k + 1]))
            for tr in re.findall(r"<tr>(.*?)</tr>", table, re.S):
                nums = re.findall(r'<td class="n">(.*?)</td>', tr, re.S)
                if len(nums) > 1 and all(re.sub(r"<[^>]+>|\s", "", v) in ("&ndash;", "–") for v in nums):
                    bad.append("%s: a line without a figure or a flag (%s)" % (title, tr[:60]))
        sizes = re.findall(r'<br><span class="note[^"]*">([^<]*)</span>', body)
        for size in [s for s in sizes if not s.startswith("counted ")]:
            if not re.search(r"(elements|lattice|B|work-items?|per side.*)$", size):
                bad.append("%s: a size without its unit: %s" % (title, size))
    charts = {m.group(1): m.group(2) for m in re.finditer(r"<h2>(.*?)</h2>(.*?)</section>", page, re.S)}
    if "log scale" in charts["stream"] or "log scale" not in charts["blockeq"]:
        bad.append("stream (97-4402 GB/s) on a log axis, or blockeq (4.9-2033) not, or not said")
    energy = _sections(page)["Energy"]
    for dev in ("NVIDIA H100 80GB HBM3: its idle power, 280.4 W", "NVIDIA H200: its idle power, 316.1 W"):
        if dev not in html.unescape(energy):
            bad.append("the idle power that contradicts the rows is not flagged: " + dev)
    print("; ".join(bad) if bad else "every mark explained where it stands, no byte flag beside a flop "
          "rate, no empty column or line, sizes with units, log axis only where needed, idle flagged")
    if bad:
        sys.exit(1)


def report_idle_ok(f):
    """An idle power below every workload's median power is not flagged."""
    assert "idle?" not in open(f).read()


def report_reduced(f):
    """The reduced copy2d tile of the fixture is listed among the rows to distrust."""
    body = _sections(open(f).read())["Rows to distrust"]
    part = body.split("Launches reduced to fit the device", 1)
    assert len(part) == 2 and re.search(r"<td>copy2d</td>.*?tile=", part[1], re.S), part[-1][:300]


# ---- test_widths.sh --------------------------------------------------------------

def list_names(short, wide):
    """Every device name of `list --wide` (between the profile and the platform) is
    whole in `list`, on its device's row."""
    rows = [re.split(r"\s{2,}", l.strip()) for l in open(wide).read().splitlines()[1:]
            if re.match(r"^\d+ ", l)]
    text = open(short).read().splitlines()
    for f in rows:
        name = f[7]
        assert any(l.startswith(f[0] + " ") and name in l for l in text), (name, text)


def summary_rows(out, f):
    """The run's summary (OUT, its stdout) against its rows (F): a block per
    workload, one line per row, each row's own figure in its block's unit
    (peak GFlop/s, latency ns, launch us, the others GB/s); the flags legend
    once, naming the letters that occur and no other."""
    lines = open(out, encoding="utf-8").read().splitlines()
    rows = read(f)
    blocks, cur = [], None
    for l in lines:
        if l.startswith("workload "):
            cur = {"head": l.split(), "rows": []}
            blocks.append(cur)
        elif not l.strip() or l.startswith("flags:"):
            cur = None
        elif cur is not None:
            cur["rows"].append(l.split())
    assert sum(len(b["rows"]) for b in blocks) == len(rows), (len(rows), [len(b["rows"]) for b in blocks])
    units = {"peak": "GFlop/s", "latency": "ns", "launch": "\u00b5s", "stream": "GB/s", "dot": "GB/s"}
    for b in blocks:
        wl = b["rows"][0][0]
        assert b["head"][4] == units.get(wl, b["head"][4]), (wl, b["head"])
    i = 0
    for b in blocks:
        for cells in b["rows"]:
            r = rows[i]
            i += 1
            cols = 4 if r["dtype"] else 3   # an untyped row has no dtype cell
            got = cells[cols]
            if r["status"] != "ok":
                assert got == "-", (r["workload"], r["kernel"], cells)
                continue
            unit = cells[cols + 1] if b["head"][4] == "figure" else b["head"][4]
            want = {"GFlop/s": r["gflops"], "ns": metrics(r).get("ns_per_load"),
                    "\u00b5s": metrics(r).get("latency_us"), "GB/s": r["gbps"]}[unit]
            assert cells[0] == r["workload"] and cells[1] == r["kernel"], (cells, r["kernel"])
            assert abs(float(got) - float(want)) <= 0.0051 * abs(float(want)) + 1e-4, (cells, want)
    legend = [l for l in lines if l.startswith("flags:")]
    shown = {c for b in blocks for cells in b["rows"] for x in cells if re.fullmatch(r"[C!B~HX]+", x) for c in x}
    assert len(legend) <= 1, legend
    text = " ".join(legend) + " " + " ".join(l for l in lines if l.startswith("       "))
    named = set(re.findall(r"(?:flags: |, )([C!B~HX]) ", text))
    assert named == shown, (named, shown)


# ---- test_pipes.sh ---------------------------------------------------------------

def jsonl_shortest(f):
    """Every real number of the JSON Lines file F is written as the shortest text
    that reads back as its value (Python's repr finds it): 0.000370309, not
    0.00037030900000000004; and the file parses."""
    bad = []
    for line in open(f):
        json.loads(line)
        for tok in re.findall(r'(?<=[:,\[])(-?\d+\.\d*(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+)(?=[,}\]])', line):
            digits = lambda t: re.sub(r"^0+|\.|[eE].*$", "", t.split("e")[0].split("E")[0].replace(".", "")).rstrip("0") or "0"
            if digits(tok) != digits(repr(float(tok))):
                bad.append((tok, repr(float(tok))))
    assert not bad, bad[:5]


# ---- test_roofline.sh --------------------------------------------------------------

def roofline_flops(f):
    """flops 0,8,128 x float,double: bytes, flops, intensity; no gflops without flops."""
    rows = read(f)
    assert len(rows) == 6, len(rows)
    for r in rows:
        fl = int(params(r)["flops"])
        es = 8 if r["dtype"] == "double" else 4
        assert int(r["bytes"]) == 2 * 65536 * es and int(r["flops"]) == 65536 * fl, r
        assert ("flop_per_byte=%g" % (fl / (2 * es))) in r["detail"], r
        assert (r["gflops"] == "") == (fl == 0), r


def roofline_muladd(f):
    """op=muladd in the params but for the copy (flops=0), its step in detail."""
    rows = read(f)
    assert len(rows) == 4 and all(r["status"] == "ok" for r in rows), rows
    for r in rows:
        mad = r["params"].endswith(",op=muladd")
        assert mad == r["params"].startswith("flops=64") and ("step x*x+a" in r["detail"]) == mad, r


# ---- test_results.sh ---------------------------------------------------------------

def results_latency_metrics(f):
    """latency rows: ns_per_load, llc_bytes, loads as metrics, the last column."""
    rows = read(f)
    assert list(rows[0].keys())[-1] == "metrics"
    for r in rows:
        m = metrics(r)
        assert float(m["ns_per_load"]) > 0 and int(m["llc_bytes"]) > 0 and int(m["loads"]) > 0, m
        assert "ns_per_load=" in r["detail"]          # the notes for people stay


def results_upgrade(v2_orig, v2, v1_orig, v1):
    """results upgrade: every old field byte-identical, the new ones empty, metrics derived."""
    def raw(p):
        with open(p, newline="") as fh:
            return list(csv.reader(fh))
    for old, new in ((v2_orig, v2), (v1_orig, v1)):
        a, b = raw(old), raw(new)
        assert len(a) == len(b) and all(len(r) == 38 for r in b), new
        for x, y in zip(a[1:], b[1:]):
            assert y[:len(x)] == x and all(v == "" for v in y[len(x):-1]), (x, y)
    lat = [r for r in raw(v2)[1:] if r[8] == "latency"]
    assert lat and all("ns_per_load=" in r[-1] and "llc_bytes=52428800" in r[-1] for r in lat)


# ---- test_latency.sh ---------------------------------------------------------------

def latency_working_sets(f):
    """11 working sets 1 KiB..1 MiB, each with ns_per_load, cycles, llc in detail."""
    rows = read(f)
    ws = [int(params(r)["ws"]) for r in rows]
    assert ws == [1024 << i for i in range(11)], ws
    assert all(
        r["size"] == "1048576" and r["bytes"] == "0" and r["gbps"] == "" and float(r["t_median_s"]) > 0
        and "ns_per_load=" in r["detail"] and "cycles=" in r["detail"] and "llc=" in r["detail"]
        and "loads=4096" in r["detail"] for r in rows), rows


def latency_summary_names(f):
    """The summary (file F): plateaus unnamed, the reported cache levels listed."""
    with open(f) as fh:
        text = fh.read().split("latency plateaus", 1)[1]
    rows, levels = text.split(" cache levels reported:\n", 1)
    for line in rows.splitlines()[1:]:
        if line.startswith("  ") and not line.startswith("  ("):
            assert re.match(r"  (plateau|transition|memory) ", line), line
    for line in levels.splitlines():
        if not line.strip() or not line.startswith("  "):
            break
        assert re.match(r"  (L\d[di]?|global memory cache) [0-9.]+ [KMG]?i?B \(", line) or "no cache level" in line, line


# ---- test_copy2d.sh ----------------------------------------------------------------

def copy2d_bytes(f):
    """bytes = 2 n1 n2 sizeof (float3 packed 12 B, float3_aligned 16 B) at 256x256."""
    want = {"float": 4, "double": 8, "float3": 12, "float3_aligned": 16, "float4": 16}
    for r in read(f):
        assert float(r["bytes"]) == 2 * 256 * 256 * want[r["dtype"]], r


def copy2d_coalesced_order(src):
    """copy2d.cl's coalesced: no restrict, one load, stored as it is loaded."""
    with open(src) as fh:
        text = fh.read()
    m = re.search(r"void coalesced\(([^)]*)\)\s*\{(.*?)\n\}", text, re.S)
    args, body = m.group(1), m.group(2)
    assert "restrict" not in args, args
    assert body.count("LOAD(") == 1 and "STORE(LOAD(" in body, body


# ---- test_compare_lineup.sh --------------------------------------------------------

def lineup_cache_rows(src, out):
    """OUT: SRC's cache-resident rows, once as Cache Dev A, once as Cache Dev B."""
    rows = [r for r in read(src) if "cache_resident" in r["detail"]]
    assert rows, "sizes.csv has no cache_resident row"
    write(out, list(rows[0].keys()),
          [dict(r, device=dev) for dev in ("Cache Dev A", "Cache Dev B") for r in rows], crlf=True)


def lineup_vary(template, out):
    """OUT (TEMPLATE's header): two GPUs whose stream sizes differ, with bus
    rows at two sizes and latency rows over two working sets (one cache-resident)."""
    head = header(template)
    base = dict.fromkeys(head, "")
    base.update(run_id="v", timestamp="2026-11-20T10:00:00Z", host="h", platform="P", device_type="gpu",
                driver="1", warmup="1", reps="5", status="ok")
    rows = []
    for d, (dev, stream_size) in enumerate((("Vary GPU A", "268435456"), ("Vary GPU B", "536870912"))):
        rows.append(dict(base, device=dev, workload="stream", kernel="copy", dtype="float", size=stream_size,
                         bytes="8", t_median_s="1", gbps=str(100 + d)))
        for size, gbps in (("4096", 1), ("1048576", 10)):
            rows.append(dict(base, device=dev, workload="bus", kernel="pageable_h2d", size=size, bytes=size,
                             t_median_s="1", gbps=str(gbps + d)))
        for ws, ns, cached in ((1024, 2, True), (1048576, 90, False)):
            rows.append(dict(base, device=dev, workload="latency", kernel="chase", size="1048576",
                             params="ws=%d,stride=64" % ws, t_median_s="1",
                             detail="loads=4096 ns_per_load=%d" % ns +
                             ("; cache_resident (1 MB < 4 x 1 MB cache)" if cached else "")))
    write(out, head, rows, crlf=True)


# ---- test_camping.sh ---------------------------------------------------------------

def camping_distances(f):
    """distances 0..1024 step 256 per type, bytes constant."""
    rows = read(f)
    for t in ("float", "double", "float4"):
        rs = [r for r in rows if r["dtype"] == t]
        d = [int(r["params"].split("distance=")[1]) for r in rs]
        assert d == [0, 256, 512, 768, 1024], d
        assert len({r["bytes"] for r in rs}) == 1, t


def camping_many(f):
    """One ok row: the quick size fits 528 groups of 16 KiB chunks."""
    (r,) = read(f)
    assert int(r["size"]) == 4194304 and r["status"] == "ok", (r["size"], r["status"])
    assert "chunk 16384 B per group" in r["detail"], r["detail"]


# ---- test_blockeq.sh ---------------------------------------------------------------

def blockeq_tiles(f, want_float, want_double):
    """Tiles one partition (256 B) wide, 512 work-items: 64x8 float, 32x16
    double, or what the device reduces them to (WANT_FLOAT, WANT_DOUBLE)."""
    for r in read(f):
        want = want_float if r["dtype"] == "float" else want_double
        assert r["local_size"] == want and ("tile " + want) in r["detail"], r


def blockeq_default_sweep(f):
    """The default CPU sweep of partitions: 1, c, 2c, each once."""
    v = sorted(int(param(r, "partitions")) for r in read(f))
    c = v[-1] // 2
    assert v[-1] % 2 == 0 and set(v) == {1, c, 2 * c} and len(v) == len(set(v)), v


# ---- test_compare_ceilings.sh --------------------------------------------------

def compare_ceilings_json(f):
    """compare --json over measured ceilings: the ceilings, what each device lacks, the values."""
    with open(f) as fh:
        d = json.load(fh)
    a, b = d["columns"]
    assert d["metric"]["name"] == "pct_measured_peak" and d["untyped"] == "int"
    assert a["measured_ceilings"]["bandwidth_gbs"]["value"] == 1000
    assert a["measured_ceilings"]["fp32_gflops"]["source"].startswith("peak fma")
    assert a["lacks"] == [] and b["lacks"] == ["memory bandwidth", "fp32 compute"]
    assert b["measured_ceilings"]["bandwidth_gbs"] is None
    l = [x for x in d["lines"] if x["workload"] == "dslash"][0]
    assert abs(l["values"][0]["value"] - 7.5) < 1e-9 and l["values"][1] is None


# ---- test_interface.sh ---------------------------------------------------------

def interface_probe(f):
    """The probe workload's rows: of_copy, of_stream_copy, model and counts
    filled by the core."""
    rows = [r for r in read(f) if r["workload"] == "probe"]
    by = {r["kernel"]: r for r in rows}
    t, c = by["twice"], by["copy"]
    n = 65536
    ok = (int(t["bytes"]) == 2 * 4 * n and int(t["flops"]) == n and int(c["flops"]) == 0
          and "of_copy=" in t["detail"] and "of_stream_copy=" in t["detail"]
          and "of_stream_copy=" in c["detail"] and "of_copy=" not in c["detail"]
          and t["model"] != "" and abs(float(t["model"]) - 50) < 1e-6
          and t["profile"] == "pocl_probe" and t["clbench_version"] != "" and t["rank"] == "0")
    print(t["detail"], t["model"])
    assert ok, (t, c)


# ---- test_jsonl.sh -------------------------------------------------------------

def to_jsonl(src, dst, num):
    """DST: the rows of the results CSV SRC as JSON Lines (the reference the
    reader is held to): empty fields null, the columns NUM (space-separated)
    numbers, metrics an object. Exit 1 when SRC is not a results file, 3 when
    it is not UTF-8."""
    num = set(num.split())
    try:
        with open(src, newline="", encoding="utf-8") as fh:
            rows = list(csv.reader(fh))
    except UnicodeDecodeError:
        sys.exit(3)   # not UTF-8: JSON cannot hold it as it is (the writer makes such bytes '?')
    if not rows or rows[0][0].lstrip("\ufeff") != "run_id":
        sys.exit(1)
    head = [h.lstrip("\ufeff") for h in rows[0]]
    out = []
    for r in rows[1:]:
        if len(r) != len(head):
            sys.exit(1)
        o = {}
        for k, v in zip(head, r):
            if v == "":
                o[k] = None
            elif k in num:
                x = float(v)
                o[k] = int(x) if x == int(x) and k in ("warmup", "reps", "bytes", "flops", "ranks") else x
            elif k == "metrics":
                m = {}
                for kv in v.split(";"):
                    key, val = kv.split("=", 1)
                    m[key] = float(val) if re.fullmatch(r"-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", val) else val
                o[k] = m
            else:
                o[k] = v
        out.append(json.dumps(o, ensure_ascii=False))
    with open(dst, "w", encoding="utf-8") as fh:
        fh.write("".join(l + "\n" for l in out))


# ---- test_model_scaling.sh -----------------------------------------------------

def model_scaling_cases(f):
    """Print the fit case (shm: the message rate that explains dslash reg rhs 1
    weak's 2-rank chain) and each case's time per operator application at 1
    and 2 ranks."""
    rows = list(read(f))
    def metric(r, k):
        for w in r["detail"].replace(";", " ").split():
            if w.startswith(k + "="):
                return float(w.split("=")[1])
    def find(wl, k, rhs, sc, n):
        for r in rows:
            p = dict(kv.split("=", 1) for kv in r["params"].split(",") if "=" in kv)
            if (r["workload"], r["kernel"], p.get("rhs"), p.get("scaling"), r["ranks"], r["rank"]) == \
               (wl, k, rhs, sc, str(n), "all"):
                return r
    f1, f2 = find("dslash", "reg", "1", "weak", 1), find("dslash", "reg", "1", "weak", 2)
    shm = metric(f1, "halo_bytes") / ((metric(f2, "halo_ms_max") - metric(f1, "halo_ms_max")) * 1e-3) / 1e9
    print("shm %.6g" % shm)
    for wl, k, rhs, sc in [("dslash", "reg", "1", "weak"), ("dslash", "cache", "1", "weak"),
                           ("dslash", "reg", "4", "weak"), ("dslash", "cache", "4", "weak"),
                           ("cg", "reg", "1", "weak"), ("cg", "reg", "4", "weak"),
                           ("dslash", "reg", "1", "strong"), ("dslash", "cache", "1", "strong"),
                           ("dslash", "reg", "4", "strong"), ("dslash", "cache", "4", "strong")]:
        r1, r2 = find(wl, k, rhs, sc, 1), find(wl, k, rhs, sc, 2)
        op = metric(r1, "exchanges") or 1
        print(wl, k, rhs, sc, float(r1["t_median_s"]) * 1e3 / op, float(r2["t_median_s"]) * 1e3 / op)


def node_e(f, wl, rhs, size):
    """Print E of the 2-device aggregate row of WL at RHS on SIZE (default chunk) over
    twice the plain row of the same file."""
    rows = read(f)
    def pick(dist):
        return [r for r in rows if r["workload"] == wl and r["size"] == size
                and r["rank"] == ("all" if dist else "0") and param(r, "rhs") == rhs and ("scaling=" in r["params"]) == dist
                and "chunk=" not in r["params"] and (not dist or "devices_per_rank" in r["metrics"])]
    plain, two = pick(False), pick(True)
    assert plain and two, (len(plain), len(two))
    print("%.4f" % (float(two[0]["gflops"]) / (2 * float(plain[0]["gflops"]))))


# ---- test_plot_robust.sh -------------------------------------------------------

def plot_no_figure(src, dst):
    """DST: SRC's stream rows, and its transpose rows skipped, without a figure."""
    with open(src, newline="") as fh:
        rows = list(csv.reader(fh))
    h = rows[0]; col = {k: i for i, k in enumerate(h)}
    out = [h] + [r for r in rows[1:] if r[col["workload"]] == "stream"]
    for r in rows[1:]:
        if r[col["workload"]] == "transpose":
            r = list(r); r[col["status"]] = "skipped"; r[col["detail"]] = "no images"
            for k in ("gbps", "gbps_best", "gflops", "pct_peak_bw"): r[col[k]] = ""
            out.append(r)
    with open(dst, "w", newline="") as fh:
        csv.writer(fh).writerows(out)


# ---- test_total_readers.sh -----------------------------------------------------

def total_readers_crafted(src, dst, dev):
    """DST: the ceilings fixture SRC's rows (and again for device DEV), and
    latency rows whose params or metrics are broken in every way one at a time."""
    with open(src, newline="") as fh:
        rows = list(csv.reader(fh))
    head, out = rows[0] + ["metrics"], [rows[0] + ["metrics"]]
    col = {h: i for i, h in enumerate(head)}
    lat = [r + [""] for r in rows[1:] if r[col["workload"]] == "latency"]
    stream = [r + [""] for r in rows[1:] if r[col["workload"]] == "stream"]
    def put(r, params=None, metrics=None, device=None):
        r = list(r)
        if params is not None: r[col["params"]] = params
        if metrics is not None: r[col["metrics"]] = metrics
        r[col["device"]] = device or r[col["device"]]
        out.append(r)
    for device in (None, dev):
        for r in stream:
            put(r, device=device)
        good = "loads=65536;ns_per_load=600;cycles=1188;clock_mhz=1980;llc_bytes=52428800"
        for r in lat:
            put(r, metrics=good, device=device)                    # whole rows first
        put(lat[0], params="ws=1024", metrics=good, device=device)              # no stride
        put(lat[1], params="stride=128", metrics=good, device=device)           # no ws
        put(lat[2], params="ws=abc,stride=x", metrics=good, device=device)      # not numbers
        put(lat[3], params="ws=,stride=", metrics=good, device=device)          # empty values
        put(lat[4], params="", metrics="", device=device)                       # nothing
        put(lat[5], metrics="ns_per_load=tok", device=device)                   # a token
        put(lat[6], params="ws=1e400,stride=-1", metrics=good, device=device)   # out of range
    with open(dst, "w", newline="") as fh:
        csv.writer(fh).writerows(out)


# ---- test_watchdog.sh ----------------------------------------------------------

def watchdog_rows(f):
    """stream rows whole and ok, one timeout error row for launch."""
    rows = read(f)
    st = [r for r in rows if r["workload"] == "stream"]
    ln = [r for r in rows if r["workload"] == "launch"]
    ok = (len(st) == 4 and all(r["status"] == "ok" and r["t_median_s"] for r in st)
          and len(ln) == 1 and ln[0]["status"] == "error" and ln[0]["detail"].startswith("timeout: ")
          and all(len(r) == 38 for r in rows))
    assert ok


# ---- test_dot.sh -------------------------------------------------------------------

def ok_sizes(f, want):
    """WANT distinct sizes among the ok rows."""
    n = len({r["size"] for r in read(f) if r["status"] == "ok"})
    assert n == int(want), n


# ---- test_launch.sh ----------------------------------------------------------------

def launch_rows(f):
    """t_* carry the latency, detail latency_us=, bytes and flops 0."""
    rows = by(read(f), "kernel")
    assert all(float(r["t_median_s"]) > 0 and r["bytes"] == "0" and r["flops"] == "0" and r["gbps"] == ""
               and r["gflops"] == "" and "latency_us=" in r["detail"] and "cache_resident" not in r["detail"]
               for r in rows.values()), rows
    assert rows["rate"]["params"] == "batch=100" and "start_to_end_us=" in rows["dispatch"]["detail"], rows
    us = float(rows["roundtrip"]["detail"].split("latency_us=")[1].split(";")[0])
    assert abs(us - float(rows["roundtrip"]["t_median_s"]) * 1e6) < 0.01, rows["roundtrip"]


# ---- test_kernels.sh ---------------------------------------------------------------

def kernel_choices(f):
    """Print "WORKLOAD KERNEL TYPE" for each workload with two kernels or more
    among F's ok rows: its last kernel and that row's type (- when untyped)."""
    seen = {}
    for r in read(f):
        if r["status"] != "ok":
            continue
        ks = seen.setdefault(r["workload"], {})
        ks.pop(r["kernel"], None)
        ks[r["kernel"]] = r["dtype"] or "-"
    out = [(w, *list(ks.items())[-1]) for w, ks in seen.items() if len(ks) >= 2]
    assert out, seen
    for w, k, t in out:
        print(w, k, t)


def only_kernel(f, wl, k):
    """At least one ok row of workload WL, and every row of it of kernel K."""
    rows = of(read(f), wl)
    assert rows and all(r["kernel"] == k for r in rows), [(r["kernel"], r["status"]) for r in rows]
    assert any(r["status"] == "ok" for r in rows), [(r["kernel"], r["status"]) for r in rows]


# ---- test_peak.sh ------------------------------------------------------------------

def peak_rows(f, want):
    """WANT rows not of half (half: ok, or skipped for cl_khr_fp16), each with
    its flops and bytes from the params, no %peak_bw, no cache mark, its model by type."""
    rows = of(read(f), "peak")
    bad = []
    for r in rows:
        if r["dtype"] == "half":   # PoCL here has no cl_khr_fp16: skipped with the reason
            if r["status"] == "ok" or "cl_khr_fp16" in r["detail"]:
                continue
            bad.append(("half", r["status"], r["detail"]))
            continue
        p = params(r)
        vec, acc, items = int(p["vec"]), int(p["acc"]), int(p["groups"]) * int(p["local"])
        es = 8 if r["dtype"] == "double" else 4
        want_flops = items * (2 * 4096 + acc * vec + vec)
        want_bytes = 64 * acc * vec * es + items * es
        model = {"float": "1000", "double": "500", "int": ""}[r["dtype"]]
        if (int(r["flops"]) != want_flops or int(r["bytes"]) != want_bytes or r["pct_peak_bw"] != ""
                or "cache_resident" in r["detail"] or "per_cu_cycle=" not in r["detail"]
                or float(r["gflops"]) <= 0 or (r["model"] and float(r["model"])) != (model and float(model))):
            bad.append((r["dtype"], r["params"], r["flops"], want_flops, r["bytes"], want_bytes, r["model"]))
    n = len([r for r in rows if r["dtype"] != "half"])
    assert n == int(want) and not bad, (n, bad)


# ---- test_compare_units.sh -----------------------------------------------------------

def metrics_doc(doc, listing):
    """docs/RESULTS.md's table of metric keys gives each key the unit and the better
    way that `clbench compare --list-metrics` (LISTING, the code's declaration) does,
    and lists every key the code declares."""
    code = {}
    for line in open(listing).read().splitlines()[1:]:
        m = re.match(r"(\S+)\s+(.*?)\s+(higher|lower|-)\s+", line)
        assert m, line
        code[m.group(1)] = (m.group(2), m.group(3))
    text = open(doc).read()
    table = text[text.index("| key | unit | better |"):]
    table = table[:table.index("\n\n")].splitlines()[2:]
    seen, bad = set(), []
    for line in table:
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        keys = re.findall(r"`([a-z0-9_<>]+)`", cells[0])
        units = [u.strip() for u in cells[1].split(",")]
        better = [b.strip() for b in cells[2].split(",")]
        for i, k in enumerate(keys):
            k = "of_*" if k.startswith("of_<") else k
            unit, bet = units[min(i, len(units) - 1)], better[min(i, len(better) - 1)]
            seen.add(k)
            if unit == "token":
                if k in code:
                    bad.append((k, "a token that -m takes"))
                continue
            if code.get(k) != (unit, bet):
                bad.append((k, (unit, bet), code.get(k)))
    builtin = {"auto", "gbps", "gbps_best", "gflops", "pct_peak", "pct_measured_peak",
               "gflops_per_watt", "gbps_per_watt", "power"}
    bad += [(k, "not in docs/RESULTS.md") for k in code if k not in seen and k not in builtin]
    assert not bad, bad


def cache_only(f, workload):
    """Print yes when every ok row of WORKLOAD in F is cache-resident (metrics), else no."""
    rows = [r for r in read(f) if r["workload"] == workload and r["status"] == "ok"]
    assert rows, (f, workload)
    print("yes" if all(metrics(r).get("cache_resident") == "1" for r in rows) else "no")


def compare_units(f):
    """compare --json of the H100 and H200 suites: each workload in its own unit."""
    d = json.load(open(f))
    assert d["metric"]["name"] == "auto" and d["metric"]["unit"] is None
    want = {"stream": "GB/s", "copy2d": "GB/s", "transpose": "GB/s", "dot": "GB/s", "bus": "GB/s",
            "peak": "GFlop/s", "matmul": "GFlop/s", "dslash": "GFlop/s", "cg": "GFlop/s",
            "launch": "\u00b5s", "latency": "ns"}
    bad, seen = [], set()
    for l in d["lines"]:
        w = l["workload"]
        unit = want.get(w)
        if w == "roofline":
            unit = "GB/s" if l["sweep"].startswith("flops=0") or "flops=0" in l["sweep"].split() else "GFlop/s"
        seen.add(w)
        if unit and l["unit"] != unit:
            bad.append((w, l["kernel"], l["sweep"], l["unit"], unit))
        if l["unit"] in ("\u00b5s", "ns") and l["higher_is_better"] is not False:
            bad.append((w, l["kernel"], "a time, higher is better?"))
    assert not bad and set(want) <= seen, (bad, set(want) - seen)


# ---- test_gate_recipes.sh --------------------------------------------------------------

def recipes(doc, outdir):
    """The CI recipes of DOC (docs/COMPARE.md, "Using the gate in CI"), verbatim: each
    YAML block's commands into OUTDIR/recipe-K.sh (its run lines alone into
    recipe-K-run.sh) and its environment's keys into recipe-K.env; prints K per recipe."""
    text = open(doc).read()
    sec = text[text.index("### Using the gate in CI"):]
    sec = sec[:sec.index("\n### ", 10)]
    blocks = re.findall(r"```yaml\n(.*?)```", sec, re.S)
    assert len(blocks) >= 2, "no YAML recipes in %s" % doc
    for k, b in enumerate(blocks, 1):
        lines = b.splitlines()
        env, cmds, mode = [], [], None
        for line in lines:
            stripped = line.strip()
            if re.match(r"(env|variables):$", stripped):
                mode = "env"
            elif re.match(r"run: \|$", stripped):
                mode = "run"
            elif stripped == "script:":
                mode = "script"
            elif mode == "env" and re.match(r"[A-Z_]+:", stripped):
                env.append(stripped.split(":")[0])
            elif mode == "run" and stripped.startswith("./"):
                cmds.append(stripped)
            elif mode == "script" and stripped.startswith("- ./"):
                cmds.append(stripped[2:])
            elif stripped and not stripped.startswith("#"):
                mode = None if mode != "run" or not stripped.startswith("./") else mode
        assert cmds and env, (k, cmds, env)
        with open("%s/recipe-%d.sh" % (outdir, k), "w") as f:
            f.write("\n".join(cmds) + "\n")
        with open("%s/recipe-%d-run.sh" % (outdir, k), "w") as f:
            f.write("\n".join(c for c in cmds if " run " in c) + "\n")
        with open("%s/recipe-%d.env" % (outdir, k), "w") as f:
            f.write(" ".join(env) + "\n")
        print(k)


def replay(src, workloads, out, run=""):
    """OUT: the rows of SRC (its RUN-th run id only, when given) whose workload is one
    of WORKLOADS (comma list): a committed run replayed as if it ran again."""
    rows = read(src)
    ids = list(dict.fromkeys(r["run_id"] for r in rows))
    keep = set(workloads.split(","))
    rows = [r for r in rows if r["workload"] in keep and (not run or r["run_id"] == ids[int(run) - 1])]
    assert rows, (src, workloads, run)
    write(out, header(src), rows)
# ---- test_mpi_node.sh ----------------------------------------------------------

def node_aggregates(f, n):
    """Every configuration of a run on N devices of one process: N rows (rank 0..N-1,
    devices_per_rank N, ranks N), then its aggregate (rank all) whose bytes and flops
    are their sums."""
    rows, n = read(f), int(n)
    assert rows and all(r["status"] == "ok" for r in rows), [(r["rank"], r["status"]) for r in rows]
    aggs = [i for i, r in enumerate(rows) if r["rank"] == "all"]
    assert aggs and len(rows) == len(aggs) * (n + 1), (len(rows), len(aggs))
    for i in aggs:
        a, mine = rows[i], rows[i - n:i]
        assert [r["rank"] for r in mine] == [str(k) for k in range(n)], [r["rank"] for r in mine]
        assert all(int(r["ranks"]) == n and metrics(r)["devices_per_rank"] == str(n) for r in mine + [a])
        for c in ("bytes", "flops"):
            if a[c]:
                assert abs(float(a[c]) - sum(float(r[c]) for r in mine)) <= 1e-9 * float(a[c]), (c, a[c])


def node_split(f, ref, n, path):
    """dslash and cg split over N ranks (devices) against one device's run of the same
    global lattice (REF): every row ok; each rank's halos on PATH (node, mpi or node+mpi
    over the job's ranks); dslash's w_hash (every site's output bits) the same as the
    one device's, cg the same iterations and true residuals within 5 % (the order of
    the sums differs)."""
    rows, one, n = read(f), read(ref), int(n)
    assert rows and all(r["status"] == "ok" for r in rows), [(r["rank"], r["status"], r["detail"][-160:]) for r in rows if r["status"] != "ok"]
    paths = set()
    for r in rows:
        if r["rank"] != "all":
            paths.update(metrics(r)["halo_path"].split("+"))
    assert "+".join(sorted(paths, key=["self", "node", "mpi"].index)) == path, (paths, path)
    def key(r):
        p = params(r)
        return (r["workload"], p["rhs"], p["links"])
    want = {key(r): r for r in one if r["rank"] in ("0", "all")}
    aggs = [r for r in rows if r["rank"] == "all"]
    assert aggs and all(int(r["ranks"]) == n for r in aggs), [r["ranks"] for r in aggs]
    for a in aggs:
        w = want[key(a)]
        if a["workload"] == "dslash":
            assert metrics(a)["w_hash"] == metrics(w)["w_hash"], (key(a), metrics(a)["w_hash"], metrics(w)["w_hash"])
        else:
            assert param(a, "iters") == param(w, "iters"), (key(a), param(a, "iters"), param(w, "iters"))
            res = [float(x) for x in a["detail"].split("true_res=")[1].split()[0].split(":")]
            res1 = [float(x) for x in w["detail"].split("true_res=")[1].split()[0].split(":")]
            # the inner products sum in another order per split: a residual near 1e-6 moves
            # by up to a percent (measured 0.8 %)
            assert all(abs(x / y - 1) < 0.05 for x, y in zip(res, res1)), (res, res1)


# ---- test_gate_changed.sh -----------------------------------------------------------------

def fp_rows(f):
    """Every ok row of F carries the metric fp, s<12 hex>-o<8 hex>; kernels differ."""
    rows = [r for r in read(f) if r["status"] == "ok"]
    fps = [metrics(r).get("fp", "") for r in rows]
    assert rows and all(re.fullmatch(r"s[0-9a-f]{12}-o[0-9a-f]{8}", x) for x in fps), fps
    assert len(set(fps)) > 1, fps


# ---- the command line ------------------------------------------------------------

CHECKS = {name.replace("_", "-"): fn for name, fn in dict(globals()).items()
          if callable(fn) and fn.__module__ == __name__ and not name.startswith("_")
          and name not in ("read", "metrics", "params", "param", "of", "by", "ok_unless", "write", "header", "main")}


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
