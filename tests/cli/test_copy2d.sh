#!/usr/bin/env bash
# copy2d on PoCL: every type validated at the C1060 report's [C1060Report] 256x256 (--quick), odd
# sizes that are not tile multiples, a tile list, the loads_first variant, the
# report's order kept in `coalesced`, and bad tiles refused.
source "$(dirname "$0")/lib.sh"
set -e
expect_status 0 "copy2d --quick" run copy2d --quick -d $POCL -n 2 --warmup 1 -o out.csv
expect_rows out.csv copy2d coalesced float,double,float3,float3_aligned,float4
expect_rows out.csv copy2d rows float3
grep -q "cache_resident" out.csv && pass "256x256 marked cache_resident" || fail "256x256 not marked cache_resident"
grep -q ",loads_first," out.csv && fail "loads_first ran without being named" || pass "loads_first not run by default"
# bytes = 2 n1 n2 sizeof (float3 packed 12 B, float3_aligned 16 B)
rows copy2d-bytes out.csv && pass "bytes per type" || fail "bytes per type"
# sizes that are not multiples of the tile: edges bounds-checked and validated
expect_status 0 "odd sizes" run copy2d -q -d $POCL -n 2 --warmup 1 -s 1000x3000,33x4097 -o odd.csv
expect_rows odd.csv copy2d coalesced float,double,float3,float3_aligned,float4
expect_rows odd.csv copy2d rows float3
n=$(csv_col odd.csv size | sort -u | wc -l)
[ "$n" -eq 2 ] && pass "two odd sizes" || fail "expected 2 sizes, got $n"
# a tile list: one row per tile and kernel; loads_first validated on edges too
expect_status 0 "tile list" run copy2d -q -d $POCL -n 2 --warmup 1 -t float3,double -s 70x45 --param tile=32x8,16x16,64x4 --param kernels=coalesced,rows,loads_first -o tiles.csv
n=$(csv_col tiles.csv params | sort -u | wc -l)
[ "$n" -eq 3 ] && pass "three tiles" || fail "expected 3 tiles, got $n"
n=$(csv_col tiles.csv kernel | wc -l)
[ "$n" -eq 15 ] && pass "3 tiles x (3 float3 + 2 double kernels)" || fail "expected 15 rows, got $n"
expect_rows tiles.csv copy2d coalesced,rows,loads_first float3
expect_rows tiles.csv copy2d coalesced,loads_first double
expect_error 2 "unknown name 'first'|'first'" "unknown kernel refused" run copy2d -q -d $POCL -t float -s 64x64 --param kernels=first -o bad.csv
# The report's kernel in the report's order: each element stored right after
# it is loaded, no restrict (one load in flight per work-item), no staging.
rows copy2d-coalesced-order "$CLBENCH_SRC/cl/copy2d.cl" && pass "coalesced keeps the report's order" || fail "coalesced is not in the report's order"
# a work-group above the device's limit runs reduced (fewer rows of the same
# tile: what this device's limits make of it, rows.py fit); a bad shape is refused
pocl_limits
expect_status 0 "tile above the work-group limit" run copy2d -q -d $POCL -t float -s 64x64 -n 1 --param tile=128x64 -o big.csv
expect_fit big.csv tile 128x64 "$(fit_expect rows 128x64)" "tile reduced to the limit"
expect_error 2 "bad tile '32x7'" "BLOCK_ROWS not dividing TILE_DIM" run copy2d -q -d $POCL -t float -s 64x64 --param tile=32x7 -o bad.csv
expect_error 2 "bad tile 'abc'" "tile not a shape" run copy2d -q -d $POCL -t float -s 64x64 --param tile=abc -o bad.csv
expect_error 2 "bad size" "one extent" run copy2d -q -d $POCL -t float -s 4096 -o bad.csv
"$CLBENCH" copy2d --help --wide | grep -q "tile" && pass "help lists tile" || fail "help lacks tile"
# a kernel that skips the last column must fail validation (exit 1, status failed)
mkdir -p broken && cp "$CLBENCH_SRC"/cl/*.cl broken/
sed -i 's/if (x >= width)/if (x + 1 >= width)/' broken/copy2d.cl
expect_status 1 "broken kernel detected" run copy2d -q -d $POCL -n 1 --warmup 0 -t float -s 33x40 --kernel-dir broken -o broken.csv
grep -q ",failed," broken.csv && pass "failed row written" || fail "no failed row"
finish
