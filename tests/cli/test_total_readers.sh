#!/usr/bin/env bash
# Readers that are total (docs/RESULTS.md, "Guarantees"): rows whose params
# or metrics are not what their workload writes (a parameter missing, or not
# a number) never crash a consumer of rows: compare with every metric and
# --plot, report, model --ceilings, run --ceilings. Such rows are skipped with a
# counted warning. (A latency row without `stride` once made all four die
# with SIGSEGV while latency grouped its rows into sweeps.)
source "$(dirname "$0")/lib.sh"
set -e
S="$CLBENCH_SRC"
# this machine's device name, for run --ceilings (which takes its own device's rows)
"$CLBENCH" run latency --quick -d $POCL -n 1 --warmup 0 -q -o mine.csv >/dev/null
DEV=$(csv_col mine.csv device | head -1)

# crafted FILE DEVICE: the ceilings fixture's rows (for DEVICE), and latency
# rows whose params or metrics are broken in every way one at a time
rows total-readers-crafted "$S/tests/data/ceilings/fixture.csv" crafted.csv "$DEV"

# no_signal WHAT: the last command ended by itself (no SIGSEGV, no sanitizer report)
no_signal() {
  if [ "$RC" -ge 128 ] || echo "$ERR_TXT" | grep -Eq 'Sanitizer|runtime error'; then
    fail "$1: exit $RC: $(echo "$ERR_TXT" | tail -3)"
  else pass "$1: exit $RC, no crash"; fi
}
metrics=$("$CLBENCH" compare --help | awk '/--metric/ {f = 1; next} f && /^  -/ {exit} f {print $1}')
[ -n "$metrics" ] || fail "no metrics from compare --help"
for m in $metrics; do
  run_cb compare crafted.csv -m "$m"; no_signal "compare -m $m"
done
run_cb compare crafted.csv -m pct_measured_peak; no_signal "compare -m pct_measured_peak"
[ "$RC" -eq 0 ] && pass "pct_measured_peak: the rows that fit are used" || fail "exit $RC: $ERR_TXT"
echo "$ERR_TXT" | grep -q "warning: .*7 latency rows .*skipped" &&
  pass "counted warning: $(echo "$ERR_TXT" | grep -m1 warning)" || fail "no counted warning: $ERR_TXT"
if command -v gnuplot >/dev/null; then
  run_cb compare crafted.csv --plot out.svg; no_signal "compare --plot"
  [ "$RC" -eq 0 ] && pass "compare --plot draws the rest" || fail "compare --plot: exit $RC: $ERR_TXT"
else
  skip_part "gnuplot is not installed here, compare --plot not checked"
fi
run_cb report crafted.csv -o page.html; no_signal "report"
[ "$RC" -eq 0 ] && [ -s page.html ] && pass "report: the page of the rest" || fail "report: exit $RC: $ERR_TXT"
run_cb model roofline -w stream -k copy -t float -s 1M -p h100_sxm --device H100 --ceilings crafted.csv
no_signal "model roofline --ceilings"
[ "$RC" -eq 0 ] && echo "$OUT_TXT" | grep -q "(measured: stream copy" && pass "model: the ceilings of the rows that fit" ||
  fail "model: exit $RC: $OUT_TXT $ERR_TXT"
run_cb run stream --quick -d $POCL -t float -n 1 --warmup 0 -q --ceilings crafted.csv -o r.csv
no_signal "run --ceilings"
[ "$RC" -eq 0 ] && pass "run --ceilings goes on" || fail "run --ceilings: exit $RC: $ERR_TXT"
finish
