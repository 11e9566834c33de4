#!/usr/bin/env bash
# launch on PoCL: dispatch (queued -> start), roundtrip and rate rows with the
# latency in the t_* columns and in detail, no bytes or flops; bad parameters
# refused; a kernel that stores the wrong launch number caught.
source "$(dirname "$0")/lib.sh"
set -e
expect_status 0 "launch --quick" run launch --quick -d $POCL -n 5 -o out.csv
expect_rows out.csv launch dispatch,roundtrip,rate ""
rows launch-rows out.csv && pass "t_* carry the latency, detail latency_us=, bytes and flops 0" || fail "rows"
"$CLBENCH" run launch --quick -q -d $POCL -n 3 -o s.csv | grep -q "launch latency" && pass "summary in microseconds" || fail "no summary"
expect_status 0 "rate alone, batch 10, 1000 work-items" run launch -d $POCL -s 1000 -n 3 --param kernels=rate --param batch=10 -o r.csv
rows launch-rate r.csv && pass "one rate row" || fail "rate rows"
expect_error 2 "kernels: unknown value 'warp'" "unknown kernel refused" run launch --quick -q -d $POCL --param kernels=warp -o bad.csv
expect_error 2 "batch" "batch=0 refused" run launch --quick -q -d $POCL --param batch=0 -o bad.csv
expect_error 2 "-t float: launch takes no types" "types refused" run launch --quick -q -d $POCL -t float -o bad.csv
mkdir kd && cp "$CLBENCH_SRC"/cl/*.cl kd/
sed -i 's/out\[0\] = v;/out[0] = v + 1;/' kd/launch.cl
expect_status 1 "wrong launch number caught" run launch --quick -d $POCL -n 2 --kernel-dir kd -o broken.csv
s=$(csv_col broken.csv status | sort | uniq -c | tr -s ' ')
[ "$s" = " 3 failed" ] && pass "every row failed" || fail "statuses: $s"
finish
