#!/usr/bin/env bash
# --budget (docs/MEASURING.md, "Default sizes"): the run's estimate, made
# before the first case, against a budget; above it the sizes the rule chose
# step down their ladders, one note listing each change, the rows saying
# size_from=budget and where the rule's cache came from (llc_from: the
# device's figure, or 16 MiB per compute unit where the device reports more);
# given and --quick sizes never change; a bad budget is refused.
source "$(dirname "$0")/lib.sh"
set -e

# a budget no default suite meets: every rule size steps down to its ladder's
# first (a fast run), and the note says so
expect_status 0 "--budget 1: default sizes stepped down" run stream,transpose -d $POCL -t float -n 1 \
  --warmup 0 --budget 1 -o b.csv
grep '^  ' "$TMP/stderr" | grep -- ' -> ' >steps.txt || true
grep -q "^note: estimate [0-9]* s > --budget 1 s: default sizes stepped down (size_from=budget)" \
  "$TMP/stderr" && pass "the note: $(grep -m1 '^note: estimate' "$TMP/stderr")" ||
  fail "no step-down note: $ERR_TXT"
grep -q "^note: estimate [0-9]* s > --budget 1 s: no size the rule chose is left" "$TMP/stderr" &&
  pass "and that nothing is left to step" || fail "no 'nothing left' note: $ERR_TXT"
# the device's cache and compute units (list -v): the rule's cache is capped
# where the device reports more than 16 MiB a unit
d=$("$CLBENCH" list -v --wide 2>/dev/null | awk -v d="$POCL" '$1 == d {f = 1; next} f && /^ / {print} f && !/^ / {exit}')
mb=$(echo "$d" | sed -n 's/.*, cache \([0-9.]*\) MB.*/\1/p')
cus=$(echo "$d" | sed -n 's/^ *\([0-9]*\) compute units.*/\1/p')
if rows budget-rows b.csv steps.txt "$mb" "$cus"; then pass "rows: size_from=budget, llc_from as the device's figures say, the note's sizes"
else fail "budget rows"; fi

# sizes given (-s) and --quick's never step; the estimate is said
expect_status 0 "--budget 1 with -s" run stream -d $POCL -t float,double -n 1 --warmup 0 -s 1048576 \
  --budget 1 -o given.csv
grep -q "no size the rule chose is left to step down" "$TMP/stderr" && ! grep -q ' -> ' "$TMP/stderr" &&
  [ "$(csv_col given.csv size | sort -u)" = 1048576 ] && pass "-s: the size stays, said" ||
  fail "-s with --budget: $ERR_TXT"
expect_status 0 "--quick within a budget" run stream --quick -d $POCL -t float -n 1 --warmup 0 \
  --budget 100000 -o quick.csv
grep -Eq "^estimate: [0-9]+ s, within --budget 100000 s$" "$TMP/stderr" && pass "the estimate said" ||
  fail "no estimate line: $ERR_TXT"
expect_error 2 "--budget" "--budget 0 refused" run stream --quick -d $POCL --budget 0 -o bad.csv
expect_error 2 "--budget" "--budget x refused" run stream --quick -d $POCL --budget x -o bad.csv
finish
