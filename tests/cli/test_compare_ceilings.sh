#!/usr/bin/env bash
# clbench compare against measured ceilings: --metric pct_measured_peak (each
# row in % of its own device's measured bandwidth or compute ceiling, from the
# compared files or --ceilings FILE), the footer naming what a device lacks,
# Markdown and JSON; --plot's rooflines (one per device) and staircases
# (latency), with crafted names that must stay data. Fixtures:
# tests/data/compare/ceil.csv, ceil_extra.csv, evilceil.csv (make_fixtures.py).
source "$(dirname "$0")/lib.sh"
set -e
D="$CLBENCH_SRC/tests/data/compare"
mkdir -p "$TMP/tmp"
export TMPDIR="$TMP/tmp"
has() { if grep -Eq -- "$1" "$TMP/stdout"; then pass "$2"; else fail "$2: no line /$1/ in: $(head -c 3000 "$TMP/stdout")"; fi; }
hasnt() { if grep -Eq -- "$1" "$TMP/stdout"; then fail "$2: unexpected /$1/"; else pass "$2"; fi; }

# ---- the metric ----------------------------------------------------------------
# Ceil Test GPU: bandwidth 1000 GB/s (stream triad), fp32 20000, fp64 10000 GFlop/s
# (peak fma); No Ceiling CPU: none
expect_status 0 "pct_measured_peak" compare "$D/ceil.csv" -m pct_measured_peak --by-size
has '^  \[1\] Ceil Test GPU  \(ceil\.csv; measured: bandwidth 1000 GB/s \(stream triad\), fp32 20000 GFlop/s \(peak fma\), fp64 10000 GFlop/s \(peak fma\)\)$' "the ceilings in the column legend"
has '^  \[2\] No Ceiling CPU  \(ceil\.csv; measured: none\)$' "a device without ceilings"
has '^stream +copy +float +268435456 +90\.00 +-$' "stream copy: 900 / 1000 GB/s"
has '^stream +copy +double +134217728 +95\.00 +-$' "stream copy double: 950 / 1000"
has '^peak +fma +double +4096 +100\.0 +-$' "peak fp64 against the fp64 ceiling"
has '^roofline +fma +float +1048576 +flops=0 +80\.00 +-$' "roofline F=0 is GB/s: 800 / 1000"
has '^roofline +fma +float +1048576 +flops=8 +4\.00 +-$' "roofline F=8 is GFlop/s: 800 / 20000"
has '^roofline +fma +float +1048576 +flops=128 +75\.00 +-$' "roofline F=128: 15000 / 20000"
has '^dslash +reg +float +16x16x16x16 +7\.50 +-$' "dslash GFlop/s against fp32: 1500 / 20000; '-' without a ceiling"
has '^transpose +naive +float +8192x8192 +70\.00 +-$' "transpose GB/s: 700 / 1000"
hasnt '^peak +mad +int' "int rows: no ceiling of that type, no line"
has '^no measured ceiling \(its rows show -\): \[2\] No Ceiling CPU lacks memory bandwidth and fp32 compute$' "the footer names the device and the ceilings it lacks"
has '^GFlop/s rows of type int show -: no measured ceiling is of that type$' "the footer names the type without a ceiling"
# the filters do not take the ceilings away: they come from every row of the device
expect_status 0 "ceilings whatever the filters" compare "$D/ceil.csv" -m pct_measured_peak -w dslash --by-size
has '^dslash +reg +float +16x16x16x16 +7\.50 +-$' "-w dslash still uses the peak rows' ceiling"
# --ceilings FILE: the ceilings of the device name in that file instead
expect_status 0 "--ceilings FILE" compare "$D/ceil.csv" -m pct_measured_peak --ceilings "$D/ceil_extra.csv" -w transpose --by-size
has '^measured ceilings from .*ceil_extra\.csv$' "the ceilings' file named"
has '^transpose +naive +float +8192x8192 +- +50\.00$' "No Ceiling CPU: 20 / 40 GB/s from --ceilings"
has 'Ceil Test GPU lacks memory bandwidth$' "the GPU has no rows in the ceilings file"
# no column with the ceiling a row needs: one line naming what each lacks
expect_error 2 "no selected row has a pct_measured_peak figure: 'Ceil Test GPU' lacks fp32 compute; 'No Ceiling CPU' lacks fp32 compute \(measured ceilings come from ok rows of .*stream.* in --ceilings FILE\)" \
  "nothing measured" compare "$D/ceil.csv" -m pct_measured_peak -w dslash --ceilings "$D/ceil_extra.csv"
expect_error 2 "--ceilings goes with --metric pct_measured_peak or --plot" "--ceilings alone" compare "$D/ceil.csv" --ceilings "$D/ceil_extra.csv"
expect_error 2 "not with --baseline" "pct_measured_peak with --baseline" compare "$D/ceil.csv" -m pct_measured_peak --baseline "$D/ceil.csv"
expect_error 2 "--ceilings: cannot read .*nosuch\.csv" "missing --ceilings file" compare "$D/ceil.csv" -m pct_measured_peak --ceilings "$D/nosuch.csv"
# Markdown and JSON
expect_status 0 "--markdown" compare "$D/ceil.csv" -m pct_measured_peak -w stream,dslash --markdown --by-size
has '^\| dslash \| reg \| float \| 16x16x16x16 \| 7\.50 \| - \|$' "Markdown row"
has '^- Ceil Test GPU: bandwidth 1000 GB/s \(stream triad \(float vec=4\)\), fp32 20000 GFlop/s \(peak fma \(float vec=4,acc=8,groups=64,local=64\)\)' "Markdown lists the ceilings and their rows"
has '^no measured ceiling \(its rows show -\): No Ceiling CPU lacks fp32 compute$' "Markdown footer: only what the selected rows needed"
expect_status 0 "--json" compare "$D/ceil.csv" -m pct_measured_peak --json
if rows compare-ceilings-json "$TMP/stdout"
then pass "--json: ceilings, lacks and values"; else fail "--json: $(head -c 600 "$TMP/stdout")"; fi

