#!/usr/bin/env bash
# roofline on PoCL: read, F/2 dependent FMAs, write; every element checked
# bit for bit; bytes 2N sizeof and flops N F; the ceilings summary; an odd
# size (the tail) and other launch shapes; bad parameters refused; a wrong
# operation caught.
source "$(dirname "$0")/lib.sh"
set -e
expect_status 0 "roofline --quick" run roofline --quick -d $POCL -n 3 -o out.csv
expect_rows out.csv roofline fma float,double
rows roofline-flops out.csv && pass "flops 0,8,128 x float,double: bytes, flops, intensity" || fail "rows"
"$CLBENCH" run roofline --quick -q -d $POCL -n 2 -t float -o s.csv | grep -q "ridge" && pass "ceilings and ridge in the summary" || fail "no summary"
# 65545 = 4 x 4 x 4096 + 2 x 4 + 1: whole vectors left over, and an element
expect_status 0 "odd size: left-over vectors and elements" run roofline -d $POCL -t double -s 65545 -n 2 --param flops=6 --param vec=4 --param ilp=4 -o odd.csv
expect_rows odd.csv roofline fma double
expect_error 2 "bad flops 3" "odd flops refused" run roofline --quick -q -d $POCL --param flops=3 -o bad.csv
expect_error 2 "bad vec 3" "vec=3 refused" run roofline --quick -q -d $POCL --param vec=3 -o bad.csv
expect_error 2 "unknown type 'int'" "int refused" run roofline --quick -q -d $POCL -t int -o bad.csv
# op=muladd (the default where fma() is not a hardware operation, as on
# Rusticl llvmpipe): x*x + a, two roundings, checked against the host's own
# two-rounding chain bit for bit (contraction on in the kernel would fail it)
expect_status 0 "op=muladd" run roofline -q -d $POCL -t float,double -s 4099 -n 2 --param flops=0,64 --param op=muladd -o mad.csv
rows roofline-muladd mad.csv && pass "muladd rows ok, op=muladd in params but for the copy" || fail "muladd rows"
expect_error 2 "bad op 'mad'" "op=mad refused" run roofline --quick -q -d $POCL --param op=mad -o bad.csv
mkdir kd && cp "$CLBENCH_SRC"/cl/*.cl kd/
sed -i 's/#define F(j) CLB_CAT(x, j) = fma(CLB_CAT(x, j), CLB_CAT(x, j), av);/#define F(j) CLB_CAT(x, j) = fma(CLB_CAT(x, j), av, CLB_CAT(x, j));/' kd/roofline.cl
grep -q 'fma(CLB_CAT(x, j), av, CLB_CAT(x, j))' kd/roofline.cl || fail "sed did not plant the wrong operation"
expect_status 1 "wrong chain caught" run roofline --quick -d $POCL -n 1 --param flops=8 --kernel-dir kd -o broken.csv
s=$(csv_col broken.csv status | sort | uniq -c | tr -s ' ')
[ "$s" = " 2 failed" ] && pass "both types failed" || fail "statuses: $s"
finish
