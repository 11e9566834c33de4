#!/usr/bin/env bash
# bus on PoCL: the four transfers validated at --quick sizes and at odd byte
# counts, a summary that names no bus on a CPU; bad input refused with exit 2
# and one line.
source "$(dirname "$0")/lib.sh"
set -e
K=pageable_h2d,pageable_d2h,pinned_h2d,pinned_d2h
expect_status 0 "bus --quick" run bus --quick -d $POCL -n 2 --warmup 1 -o out.csv
expect_rows out.csv bus "$K" ""
n=$(csv_col out.csv size | sort -u | wc -l)
[ "$n" -ge 3 ] && pass "$n quick sizes" || fail "expected >= 3 sizes, got $n"
expect_status 0 "bus odd sizes" run bus -d $POCL -s 1,4097,1000003 -n 1 --warmup 0 -o odd.csv
expect_rows odd.csv bus "$K" ""
b=$(csv_col odd.csv bytes | sort -un | tr '\n' ' ')
[ "$b" = "1 4097 1000003 " ] && pass "bytes = size" || fail "bytes column: $b"
# a CPU device works in host memory: the summary names no bus and no H2D/D2H
"$CLBENCH" run bus --quick -d $POCL -n 1 -o s.csv --wide > sum.txt
grep -q "^bus: no bus: host-to-host copies" sum.txt && ! grep -q "H2D\|D2H" sum.txt \
  && pass "summary: no bus on a CPU" || fail "summary: $(cat sum.txt)"
expect_error 2 "unknown parameter 'queues'" "an unknown parameter refused" run bus -d $POCL --quick --param queues=2 -o bad.csv
expect_error 2 "bus" "size 0 refused" run bus -d $POCL -s 0 -o bad.csv
expect_error 2 "type" "bus is untyped" run bus -d $POCL --quick -t float -o bad.csv
finish
