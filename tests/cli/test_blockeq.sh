#!/usr/bin/env bash
# blockeq on PoCL: both kernels and types at the C1060 report's [C1060Report] 512x512 over a P
# sweep, an odd size, the double/float summary, and bad input refused.
source "$(dirname "$0")/lib.sh"
set -e
pocl_limits  # a tile above the device's work-group is reduced: rows.py fit says to what
expect_status 0 "blockeq --quick" run blockeq --quick -d $POCL -n 2 --warmup 1 --param partitions=1,3,8,2 -o out.csv
expect_rows out.csv blockeq recip,divmod float,double
n=$(csv_col out.csv params | sed 's/,tile=.*//' | sort -u | tr '\n' ' ')
[ "$n" = "partitions=1 partitions=2 partitions=3 partitions=8 " ] && pass "P sorted: $n" || fail "P values: $n"
# tiles: one partition (256 B) wide, 512 work-items (fewer rows where the device allows fewer)
rows blockeq-tiles out.csv "$(fit_expect blockeq 64x8)" "$(fit_expect blockeq 32x16)" &&
  pass "tile shape per type" || fail "tile shape per type"
# the summary prints the double/float ratio per P (of rows of one tile's
# work-items: items halved to what the device runs unreduced, else a reduced
# tile of each type would be a line of its own)
items=512
while [ $items -gt 64 ] && [ $items -gt "$POCL_WG" ]; do items=$((items / 2)); done
"$CLBENCH" run blockeq --quick -q -d $POCL -n 2 --warmup 1 --param partitions=2 --param items=$items -o s.csv --wide > sum.txt
grep -Eq "recip .*partitions=2 .*ratio [0-9.]+" sum.txt && grep -Eq "divmod .*ratio" sum.txt && pass "double/float ratio in the summary" || fail "no ratio: $(cat sum.txt)"
# the default P sweep (no parameter) on a CPU: 1, one per core, two per core
# (on GPUs 1,2,4,8,16,32 and the CU-based values)
expect_status 0 "default P sweep" run blockeq -q -d $POCL -n 1 --warmup 0 -t float -s 64x100 --param kernels=divmod -o def.csv
rows blockeq-default-sweep def.csv && pass "default CPU sweep: 1, c, 2c" || fail "default CPU sweep"
# odd size (tiles cut at the edges) and another partition width
expect_status 0 "odd size" run blockeq -q -d $POCL -n 2 --warmup 1 -s 33x4097 --param partitions=5 -o odd.csv
expect_rows odd.csv blockeq recip,divmod float,double
expect_status 0 "partition_width=128" run blockeq -q -d $POCL -n 2 --warmup 1 -t double -s 100x100 --param partitions=4 --param partition_width=128 -o pw.csv
grep -q "tile $(fit_expect blockeq 16x32) (128 B wide: --param partition_width)" pw.csv &&
  pass "row names the width's source" || fail "no width source: $(cat pw.csv)"
# A profile without a partition width (the H100's hashed HBM3, PoCL): the
# tile is the report's 256 B and every row says so.
grep -q "partition_width_bytes" "$CLBENCH_SRC/platforms/h100_sxm.ini" "$CLBENCH_SRC/platforms/h200.ini" \
  && fail "H100/H200 profiles name a partition width" || pass "no partition width in the H100/H200 profiles"
expect_status 0 "H100 profile on PoCL" run blockeq -q -d $POCL -p h100_sxm -n 1 --warmup 0 -t float -s 100x100 --param partitions=2 --param kernels=divmod -o h100.csv
grep -q "tile $(fit_expect blockeq 64x4) (256 B wide: the C1060 report's partition width; the profile names none)" h100.csv \
  && pass "H100 profile: the report's 256 B, said in the row" || fail "H100 tile: $(cat h100.csv)"
# refused
expect_error 2 "partitions: value 0" "partitions=0" run blockeq -q -d $POCL -s 512x512 --param partitions=0 -o bad.csv
# (tiles of 64x1 floats: 32768x32768 of 64x8 fails alike, but PoCL cannot hold
# it and a group that does not fit is skipped before set-up)
# A size where the report's reciprocal fails is a skipped recip row with the
# reason, never a stopped suite (the H200's default 16384^2 of 64x4 tiles is one).
expect_status 4 "recip wrong at this size: skipped" run blockeq -q -d $POCL -t float -s 4096x32768 --param items=64 --param kernels=recip -o skip.csv
grep -q "skipped,\"blockeq recip: the float reciprocal misplaces tile" skip.csv && pass "skip row names the misplaced tile" || fail "no skip row: $(cat skip.csv)"
expect_error 2 "kernels: unknown value 'foo'" "unknown kernel" run blockeq -q -d $POCL -s 512x512 --param kernels=foo -o bad.csv
expect_error 2 "partition of 100 B" "partition width not a multiple" run blockeq -q -d $POCL -t double -s 512x512 --param partition_width=100 -o bad.csv
# a tile above the device's work-group limit runs reduced: fewer rows
expect_status 0 "items above the work-group limit" run blockeq -q -d $POCL -t float -s 512x512 -n 1 --param items=8192 -o big.csv
expect_fit big.csv tile 64x128 "$(fit_expect blockeq 64x128)" "tile reduced to the limit"
# a wrong tile row must fail validation (exit 1)
mkdir -p broken && cp "$CLBENCH_SRC"/cl/*.cl broken/
sed -i 's|uint by = gbid / k2;|uint by = gbid / k2 / 2;|' broken/blockeq.cl
expect_status 1 "broken kernel detected" run blockeq -q -d $POCL -n 1 --warmup 0 -t float -s 64x128 --param kernels=divmod --param partitions=2 --kernel-dir broken -o broken.csv
finish
