#!/usr/bin/env bash
# A second OpenCL implementation of the same CPU: Mesa's Rusticl on llvmpipe
# (mesa-opencl-icd, enabled by RUSTICL_ENABLE=llvmpipe, which CTest sets).
# Every registered workload --quick in one run (label rusticl,
# docs/PORTABILITY.md). Expected: a normal exit (0); per workload, ok rows,
# no failed or error row, skips only for a type the device lacks (fp64,
# fp16), for what only trusted device timestamps can measure (launch
# dispatch) or for a loop longer than llvmpipe runs (transpose serial); no impossible figure; the device's false event timer found, its
# kernels timed on the host clock and said so.
source "$(dirname "$0")/../cli/lib.sh"
set -e
DEV=$("$CLBENCH" list --wide 2>/dev/null | awk '/llvmpipe/ && /rusticl/ {print $1; exit}')
if [ -z "$DEV" ]; then
  fail "no Rusticl llvmpipe device in 'clbench list' (install mesa-opencl-icd; RUSTICL_ENABLE=llvmpipe)"
  finish
fi
pass "Rusticl llvmpipe is device $DEV (PoCL is $POCL)"
WORKLOADS=$("$CLBENCH" --help | awk '/^workloads:/ {f = 1; next} f && /^  [a-z0-9_]+ / {print $1} f && /^$/ {exit}')

t0=$(date +%s)
run_cb run all --quick -d $DEV -n 3 --warmup 1 -o rusticl.csv
t1=$(date +%s)
[ "$RC" -eq 0 ] && pass "run all --quick on Rusticl: exit 0 in $((t1 - t0)) s" ||
  fail "run all --quick on Rusticl: exit $RC after $((t1 - t0)) s: $(grep -v '^\[' "$TMP/stderr" | tail -n 3)"
grep -q "^timer: .* rows timed on the host clock" "$TMP/stdout" &&
  pass "the summary says once that the host clock timed the kernels" || fail "no timer line in the summary"

[ -f rusticl.csv ] || { fail "no results file"; finish; }
# a run that ended early: each workload it never reached on its own, so that
# every workload still gets its verdict
if [ "$RC" -ne 0 ]; then
  for w in $WORKLOADS; do
    python3 -c 'import csv,sys; sys.exit(any(r["workload"] == sys.argv[2] for r in csv.DictReader(open(sys.argv[1]))))' \
      rusticl.csv "$w" || continue
    run_cb run "$w" --quick -d $DEV -n 3 --warmup 1 -o rusticl.csv
    [ "$RC" -le 1 ] || [ "$RC" -eq 4 ] || fail "$w alone: exit $RC: $(grep -v '^\[' "$TMP/stderr" | tail -n 1)"
  done
fi
python3 - rusticl.csv $WORKLOADS <<'PY' > verdicts.txt || true
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
# (and llvmpipe's loop limit: transpose serial's one work-item loops over the
# whole matrix, docs/PORTABILITY.md "Loops")
allowed_skips = ("has no fp64", "has no half precision", "needs the device's event timestamps",
                 "ends a work-item's loops after")
for w in sys.argv[2:]:
    mine = [r for r in rows if r["workload"] == w]
    bad = []
    if not any(r["status"] == "ok" for r in mine):
        bad.append("no ok row" + ("" if mine else " (no row at all)"))
    for r in mine:
        what = "%s %s %s %s" % (r["kernel"], r["dtype"], r["size"], r["params"])
        if r["status"] in ("failed", "error"):
            bad.append("%s: %s: %s" % (what, r["status"], r["detail"][:160]))
        elif r["status"] == "skipped" and not any(a in r["detail"] for a in allowed_skips):
            bad.append("%s: skipped: %s" % (what, r["detail"][:160]))
        elif r["status"] == "ok":
            if "impossible=1" in r["metrics"].split(";"):
                bad.append("%s: impossible figure" % what)
            t = float(r["t_min_s"] or "nan")
            if not t >= 1e-6:   # no kernel launch on this device is that short: a false timer
                bad.append("%s: t_min_s %s" % (what, r["t_min_s"]))
    print("%s %s%s" % ("ok" if not bad else "FAIL", w, "" if not bad else ": " + "; ".join(bad[:4])
                       + (" (+%d more)" % (len(bad) - 4) if len(bad) > 4 else "")))
st = [r for r in rows if r["workload"] == "stream" and r["status"] == "ok"]
print("%s stream timed on the host clock" % ("ok" if st and all(
    "timer=host (" in r["detail"] and "timer_host=1" in r["metrics"].split(";") for r in st) else "FAIL"))
PY
while read -r verdict rest; do
  if [ "$verdict" = ok ]; then pass "$rest"; else fail "$rest"; fi
done < verdicts.txt
[ -s verdicts.txt ] || fail "the rows could not be checked"
finish
