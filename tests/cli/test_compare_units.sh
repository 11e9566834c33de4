#!/usr/bin/env bash
# Each workload in its own figure and unit (docs/COMPARE.md, "Each workload in its own
# figure"): by default compare shows a row in the figure its workload is about (GB/s
# streaming, GFlop/s compute, a launch's µs, a load's ns), with a unit column; --plot
# draws each in its unit; -m forces one, and names any key of the rows' metrics, each
# with the direction docs/RESULTS.md declares (lower is better for times), which the
# table, JSON and the gate use. On PoCL rows (a quick run) and the committed H100 and
# H200 suites.
source "$(dirname "$0")/lib.sh"
set -e
S="$CLBENCH_SRC"
R="$S/results/runs/2026-11-23"
G="$S/tests/data/gate"
has() { if grep -Eq -- "$1" "$TMP/stdout"; then pass "$2"; else fail "$2: no line /$1/ in: $(head -c 3000 "$TMP/stdout")"; fi; }
hasnt() { if grep -Eq -- "$1" "$TMP/stdout"; then fail "$2: unexpected /$1/"; else pass "$2"; fi; }

# ---- the declaration: every key's unit and direction, the code's and the doc's ----------
expect_status 0 "--list-metrics" compare --list-metrics
cp "$TMP/stdout" list.txt
rows metrics-doc "$S/docs/RESULTS.md" list.txt >check.out 2>&1 &&
  pass "docs/RESULTS.md gives every key the unit and direction the code declares" ||
  fail "metric keys: $(tail -3 check.out)"
has '^latency_us +µs +lower ' "latency_us: µs, lower is better"
has '^of_\* +ratio +higher ' "the of_ ratios: higher is better"
hasnt '^size_from ' "a token is not a figure"

# ---- PoCL: a quick run of streaming, compute, launch and latency rows -----------------
expect_status 0 "quick run" run stream,peak,launch,latency --quick -d "$POCL" -t float -n 2 -o q.csv
expect_status 0 "compare q.csv" compare q.csv
has '^workload +kernel +dtype +size +sweep +unit +\[1\]$' "one table with a unit column"
has '^stream +copy +float +[0-9]+ +GB/s +[0-9.]+( C)?$' "stream in GB/s"
has '^peak +fma +float +[0-9]+ +vec=[0-9]+ +GFlop/s +[0-9.]+$' "peak in GFlop/s"
has '^launch +dispatch +1 +µs +[0-9.]+$' "launch in µs"
has '^latency +chase +[0-9]+ +ws=[0-9]+ +ns +[0-9.]+( C)?$' "latency in ns per load"
expect_status 0 "-w launch" compare q.csv -w launch
[ "$(grep -c '^launch .* µs ' "$TMP/stdout")" -eq 3 ] && pass "-w launch: dispatch, roundtrip, rate" ||
  fail "-w launch: $OUT_TXT"
expect_status 0 "-w latency" compare q.csv -w latency --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); l=d["lines"]; assert l and all(x["metric"]=="ns_per_load" and x["higher_is_better"] is False for x in l), l[:2]' \
  "$TMP/stdout" && pass "-w latency --json: ns_per_load, lower is better" || fail "latency JSON: $(head -c 400 "$TMP/stdout")"
expect_status 0 "-m latency_us" compare q.csv -m latency_us
has '^latency_us \(µs\);' "the title names the metric and its unit"
has '^launch +roundtrip +1 +[0-9.]+$' "launch rows in latency_us, no unit column"
hasnt '^stream ' "rows without the metric are left out"
expect_status 0 "-m gbps forces one figure" compare q.csv -m gbps -w stream,peak
has '^peak +fma +float +[0-9]+ +vec=[0-9]+ +[0-9.]+$' "peak's GB/s when asked for"
expect_error 2 "the metric 'size_from' is a word, not a figure" "-m of a token" compare q.csv -m size_from
expect_error 2 "unknown metric 'nosuch_key'" "-m of an unknown key" compare q.csv -m nosuch_key
expect_error 2 "--metric loads has no better way \(a count\)" "the gate refuses a metric without a direction" \
  compare q.csv --baseline q.csv -m loads

# ---- a device the user named is always in the output ------------------------------------
# beside published figures the devices are lined up, which leaves cache-resident rows out:
# the quick rows of a CPU with a big cache were dropped and the device vanished silently
expect_status 0 "q.csv beside BabelStream's figures" compare q.csv "$S/results/reference/stream_babelstream.csv"
DEV=$(rows col q.csv device | head -1)
if grep -Fq "] $DEV  (q.csv)" "$TMP/stdout"; then pass "the PoCL device is a column"; else fail "the PoCL device is gone: $OUT_TXT"; fi
if [ "$(rows cache-only q.csv stream)" = yes ]; then
  has '^stream +copy +float +any +GB/s +[0-9.]+( ±[0-9.]+%)? C ' "its cache-resident copy shown, marked C"
  has '^\[1\] .*: every selected row of stream is cache-resident: kept, marked C$' "and said so"
else
  has '^stream +copy +float +any +GB/s +[0-9.]+( ±[0-9.]+%)? ' "its copy outside the caches"
