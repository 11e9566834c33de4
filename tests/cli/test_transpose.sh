#!/usr/bin/env bash
# transpose on PoCL: every kernel and type validated at --quick sizes, odd
# shapes, the size cap of serial, of_copy in detail, the tile from the
# profile, the loads-first, rectangular, ordered, down-the-column and
# persistent best variants, broken kernels caught by validation, and bad
# input refused.
source "$(dirname "$0")/lib.sh"
set -e
pocl_limits  # POCL_WG, POCL_DIMS, POCL_LOCAL: what the device reports
ALL=copy,copy_local,serial,per_row,naive,coalesced,nobankconflict,fine_grained,coarse_grained,diagonal,best

expect_status 0 "transpose --quick float,double" run transpose --quick -d $POCL -t float,double -n 3 -o out.csv
expect_rows out.csv transpose $ALL float,double
rows transpose-quick out.csv && pass "of_copy on every non-copy row, probe note on best" || fail "detail notes"

# Non-square, non-multiple-of-tile shapes; serial is above its cap at 1000x3000.
expect_status 0 "odd sizes" run transpose -d $POCL -t float,double -s 1000x3000,4097x33,1x1,5x70 \
  -n 1 --warmup 0 -o odd.csv
rows transpose-odd odd.csv && pass "odd sizes: all ok, serial skipped by its cap at 1000x3000" || fail "odd sizes"
# per_row is the transpose lecture's [Udacity12]: one work-item per output row = input column (m of
# an n x m input), reading coalesced and writing n apart; groups of 64.
rows transpose-per-row odd.csv && pass "per_row: one work-item per input column" || fail "per_row grid"

# The cap is a parameter; explicit best variants give one row each, a
# vector width that does not divide the shape is skipped with the reason.
expect_status 0 "serial_max, best variants" run transpose -d $POCL -s 1000x3000,4097x33 -t float -n 1 \
  --warmup 0 --param kernels=copy,serial,best --param serial_max=4000000 --param best=32x8v1,16x4v4,r4g8x32 -o var.csv
rows transpose-variants var.csv && pass "variants and cap" || fail "variants and cap"

# The loads-first forms (suffix l, kK): exact at the quick size, where the
# tiles of a work-group overhang the edge (1000x3000, 100x196: K tiles past
# the last column), and with vectors 1 on a shape of no multiple (4097x33).
expect_status 0 "loads-first best variants" run transpose -d $POCL -s 256x256,1000x3000,100x196,4097x33 \
  -t float,double -n 1 --warmup 0 --param kernels=best --param best=64x4v4l,64x8v4k2,32x4v2k4,16x4v1k3 -o pipe.csv
rows transpose-pipe pipe.csv "$POCL_LOCAL" && pass "loads-first variants ok (vectors skipped on 4097x33)" || fail "loads-first variants"

# The rectangular form rectRxCvVwW (the probe's candidates and a scalar one):
# exact at the quick size, with partial tiles on both edges (1000x3000,
# 100x196: the tile taller than the matrix), vectors skipped on 4097x33.
expect_status 0 "rectangular best variants" run transpose -d $POCL -s 256x256,1000x3000,100x196,4097x33 \
  -t float,double -n 1 --warmup 0 --param kernels=best \
  --param best=rect128x32v4w256,rect256x16v4w256,rect128x32v2w256,rect128x16v2w256,rect64x8v1w64 -o rect.csv
rows transpose-rect rect.csv && pass "rectangular variants ok (vectors skipped on 4097x33)" || fail "rectangular variants"

# Tile orders (oR oC oD oS<k>), tiles down a column (dK), persistent groups
# (pP) and their compositions: exact at the quick size and on odd shapes
# (partial tiles, bands and column groups overhanging the edge; 5x70: one
# tile row), vectors skipped on shapes of no multiple; nt skipped off NVIDIA.
NEW=64x8v4oC,32x8v2oD,64x8v4oS3,32x8v4d4oC,16x4v1d3,64x8v4p4oS2,16x4v1p3oD,16x8v1loR,16x4v1k3oC,16x4v1oS2,64x8v4nt
expect_status 0 "order, down and persistent best variants" run transpose -d $POCL -s 256x256,1000x3000,4097x33,5x70 \
  -t float,double -n 1 --warmup 0 --param kernels=best --param best=$NEW -o new.csv
