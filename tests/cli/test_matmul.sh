#!/usr/bin/env bash
# matmul on PoCL at --quick sizes (128 and the odd 100): naive and tiled
# validated, tiles that do not divide n, bad parameters refused, and a broken
# kernel caught by the validation.
source "$(dirname "$0")/lib.sh"
set -e
expect_status 0 "matmul --quick" run matmul --quick -d $POCL -n 2 -o out.csv
expect_rows out.csv matmul naive,tiled float
n=$(csv_col out.csv size | sort -u | tr '\n' ' ')
[ "$n" = "100 128 " ] && pass "quick sizes 128 and 100" || fail "sizes: $n"
# flops 2n^3, bytes 3n^2*4, the error ratio in detail
rows matmul-row100 out.csv && pass "flops, bytes, error ratio" || fail "row of n=100"

# odd sizes with tiles that do not divide them
expect_status 0 "tiles 1,4,8,16 on n=37 and 1" run matmul -d $POCL -s 37,1 -n 1 --param tile=1,4,8,16 -o odd.csv
expect_rows odd.csv matmul naive,tiled float
n=$(grep -c ',tiled,' odd.csv)
[ "$n" -eq 8 ] && pass "4 tiles x 2 sizes" || fail "expected 8 tiled rows, got $n"
"$CLBENCH" run matmul --quick -q -d $POCL -n 1 -o s.csv | grep -q "x naive" && pass "summary ratio" || fail "no summary"

# (what this device's limits make of it: rows.py fit)
pocl_limits
expect_status 0 "tile above the work-group limit" run matmul --quick -q -d $POCL -n 1 --param kernels=tiled --param tile=65 -o big.csv
expect_fit big.csv tile 65 "$(fit_expect matmul-tiled 65)" "tile halved to the limit"
expect_error 2 "tile.*bad list" "non-numeric tile" run matmul --quick -q -d $POCL --param tile=16,x -o bad.csv
expect_error 2 "tile.*out of range" "tile 0" run matmul --quick -q -d $POCL --param tile=0 -o bad.csv
expect_error 2 "kernels: unknown value 'strassen'" "unknown kernel" run matmul --quick -q -d $POCL --param kernels=strassen -o bad.csv
expect_error 2 "bad size 70000" "size too large" run matmul -q -d $POCL -s 70000 -o bad.csv
expect_error 2 "unknown type 'double'" "double refused" run matmul --quick -q -d $POCL -t double -o bad.csv

# kernels that drop the last k term must fail validation (exit 1)
mkdir kdir && cp "$CLBENCH_SRC"/cl/*.cl kdir/
sed -i 's/for (uint k = 0; k < n; k++)/for (uint k = 0; k + 1 < n; k++)/' kdir/matmul.cl
sed -i 's/for (uint k = 0; k < TILE; k++)/for (uint k = 0; k < TILE - (t0 + TILE >= n); k++)/' kdir/matmul.cl
expect_status 1 "broken kernels caught" run matmul -d $POCL -s 64 -n 1 --kernel-dir kdir -o broken.csv
s=$(csv_col broken.csv status | sort | uniq -c | tr -s ' ')
[ "$s" = " 2 failed" ] && pass "both rows failed" || fail "statuses: $s"
finish