fi
expect_status 0 "a filter that leaves the PoCL device no row" compare q.csv "$R/h100-suite-4.csv" -w transpose
grep -Fq "not in the table: $DEV (q.csv): none of its rows selected (workloads: stream, peak, launch, latency)" \
  "$TMP/stdout" && pass "one line says why the device has none" || fail "no word of the PoCL device: $OUT_TXT"
expect_status 0 "--json" compare q.csv "$R/h100-suite-4.csv" -w transpose --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); u=d["not_in_table"]; assert len(u)==1 and u[0]["file"].endswith("q.csv") and u[0]["workloads"]=="stream, peak, launch, latency", u' \
  "$TMP/stdout" && pass "JSON: not_in_table" || fail "JSON not_in_table: $(head -c 300 "$TMP/stdout")"

# ---- the committed H100 and H200 suites: every workload's unit ------------------------
expect_status 0 "two suites, JSON" compare "$R/h100-suite-4.csv" "$R/h200-suite-3.csv" --json
rows compare-units "$TMP/stdout" >check.out 2>&1 &&
  pass "GB/s streaming, GFlop/s peak, matmul, dslash, cg and roofline compute, µs launch, ns latency" ||
  fail "units: $(tail -3 check.out)"
expect_status 0 "two suites, text" compare "$R/h100-suite-4.csv" "$R/h200-suite-3.csv" -w peak,matmul,launch
has '^peak +fma +float +any +vec=1 +GFlop/s +65670 +65194$' "peak fma float vec=1 in GFlop/s (was 1.00 / 0.995 GB/s)"
has '^matmul +naive +float +any +GFlop/s +5207 +5245$' "matmul naive in GFlop/s"
has '^launch +dispatch +any +µs +7\.10 +6\.69$' "launch dispatch in µs"
expect_status 0 "-m of_stream_copy" compare "$R/h200-suite-3.csv" -m of_stream_copy -w copy2d
has '^of_stream_copy \(ratio\);' "a ratio of the metrics column, named with -m"
has '^copy2d +coalesced +float +16384x16384 +0\.97[0-9]$' "copy2d coalesced float over stream copy"
if command -v gnuplot >/dev/null 2>&1; then
  expect_status 0 "--plot: each workload in its own unit" compare "$R/h100-suite-4.csv" "$R/h200-suite-3.csv" \
    -w peak,matmul,launch,stream --plot u.svg
  for f in "peak:GFlop/s" "matmul:GFlop/s" "launch:µs" "stream:GB/s"; do
    w=${f%%:*} unit=${f#*:}
    grep -q "$w: $unit by" "u-$w.svg" && pass "u-$w.svg is drawn in $unit" || fail "u-$w.svg: not in $unit"
  done
  grep -q 'peak 3352 GB/s' u-peak.svg && fail "a bandwidth peak line over GFlop/s bars" || pass "no GB/s peak line over GFlop/s"
  grep -q 'peak 3352 GB/s' u-stream.svg && pass "the bandwidth peak over GB/s" || fail "u-stream.svg lacks its peak"
fi

# ---- the gate judges each metric in its direction --------------------------------------
expect_status 0 "loads 20 % faster are better; the launch, host-bound, is left out" \
  compare "$G/times_new.csv" --baseline "$G/times_base.csv"
has '^  left out: 1 host-bound line ' "and counted"
expect_error 1 "1 line regressed" "--host-lines: a launch 20 % slower regresses" \
  compare "$G/times_new.csv" --baseline "$G/times_base.csv" --host-lines
has '^launch dispatch 1 +µs +7\.00 ±1\.0% +8\.40 ±1\.0% +\+20\.0% +REGRESSED$' "latency_us up: REGRESSED"
has '^latency chase 1048576 stride=64,ws=1048576 +ns +20\.00 ±1\.0% +16\.00 ±1\.0% +-20\.0% +better$' \
  "ns_per_load down: better"
expect_error 1 "1 line regressed" "the other way round" compare "$G/times_base.csv" --baseline "$G/times_new.csv"
has '^latency chase .* +\+25\.0% +REGRESSED$' "ns_per_load up: REGRESSED"
expect_error 2 "every selected line is host-bound \(1 line: .*--host-lines" "-m latency_us: only host-bound lines" \
  compare "$G/times_new.csv" --baseline "$G/times_base.csv" -m latency_us
expect_status 1 "-m latency_us --json" compare "$G/times_new.csv" --baseline "$G/times_base.csv" -m latency_us --json --host-lines
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["metric"]=={"name":"latency_us","unit":"\u00b5s","higher_is_better":False} and [l["state"] for l in d["lines"]]==["regressed"], d' \
  "$TMP/stdout" && pass "JSON: latency_us, lower is better, regressed" || fail "gate JSON: $(head -c 500 "$TMP/stdout")"
expect_status 1 "markdown" compare "$G/times_base.csv" --baseline "$G/times_new.csv" --markdown
has '^\| latency \| chase \|  \| 1048576 \| stride=64,ws=1048576 \|  \| ns \| 16\.00 ±1\.0% \| 20\.00 ±1\.0% \| \+25\.0% \| REGRESSED \|$' \
  "Markdown: the unit column"
finish
