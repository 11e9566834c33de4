#!/usr/bin/env bash
# dot on PoCL: every kernel and type validated at --quick, at N = 1, 2, 3 and
# 1000003 (not a power of two, not a multiple of 4), with parameters the
# device must clamp, and bad parameters refused with exit 2 and one line.
source "$(dirname "$0")/lib.sh"
set -e
K=device,host,hybrid,device_sumsq,host_sumsq,hybrid_sumsq,cpu1,cpu
expect_status 0 "dot --quick" run dot --quick -d $POCL -n 2 --warmup 1 -o out.csv
expect_rows out.csv dot "$K" float,double
n=$(csv_col out.csv params | grep -c '^split=' || true)
[ "$n" -eq 8 ] && pass "hybrid rows for both splits" || fail "expected 8 split= rows, got $n"
# every row states its error against the reference and the bound it passed
n=$(csv_col out.csv detail | grep -c 'relerr=.*bound=.*kappa=' || true)
[ "$n" -eq 20 ] && pass "relerr and bound in every detail" || fail "relerr in $n of 20 rows"

# odd sizes: tails, chunks of 0..3 vectors, a CPU share of 1 element (pow2)
expect_status 0 "dot N=1,2,3,1000003" run dot -d $POCL -s 1,2,3,1000003 -n 1 --warmup 0 -o odd.csv
expect_rows odd.csv dot "$K" float,double
rows ok-sizes odd.csv 4 && pass "four sizes" || fail "expected 4 sizes with ok rows"

# parameters the device must clamp, many queues with empty chunks, one group
expect_status 0 "dot clamped local_size" run dot -d $POCL -t float -s 100,4099 -n 1 --warmup 0 \
  --param local_size=100000 --param min_chunk=1 --param max_groups=1 --param groups=3 \
  --param kernels=device,host,hybrid_sumsq -o clamp.csv
expect_rows clamp.csv dot device,host,hybrid_sumsq float
n=$(csv_col clamp.csv detail | grep -c 'local_size 100000 clamped to' || true)
[ "$n" -ge 4 ] && pass "clamp noted in detail" || fail "clamp note in $n rows"
expect_status 0 "dot strided access on a CPU" run dot -d $POCL -t double -s 5001 -n 1 --warmup 0 \
  --param access=strided --param groups=1,5 --param kernels=device,device_sumsq -o strided.csv
expect_rows strided.csv dot device,device_sumsq double
n=$(csv_col strided.csv params | grep -c '^groups=' || true)
[ "$n" -eq 4 ] && pass "one device row per groups= value" || fail "expected 4 groups= rows, got $n"

# bad parameters
expect_error 2 "queues.*0" "queues=0 refused" run dot -q -d $POCL --quick --param queues=0 -o bad.csv
expect_error 2 "split: unknown value 'bogus'" "split=bogus refused" run dot -q -d $POCL --quick --param split=bogus -o bad.csv
expect_error 2 "local_size" "local_size=0 refused" run dot -q -d $POCL --quick --param local_size=0 -o bad.csv
expect_error 2 "access 'diagonal'" "access=diagonal refused" run dot -q -d $POCL --quick --param access=diagonal -o bad.csv
expect_error 2 "kernels: unknown value 'gpu'" "kernels=gpu refused" run dot -q -d $POCL --quick --param kernels=gpu -o bad.csv
expect_error 2 "queues.*0" "queues=0 refused with kernels=cpu" run dot -q -d $POCL --quick --param queues=0 --param kernels=cpu -o bad.csv
expect_error 2 "groups" "groups=-1 refused" run dot -q -d $POCL --quick --param groups=-1 -o bad.csv
expect_error 2 "type 'int'" "type int refused" run dot -d $POCL --quick -t int -o bad.csv
finish
