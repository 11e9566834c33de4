#!/usr/bin/env bash
# stream on PoCL at --quick sizes: every kernel and type validated, CSV rows ok.
source "$(dirname "$0")/lib.sh"
set -e
expect_status 0 "stream --quick" run stream --quick -d cpu -o out.csv
expect_rows out.csv stream copy,scale,add,triad float,double
# an explicit vector-width sweep and an odd size (tail handled)
expect_status 0 "stream vec sweep, odd size" run stream --quick -d cpu -t float -s 1000003 --param vec=1,2,4,8 -n 3 -o odd.csv
n=$(csv_col odd.csv params | sort -u | wc -l)
[ "$n" -eq 4 ] && pass "four vector widths" || fail "expected 4 vec values, got $n"
expect_rows odd.csv stream copy,scale,add,triad float
# appending keeps one header
expect_status 0 "append" run stream --quick -d cpu -t double -n 2 -o out.csv
h=$(grep -c '^run_id,' out.csv)
[ "$h" -eq 1 ] && pass "one header after append" || fail "$h headers"
# summary table on stdout
"$CLBENCH" run stream --quick -q -d cpu -t float -n 2 -o s.csv | grep -q "triad" && pass "summary table" || fail "no summary"
finish
