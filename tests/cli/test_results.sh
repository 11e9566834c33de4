#!/usr/bin/env bash
# Schema v3 (docs/RESULTS.md): a run's figures as data in `metrics`; v1 and v2
# files still read (their metrics derived from detail) and upgraded to v3
# losslessly by `clbench results upgrade`; appending to an older file refused
# with the upgrade pointer; no code outside the results module reads `detail`;
# every metric the code writes is documented.
source "$(dirname "$0")/lib.sh"
set -e
D="$CLBENCH_SRC/tests/data"

# ---- a run writes metrics ---------------------------------------------------------------
expect_status 0 "latency --quick" run latency --quick -d $POCL -n 2 -o lat.csv
rows results-latency-metrics lat.csv && pass "latency rows: ns_per_load, cycles, llc_bytes as metrics" || fail "latency metrics"
expect_status 0 "compare --plot reads the latency metric" compare lat.csv --plot lat.svg
ls lat*.svg >/dev/null 2>&1 && pass "latency staircase drawn from metrics" || fail "no latency figure"

# ---- older schemas ------------------------------------------------------------------------
cp "$D/ceilings/fixture.csv" v2.csv
cp v2.csv v2.orig
expect_status 0 "--ceilings reads a v2 file" model roofline -w stream -k copy -t float -s 1M \
  -p h100_sxm --ceilings v2.csv
before=$OUT_TXT
expect_error 2 "schema v2 header.*clbench results upgrade v2\.csv" "appending to a v2 file refused" \
  run stream --quick -d $POCL -t float -n 1 -o v2.csv
cmp -s v2.csv v2.orig && pass "the v2 file untouched" || fail "the v2 file changed"
expect_status 0 "upgrade v2" results upgrade v2.csv
echo "$OUT_TXT" | grep -q "upgraded from schema v2 to v3" && pass "upgrade says what it did" || fail "upgrade: $OUT_TXT"
cp "$D/compare/cpu.csv" v1.csv
expect_status 0 "upgrade v1" results upgrade v1.csv
rows results-upgrade v2.orig v2.csv "$D/compare/cpu.csv" v1.csv && pass "upgrade: every old field byte-identical, metrics derived" || fail "upgrade lossy"
expect_status 0 "--ceilings reads the upgraded file" model roofline -w stream -k copy -t float \
  -s 1M -p h100_sxm --ceilings v2.csv
[ "$OUT_TXT" = "$before" ] && pass "the same ceilings from v2 and v3" || fail "ceilings differ: $OUT_TXT"
expect_status 0 "upgrade again" results upgrade v2.csv
echo "$OUT_TXT" | grep -q "already schema v3" && pass "a v3 file is left alone" || fail "$OUT_TXT"
expect_status 0 "appending to the upgraded file" run stream --quick -d $POCL -t float -n 1 -o v2.csv

# ---- detail is for people -------------------------------------------------------------------
# Outside host/core/results*.c no code looks into a row's detail: no search,
# number or token is read out of it (printing and writing it are fine).
hits=$(grep -rnE '(strstr|strchr|strrchr|strncmp|strtod|sscanf|clb_text_num|_num)\([^;]*detail' \
         "$CLBENCH_SRC/host" | grep -v '/host/core/results' || true)
[ -z "$hits" ] && pass "no code outside the results module parses detail" || fail "detail parsed: $hits"
# Every metric key the code writes is in docs/RESULTS.md.
keys=$(grep -rhoE 'clb_case_metric(_token)?\(c, "[a-z0-9_]+"' "$CLBENCH_SRC/host" | grep -oE '"[a-z0-9_]+"' | tr -d '"' | sort -u)
[ -n "$keys" ] || fail "no metric keys found in host/"
for k in $keys of_; do
  grep -q "\`$k" "$CLBENCH_SRC/docs/RESULTS.md" || fail "metric $k is not documented in docs/RESULTS.md"
done
pass "every metric key is documented ($(echo $keys | wc -w) keys)"
finish
