#!/usr/bin/env bash
# stride on PoCL at --quick sizes: both kernels and types validated, odd and
# non-prime sizes, the full offset sweep, bad parameters refused, and a broken
# kernel caught by the validation.
source "$(dirname "$0")/lib.sh"
set -e
expect_status 0 "stride --quick float,double" run stride --quick -d $POCL -t float,double -n 2 -o out.csv
expect_rows out.csv stride gather,offset float,double
n=$(csv_col out.csv kernel | grep -c gather)
[ "$n" -eq 30 ] && pass "15 default strides x 2 types" || fail "expected 30 gather rows, got $n"
# bytes are the useful bytes 2*N*sizeof (the quick N, for both types: the largest prime in 1 MiB of floats, 262139)
rows stride-bytes out.csv && pass "bytes 2*N*sizeof" || fail "bytes"

# a non-prime size: even strides repeat elements (noted), still exact
expect_status 0 "N=1000, strides with common factors" run stride -d $POCL -s 1000,999 -t double -n 2 \
  --param strides=1,2,8,125,1000,3 --param offsets=0,1,7 -o odd.csv
expect_rows odd.csv stride gather,offset double
grep -q 'gcd(stride,N)=8: 125 distinct elements read, each 8 times' odd.csv && pass "gcd note" || fail "no gcd note"
# the full offset sweep 0..32
expect_status 0 "offsets 0..32" run stride -d $POCL -s 4099 -n 1 --warmup 0 --param kernels=offset --param offsets=0..32 -o sweep.csv
n=$(csv_col sweep.csv params | sort -u | wc -l)
[ "$n" -eq 33 ] && pass "33 offsets" || fail "expected 33 offsets, got $n"
expect_rows sweep.csv stride offset float

# the gather model against a profile's peak (3352 GB/s): 2*4/(4+min(s*4,32)) of it
expect_status 0 "model with the h100 profile" run stride -d $POCL -p h100_sxm -s 4099 -n 1 --param sector=32 --param strides=1,2,8,1024 --param kernels=gather -o model.csv
m=$(csv_col model.csv model | xargs printf '%.1f ')
[ "$m" = "3352.0 2234.7 744.9 744.9 " ] && pass "gather model" || fail "model column: $m"

expect_error 2 "strides.*0.*out of range" "strides=0" run stride --quick -q -d $POCL --param strides=0 -o bad.csv
expect_error 2 "bad list 'a,b'" "non-numeric strides" run stride --quick -q -d $POCL --param strides=a,b -o bad.csv
expect_error 2 "offsets.*5000" "offset too large" run stride --quick -q -d $POCL --param offsets=5000 -o bad.csv
expect_error 2 "kernels: unknown value 'scatter'" "unknown kernel" run stride --quick -q -d $POCL --param kernels=scatter -o bad.csv
expect_error 2 "bad size 1 " "size 1" run stride -q -d $POCL -s 1 -o bad.csv
pocl_limits  # (what this device's limits make of it: rows.py fit)
expect_status 0 "local above the limit" run stride --quick -q -d $POCL -n 1 --param offsets=0 --param strides=1 --param local=100000 -o big.csv
expect_fit big.csv local 100000 "$(fit_expect items 100000)" "local reduced to the limit"

# a kernel that reads one element too far must fail validation (exit 1)
mkdir kdir && cp "$CLBENCH_SRC"/cl/*.cl kdir/
sed -i 's/out\[i\] = in\[i + off\];/out[i] = in[i + off + 1];/' kdir/stride.cl
sed -i 's/    out\[i\] = in\[j\];/    out[i] = in[j == 5 ? 6 : j];/' kdir/stride.cl
expect_status 1 "broken kernels caught" run stride -d $POCL -s 1000 -n 1 --kernel-dir kdir --param strides=1 --param offsets=0 -o broken.csv
s=$(csv_col broken.csv status | sort | uniq -c | tr -s ' ')
[ "$s" = " 2 failed" ] && pass "both rows failed" || fail "statuses: $s"
finish
