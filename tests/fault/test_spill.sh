#!/usr/bin/env bash
# dslash when the driver says a build spills: the injector
# makes the build log of the RHS=4 program read as NVIDIA's ptxas report of a
# 'dslash' that spills (CLBENCH_SPILL_LOG). `reg` with pass=0 then runs in
# passes of 2 and names the build that spilled; `reg` with pass=4 (one pass)
# runs the spilling build and its row is flagged, with the registers and
# spill stores as metrics; every row still validates.
source "$(dirname "$0")/../cli/lib.sh"
source "$(dirname "$0")/rel_lib.sh"
set -e
set +e
CLBENCH_SPILL_LOG="-DRHS=4 " CLBENCH_FAULT_LOG="$TMP/fault.log" LD_PRELOAD="$PRELOAD" \
  "$CLBENCH" run dslash -d cpu -s 8x8x8x4 -t float --param rhs=4 --param links=compressed \
  --param kernels=reg,best --param pass=0,4 -n 1 --warmup 0 -q -o spill.csv >"$TMP/out" 2>"$TMP/err"
rc=$?
set -e
[ "$rc" -eq 0 ] && pass "run ok" || fail "exit $rc: $(cat "$TMP/err")"
grep -q "spill report" "$TMP/fault.log" 2>/dev/null && pass "the fake report was read" ||
  fail "the injector's report was never read"
python3 - spill.csv <<'PY' && pass "auto passes, flag and metrics" || fail "spill rows wrong"
import csv, sys
rows = {(r["kernel"], r["params"]): r for r in csv.DictReader(open(sys.argv[1]))}
def metrics(r):
    return dict(kv.split("=", 1) for kv in r["metrics"].split(";") if kv)
auto = rows[("reg", "rhs=4,links=compressed,pass=2")]        # pass=0: the RHS=4 build spills
one = rows[("reg", "rhs=4,links=compressed")]                # pass=4: one pass, spilling
best = rows[("best", "rhs=4,links=compressed")]
for r in (auto, one, best):
    assert r["status"] == "ok", r
assert "RHS=4 spills (spill stores 1428 B in the build log)" in auto["detail"], auto["detail"]
m = metrics(auto)
assert m["rhs_per_item"] == "4" and m["rhs_per_pass"] == "2" and "spill" not in m, m
m = metrics(one)
assert m["spill"] == "1" and m["registers"] == "255" and m["spill_store_bytes"] == "1428", m
assert m["rhs_per_pass"] == "4", m
assert "the kernel spills (spill stores in the build log)" in one["detail"], one["detail"]
# best's probe tries reg with pass=0 (two passes of 2), cache and regcache k=2
assert "probe: reg" in best["detail"] and "regcache k=2" in best["detail"], best["detail"]
PY
finish
