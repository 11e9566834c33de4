#!/usr/bin/env bash
# latency on PoCL: a pointer-chase sweep from 1 KiB up, one row per working
# set and stride, validated by the position after the last load; ns per load
# and cycles in detail; plateaus in the summary; bad parameters refused; a
# kernel that takes one load too many caught.
source "$(dirname "$0")/lib.sh"
set -e
expect_status 0 "latency --quick" run latency --quick -d $POCL -n 3 --param stride=64 -o out.csv
expect_rows out.csv latency chase ""
rows latency-working-sets out.csv && pass "11 working sets 1 KiB..1 MiB, ns_per_load, cycles, llc" || fail "rows"
"$CLBENCH" run latency --quick -q -d $POCL -n 3 -o s.csv --wide > sum.txt
grep -q "latency plateaus" sum.txt && pass "plateaus in the summary" || fail "no summary"
# no plateau is named a cache level by its position; the levels named are the
# reported ones, listed with the rise their size matches (or why none)
rows latency-summary-names sum.txt && pass "plateaus unnamed, reported levels listed" || fail "summary names: $(cat sum.txt)"
expect_status 0 "two strides, two per octave" run latency -d $POCL -s 64KiB -n 3 --param from=4096 --param per_octave=2 --param stride=64,128 --param loads=2000 -o two.csv
n=$(csv_col two.csv params | wc -l)
[ "$n" -eq 18 ] && pass "9 working sets x 2 strides" || fail "$n rows"
expect_rows two.csv latency chase ""
expect_error 2 "bad stride 6" "stride 6 refused" run latency --quick -q -d $POCL --param stride=6 -o bad.csv
expect_error 2 "per_octave" "per_octave=3 refused" run latency --quick -q -d $POCL --param per_octave=3 -o bad.csv
expect_error 2 "bad working set 4 bytes" "tiny size refused" run latency -q -d $POCL -s 4 -o bad.csv
mkdir kd && cp "$CLBENCH_SRC"/cl/*.cl kd/
sed -i 's/for (uint i = 0; i < loads % 8; i++)/for (uint i = 0; i <= loads % 8; i++)/' kd/latency.cl
expect_status 1 "one load too many caught" run latency -d $POCL -s 8KiB -n 2 --param loads=1000 --kernel-dir kd -o broken.csv
grep -q "the host's walk at word" broken.csv && pass "the positions are noted" || fail "no note"
finish
