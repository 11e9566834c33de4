#!/usr/bin/env bash
# Two clbench processes appending to one new CSV at once (the row-level race
# is also hammered by unit_test_results_concurrent). Expected: both exit 0,
# one header, every row of each run present, whole, with its run_id.
source "$(dirname "$0")/../cli/lib.sh"
source "$(dirname "$0")/rel_lib.sh"
set -e
sizes=$(seq -s, 1000 1000 12000)   # 12 sizes x 4 kernels = 48 rows per run
for round in 1 2; do
  csv=shared$round.csv
  args=(run stream -d $POCL -t float -s "$sizes" -n 1 --warmup 0 --param vec=1 -q -o "$csv")
  "$CLBENCH" "${args[@]}" >/dev/null 2>a.err & a=$!
  "$CLBENCH" "${args[@]}" >/dev/null 2>b.err & b=$!
  set +e; wait $a; ra=$?; wait $b; rb=$?; set -e
  [ $ra -eq 0 ] && [ $rb -eq 0 ] && pass "round $round: both runs exit 0" || fail "round $round: exits $ra $rb: $(cat a.err b.err)"
  if n=$(csv_check "$csv"); then pass "round $round: one header, $n rows of 38 fields"; else fail "round $round: CSV broken"; continue; fi
  per=$(csv_query "$csv" "sorted(__import__('collections').Counter(r['run_id'] for r in rows).values())")
  [ "$per" = "[48, 48]" ] && pass "round $round: 48 rows from each run" || fail "round $round: rows per run: $per"
  st=$(csv_query "$csv" "sorted(set(r['status'] for r in rows))")
  [ "$st" = "['ok']" ] && pass "round $round: every row ok" || fail "round $round: statuses $st"
done
finish