# ---- figures ---------------------------------------------------------------------
if command -v gnuplot >/dev/null 2>&1; then
  pwned() { if find "$TMP" -name 'PWNED*' | grep -q .; then fail "$1: $(find "$TMP" -name 'PWNED*')"; else pass "$1"; fi; }
  mkdir p && expect_status 0 "--plot: rooflines and staircases" compare "$D/ceil.csv" --plot p/f.svg
  got=$(cd p && ls | tr '\n' ' ')
  [ "$got" = "f-dslash.svg f-latency.svg f-peak.svg f-roofline-Ceil_Test_GPU.svg f-stream.svg f-transpose.svg " ] &&
    pass "a roofline for the device with roofline rows only, one staircase, peak in GFlop/s: $got" || fail "figures: $got"
  grep -q 'peak: GFlop/s by' p/f-peak.svg && pass "peak drawn in its own unit" || fail "f-peak.svg is not in GFlop/s"
  R=p/f-roofline-Ceil_Test_GPU.svg
  for want in 'measured fp32 roof: 1000 GB/s (stream triad), 20000 GFlop/s (peak fma)' \
              'measured fp64 roof: 1000 GB/s (stream triad), 10000 GFlop/s (peak fma)' \
              'fp32 ridge point: 20.00 flop/byte (20000 GFlop/s / 1000 GB/s)' \
              '>roofline float<' '>stream float<' '>dslash float<' 'arithmetic intensity (flop/byte)'; do
    grep -qF -- "$want" "$R" && pass "roofline has '$want'" || fail "roofline lacks '$want'"
  done
  # (a negative check on a figure that is there: a missing one has no point either)
  if [ ! -s "$R" ]; then fail "no roofline $R"
  elif grep -qF '>peak' "$R"; then fail "compute-bound peak rows placed on the roofline"
  else pass "peak rows are ceilings, not points"; fi
  for want in '>Ceil Test GPU: chase stride=64<' '>No Ceiling CPU: chase stride=64<' 'ns per dependent load' '>1 kiB<'; do
    grep -qF -- "$want" p/f-latency.svg && pass "staircase has '$want'" || fail "staircase lacks '$want'"
  done
  # one device, one figure: the name given
  expect_status 0 "one roofline" compare "$D/ceil.csv" -w roofline --plot one.svg
  [ -s one.svg ] && grep -q 'ridge point' one.svg && pass "-w roofline: OUT.svg is the roofline" || fail "one.svg"
  expect_status 0 "one staircase" compare "$D/ceil.csv" -w latency --plot lat.png
  [ "$(head -c 4 lat.png | tail -c 3)" = "PNG" ] && pass "latency PNG" || fail "lat.png"
  has '^latency +chase +1048576 +ws=1024 +ns +2\.00 +6\.00$' "the table in latency's own figure, ns per load"
  expect_status 0 "--metric gbps: latency rows have none" compare "$D/ceil.csv" -w latency -m gbps --plot lat2.png
  has 'the table is empty' "the empty table says why"
  # crafted names: device with quotes, backquotes, $(), @ and a newline; a
  # latency kernel and params with gnuplot syntax; an unknown workload
  mkdir e && (cd e && "$CLBENCH" compare "$D/evilceil.csv" --plot e.svg) >"$TMP/stdout" 2>"$TMP/stderr" &&
    pass "crafted names plotted" || fail "crafted: $(cat "$TMP/stderr")"
  pwned "crafted names on rooflines and staircases ran nothing"
  got=$(cd e && ls | tr '\n' ' ')
  [ "$got" = "e-latency.svg e-peak.svg e-roofline-Evil__GPU___q___touch_P.svg e-stream.svg e-w____system__touch_PWNED_cwl____.svg " ] &&
    pass "figure names are slugs: $got" || fail "crafted figure names: $got"
  for f in e/*.svg; do
    python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$f" 2>/dev/null &&
      pass "$f is well-formed XML" || fail "$f is not well-formed XML"
  done
  grep -qF "chase'; system(\"touch PWNED_ckernel\") # stride=64 z=@x\`touch PWNED_cparam\`" e/e-latency.svg &&
    pass "the crafted kernel and params are legend text" || fail "crafted legend"
  grep -qF 'Evil "GPU" '"'q'"' `touch PWNED_cdev` $(touch PWNED_cdev2) @m\nline2 \\n, GFlop/s by arithmetic intensity' e/e-roofline-*.svg &&
    pass "the crafted device is title text, its newline escaped" || fail "crafted title"
  ER=$(ls e/e-roofline-*.svg 2>/dev/null | head -1)
  if [ ! -s "$ER" ]; then fail "no roofline of the crafted device in e/"
  elif grep -qF '>w' "$ER"; then fail "an unknown workload placed on the roofline"
  else pass "unknown workloads are not placed"; fi
  [ -d "$TMPDIR" ] && [ -z "$(ls -A "$TMPDIR")" ] && pass "temporary directory removed" ||
    fail "scratch left in TMPDIR (or no TMPDIR): $(ls -A "$TMPDIR")"
else
  skip_part "gnuplot is not installed here, the figures are not checked"
fi
finish