rows transpose-new new.csv "$POCL_LOCAL" && pass "new variants ok (vectors skipped on 4097x33 and 5x70, nt skipped)" || fail "new variants"

# transpose.tile from the profile
mkdir -p prof
cp "$CLBENCH_SRC/platforms/pocl_cpu.ini" prof/
printf '[tuning]\ntranspose.tile = 16x4\n' >>prof/pocl_cpu.ini
expect_status 0 "tile from the profile" run transpose -d $POCL --platforms-dir prof -s 40x24 -n 1 \
  --param kernels=nobankconflict,fine_grained,coarse_grained -o prof.csv
p=$(csv_col prof.csv params | sort -u | tr '\n' ' ')
l=$(csv_col prof.csv local_size | sort -u | tr '\n' ' ')
[ "$p" = "tile=16x4 " ] && [ "$l" = "16x4 " ] && pass "tile 16x4 from the profile" || fail "params '$p' local '$l'"

# Validation can fail: coarse_grained made to transpose its tiles too.
mkdir -p kdir
cp "$CLBENCH_SRC"/cl/*.cl kdir/
rows replace-after kdir/transpose.cl "void coarse_grained" \
  "out[orow * n + ocol] = tile[ty + k][tx];" "out[orow * n + ocol] = tile[tx][ty + k];"
expect_status 1 "a broken coarse_grained fails validation" run transpose -d $POCL --kernel-dir kdir -s 64x96 -n 1 \
  --param kernels=coarse_grained -o broken.csv
[ "$(csv_col broken.csv status)" = failed ] && grep -q "elements wrong" broken.csv && pass "failed row with the count" ||
  fail "no failed row in broken.csv"

# Validation catches a pipelined best whose next tile is loaded from the wrong column.
rows replace kdir/transpose.cl "const IDX cnext = col0 + BT;" "const IDX cnext = col0;"
expect_status 1 "a broken best_pipe fails validation" run transpose -d $POCL --kernel-dir kdir -s 64x256 -n 1 \
  --param kernels=best --param best=32x8v4k2 -o broken2.csv
[ "$(csv_col broken2.csv status)" = failed ] && grep -q "elements wrong" broken2.csv && pass "failed best_pipe row" ||
  fail "no failed row in broken2.csv"

# Validation catches a rectangular best that reads the wrong rows (rows
# per pass taken as 1).
rows replace kdir/transpose.cl "const IDX row = row0 + rr + k * RRP;" "const IDX row = row0 + rr + k;"
expect_status 1 "a broken best_rect fails validation" run transpose -d $POCL --kernel-dir kdir -s 256x64 -n 1 \
  --param kernels=best --param best=rect128x32v4w256 -o broken3.csv
[ "$(csv_col broken3.csv status)" = failed ] && grep -q "elements wrong" broken3.csv && pass "failed best_rect row" ||
  fail "no failed row in broken3.csv"

# Validation catches a column order that takes some tiles twice (x from
# g mod gx instead of g div gy), and a down-the-column sequence that moves
# its first tile again instead of the next.
rows replace kdir/transpose.cl $'#elif ORD == 1\n    *x = g / gy;' $'#elif ORD == 1\n    *x = g % gx;'
rows replace kdir/transpose.cl "(r0) = (y0 + (j)) * BT;" "(r0) = y0 * BT;"
expect_status 1 "a broken column order fails validation" run transpose -d $POCL --kernel-dir kdir -s 128x192 -n 1 \
  --param kernels=best --param best=32x8v4oC -o broken4.csv
[ "$(csv_col broken4.csv status)" = failed ] && grep -q "elements wrong" broken4.csv && pass "failed column-order row" ||
  fail "no failed row in broken4.csv"
expect_status 1 "a broken down-the-column sequence fails validation" run transpose -d $POCL --kernel-dir kdir -s 128x64 -n 1 \
  --param kernels=best --param best=32x8v4d2 -o broken5.csv
[ "$(csv_col broken5.csv status)" = failed ] && grep -q "elements wrong" broken5.csv && pass "failed best_seq row" ||
  fail "no failed row in broken5.csv"

# A size no device can hold is skipped with the reason, never run; one whose
# byte count does not fit in 64 bits is refused.
expect_status 4 "huge size skipped (nothing measured: exit 4)" run transpose -d $POCL -q -s 100000x100000 -t double -o huge.csv
[ "$(csv_col huge.csv status | sort -u)" = skipped ] && pass "huge size: skipped row" || fail "huge size not skipped"
expect_error 2 "4294967296x1073741824 of double: .*does not fit in 64 bits" "size past 64 bits refused" \
  run transpose -d $POCL -q -s 4294967296x1073741824 -t double -o huge2.csv

# Bad input: one line, exit 2.
expect_error 2 "bad size '0x5'" "zero extent" run transpose -d $POCL -s 0x5 -o bad.csv
expect_error 2 "bad size '100'" "one extent" run transpose -d $POCL -s 100 -o bad.csv
expect_error 2 "bad tile '32x7'" "tile not a multiple" run transpose -d $POCL --quick -q --param tile=32x7 -o bad.csv
# tiles and variants the device cannot run are reduced to ones it can, never
# refused: what each becomes is derived from the limits this device reports
# (rows.py fit: the fit's shrink rules, asked whether each tile fits),
# never from one machine (PoCL reports 4096 work-items and 1 or 2 MiB of local
# memory, as its CPU's L2, on the machines CI has run on)
# tr_fit RULE KEY ASKED DESCRIPTION ARGS...: the quick float run of ARGS
# (KEY=ASKED) runs what the fit gives on this device (RULE: rows.py fit):
# reduced, as asked, or skipped when nothing of its form fits (nothing
# measured: exit 4)
tr_fit() {
  local rule=$1 key=$2 asked=$3 what=$4 want; shift 4
  rm -f big.csv  # (clbench appends to a results file)
  want=$(fit_expect "$rule" "$asked" 4)
  if [ "$want" = none ]; then
    expect_status 4 "$what: nothing of $asked's form fits" run transpose -d $POCL --quick -q -n 1 \
      --warmup 0 "$@" -o big.csv
    rows skipped-for big.csv "no $key down from $asked fits" && pass "$what: skipped, said why" ||
      fail "$what: no skipped row for $asked"
    return
  fi
  expect_status 0 "$what: $asked" run transpose -d $POCL --quick -q -n 1 --warmup 0 "$@" -o big.csv
  expect_fit big.csv "$key" "$asked" "$want" "$what"
}
tr_fit rows tile 128x64 "fewer rows of the same tile" --param kernels=naive --param tile=128x64
tr_fit rows tile 1024x256 "a smaller tile, then fewer rows" --param kernels=coalesced --param tile=1024x256
expect_error 2 "bad best variant 'fast'" "bad best variant" run transpose -d $POCL --quick -q --param best=fast -o bad.csv
tr_fit best best 512x16v4 "best: half the tile and its rows" --param kernels=best --param best=512x16v4
expect_error 2 "bad best variant '64x4v4k9'" "tiles per work-group above 8" run transpose -d $POCL --quick -q --param best=64x4v4k9 -o bad.csv
expect_error 2 "bad best variant '64x4v4lk2'" "bad suffix" run transpose -d $POCL --quick -q --param best=64x4v4lk2 -o bad.csv
tr_fit best best 512x16v4k2 "best kK: two local tiles counted" --param kernels=best --param best=512x16v4k2
tr_fit best best r4g2048x2048 "best rV: the work-group halved" --param kernels=best --param best=r4g2048x2048
expect_error 2 "bad best variant 'rect128x30v4w256'" "rectangular tile not a multiple of V" run transpose -d $POCL --quick -q --param best=rect128x30v4w256 -o bad.csv
tr_fit best best rect256x256v1w65536 "best rect: W halved" --param kernels=best --param best=rect256x256v1w65536
# (the syntax itself is unit-tested: tests/unit/test_transpose_variant.c)
for bad in 64x8v4oX 64x8v4d17 64x8v4ntoC; do
  expect_error 2 "bad best variant '$bad'" "bad best variant $bad" run transpose -d $POCL --quick -q --param best=$bad -o bad.csv
done
tr_fit best best 512x16v4d2 "best dK: two local tiles counted" --param kernels=best --param best=512x16v4d2
expect_error 2 "kernels: unknown value 'nave'" "unknown kernel" run transpose -d $POCL --quick -q --param kernels=copy,nave -o bad.csv
expect_error 2 "serial_max" "bad cap" run transpose -d $POCL --quick -q --param serial_max=-3 -o bad.csv
finish
