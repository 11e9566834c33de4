#!/usr/bin/env bash
# The headline (docs/COMPARE.md, "The headline"): the table people paste into slides,
# one row per figure the workloads declare (triad and dot GB/s, the fp32 and fp64 peaks,
# a launch's µs, the memory latency, each with its % of the datasheet where it has one),
# one column per device and each device over the first. compare --headline prints it,
# ./bench.sh ends with it and the report opens with it. On the committed H100 and H200
# suites and on PoCL rows.
source "$(dirname "$0")/lib.sh"
set -e
S="$CLBENCH_SRC"
R="$S/results/runs/2026-11-23"
has() { if grep -Eq -- "$1" "$TMP/stdout"; then pass "$2"; else fail "$2: no line /$1/ in: $(head -c 3000 "$TMP/stdout")"; fi; }

# ---- two GPUs ------------------------------------------------------------------------
expect_status 0 "--headline of the H100 and H200 suites" compare "$R/h100-suite-4.csv" "$R/h200-suite-3.csv" --headline
has '^figure +unit +\[1\] +\[2\] +\[2\]/\[1\]$' "a column per device and the ratio"
has '^stream triad +GB/s +3103 +4388 +1\.41$' "triad: each device's measured ceiling (stream triad outside the caches)"
has '^  % of datasheet +% +92\.6 +91\.4$' "triad's % of the datasheet (3352 and 4800 GB/s)"
has '^dot +GB/s +3154 +4500 +1\.43$' "dot: the device path's best"
has '^fp32 peak +GFlop/s +66425 +66025 +0\.994$' "fp32 peak"
has '^fp64 peak +GFlop/s +33649 +33393 +0\.992$' "fp64 peak"
has '^launch latency +µs +7\.10 +6\.69 +0\.941$' "launch latency, in µs"
has '^memory latency +ns +343\.3 +331\.5 +0\.966$' "memory latency: the latency sweep's memory plateau"
n=$(awk 'length($0) > 100' "$TMP/stdout" | wc -l)
[ "$n" -eq 0 ] && pass "fits 100 columns" || fail "$n lines wider than 100 columns"
# a run over two GPUs: its rows of rank "all" are sums over the devices (8800 GB/s),
# no device's own figure; the headline and the measured ceilings take the per-rank rows
expect_status 0 "--headline of a two-rank run" compare "$R/h200x2-mpi.csv" --headline
has '^stream triad +GB/s +44[0-9][0-9]$' "two ranks: triad per device, not their sum"
has '^  % of datasheet +% +9[0-9]\.[0-9]$' "two ranks: below 100 % of one device's datasheet"
expect_status 0 "compare of a two-rank run" compare "$R/h200x2-mpi.csv" -w stream -k triad
if grep -Eq ' 8[0-9]{3}( |$)' "$TMP/stdout"; then fail "a sum over ranks shown as a device's figure"
else pass "compare leaves the sums over ranks out"; fi
expect_status 0 "--markdown" compare "$R/h100-suite-4.csv" "$R/h200-suite-3.csv" --headline --markdown
has '^\| figure \| unit \| NVIDIA H100 80GB HBM3 \| NVIDIA H200 \| NVIDIA H200 / NVIDIA H100 80GB HBM3 \|$' "Markdown: the devices' names"
expect_status 0 "--json" compare "$R/h100-suite-4.csv" "$R/h200-suite-3.csv" --headline --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r={x["figure"]: x for x in d["rows"] if not x["datasheet"]}; t=r["stream triad"]; assert d["schema"]=="clbench-headline-1" and len(d["columns"])==2 and round(t["values"][0])==3103 and round(t["values"][1])==4388 and abs(t["ratios"][0]-1.414)<0.001, t; assert r["launch latency"]["higher_is_better"] is False and r["launch latency"]["unit"]=="\u00b5s"' \
  "$TMP/stdout" && pass "JSON: columns, figures, ratios, directions" || fail "headline JSON: $(head -c 600 "$TMP/stdout")"
expect_error 2 "--headline is its own table" "--headline with a filter" compare "$R/h100-suite-4.csv" --headline -w stream

# ---- the report opens with it ----------------------------------------------------------
expect_status 0 "report" report "$R/h100-suite-4.csv" "$R/h200-suite-3.csv" -o page.html
python3 - page.html <<'PY' && pass "the report's first section is the headline, its figures as above" || fail "report headline"
import re, sys, html
page = open(sys.argv[1]).read()
heads = re.findall(r"<h2>(.*?)</h2>", page)
assert heads and heads[0] == "Headline", heads[:3]
sec = page[page.index("<h2>Headline</h2>"):page.index("</section>", page.index("<h2>Headline</h2>"))]
cells = [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td[^>]*>.*?</td>", sec)]
assert "stream triad" in cells and "3103" in cells and "4388" in cells and "1.41" in cells, cells
PY

# ---- one device (what ./bench.sh ends with): PoCL rows -----------------------------------
expect_status 0 "quick run" run stream,peak,launch --quick -d "$POCL" -t float -n 2 -o q.csv
# bench.sh's own line, run as it is written (./build/clbench, $suite)
line=$(grep -e '--headline' "$S/bench.sh" | grep -v '^ *#')
[ -n "$line" ] && pass "./bench.sh ends with the headline: $line" || fail "no --headline in bench.sh"
mkdir -p build && ln -s "$CLBENCH" build/clbench
suite=q.csv status=0
eval "$line" >"$TMP/stdout" 2>"$TMP/stderr" || true
[ "$status" -eq 0 ] && pass "bench.sh's headline line ran" || fail "bench.sh's line: status $status: $(cat "$TMP/stderr")"
has '^  \[1\] .*  \(q\.csv\)$' "one column: the device"
has '^fp32 peak +GFlop/s +[0-9.]+$' "fp32 peak, no ratio for one device"
has '^launch latency +µs +[0-9.]+$' "launch latency"
if [ "$(rows cache-only q.csv stream)" = no ]; then has '^stream triad +GB/s ' "triad outside the caches"; fi
finish
