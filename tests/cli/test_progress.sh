#!/usr/bin/env bash
# Progress that holds: in a multi-workload run the total of "[i/N]" is exact
# from the first line (every workload planned before the first case, each
# plan what its set-up adds), ends at N = the rows written, and every line
# carries its own figure (latency: ns per load, launch: us). An ETA is shown
# only where it can be made -- never on the first line, where nothing is
# measured yet -- and is never far above what the run took (transpose's
# first --quick case, set-up and builds in it, once gave "ETA 22m55s" for a
# 7 s run); by the last workload it is whole (no ">").
source "$(dirname "$0")/lib.sh"
set -e
t0=$(date +%s.%N)
expect_status 0 "transpose, stream, latency, launch, peak in one run" \
  run transpose,stream,latency,launch,peak --quick -d $POCL -t float -n 2 --warmup 0 -o p.csv
wall1=$(python3 -c "import sys, time; print('%.1f' % (time.time() - float(sys.argv[1])))" "$t0")
grep '^\[' "$TMP/stderr" > lines || true
n=$(wc -l < lines)
totals=$(sed -E 's/^\[[0-9]+\/([0-9]+)\].*/\1/' lines | sort -u)
rows=$(($(wc -l < p.csv) - 1))
first=$(head -1 lines)
if [ "$(echo "$totals" | wc -l)" -eq 1 ] && [ "$totals" -eq "$rows" ] && [ "$n" -eq "$rows" ]; then
  pass "the total is $totals on every one of $n lines, from the first: $first"
else
  fail "totals over the run: $(echo $totals) for $rows rows and $n lines; first: $first"
fi
last=$(tail -1 lines)
echo "$last" | grep -q "^\[$rows/$rows\]" && pass "the last line is [$rows/$rows]" || fail "last: $last"
bad=$(grep ' latency ' lines | grep -v 'ns per dependent load ok' || true)
[ -z "$bad" ] && grep -q ' latency ' lines && pass "latency lines carry ns per load" \
  || fail "latency lines without their figure: $(echo "$bad" | head -2)"
# transpose's first case (set-up, builds, probes in it) carried to the rest once
# printed ETA 22m55s for a 7 s run
rows progress-eta lines "$wall1" 0 && pass "no ETA above 3 x the run's $wall1 s" ||
  fail "ETA beyond the run: $(grep ETA lines | head -3)"
# --dry-run: the same plan before anything runs, and no file
run_cb run transpose,stream,latency,launch,peak --quick -d $POCL -t float --dry-run -o plan.csv
echo "$OUT_TXT" >plan.txt
[ "$RC" -eq 0 ] && [ ! -e plan.csv ] && rows plan-cases plan.txt "$rows" &&
  pass "--dry-run: the plan's $rows cases, sizes with units, footprints, a time bound; no file" ||
  fail "--dry-run: exit $RC: $(head -5 plan.txt) $ERR_TXT"
bad=$(grep ' launch ' lines | grep -Ev ': [0-9.]+ µs ok' || true)
[ -z "$bad" ] && grep -q ' launch ' lines && pass "launch lines carry their latency in us" \
  || fail "launch lines without their figure: $(echo "$bad" | head -2)"
# the ETA: cases of 0.3 s each, so that it shows (one under a second is not printed)
t0=$(date +%s.%N)
expect_status 0 "latency then transpose, 0.3 s a case" run latency,transpose --quick -d $POCL \
  -t float -n 1000 --min-time 0.3 --max-time 0.3 --tolerance 0 -o e.csv
wall=$(python3 -c "import sys, time; print('%.1f' % (time.time() - float(sys.argv[1])))" "$t0")
grep '^\[' "$TMP/stderr" > eta || true
head -1 eta | grep -q 'ETA' && fail "an ETA on the first line: $(head -1 eta)" ||
  pass "no ETA before anything is measured"
if rows progress-eta eta "$wall"; then pass "every ETA within 3 x the run's $wall s; whole in transpose's lines"
else fail "ETA: $(grep ETA eta | head -3)"; fi
finish
