#!/usr/bin/env bash
# Progress that holds: in a multi-workload run the total of "[i/N]" is exact
# from the first line (every workload planned before the first case, each
# plan what its set-up adds), ends at N = the rows written, and every line
# carries its figure (latency: ns per load) and, but for the last, an ETA.
source "$(dirname "$0")/lib.sh"
set -e
expect_status 0 "stream, latency, launch, peak in one run" \
  run stream,latency,launch,peak --quick -d $POCL -t float -n 2 --warmup 0 -o p.csv
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
noeta=$(head -n -1 lines | grep -v '  ETA [0-9]' || true)
[ -z "$noeta" ] && pass "every line but the last has an ETA" || fail "no ETA: $(echo "$noeta" | head -2)"
finish
