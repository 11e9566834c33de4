#!/usr/bin/env bash
# dslash on PoCL: 8^4 and 8^3x4, both long-link kinds, rhs 1 and 3, both
# types, both kernels validated against the float64 reference; bad sizes and
# parameters refused; a broken kernel is caught by the validation.
source "$(dirname "$0")/lib.sh"
set -e
expect_status 0 "dslash 8^4 and 8^3x4" run dslash -d $POCL -s 8x8x8x8,8x8x8x4 -t float,double \
  --param rhs=1,3 --param links=full,compressed --param kernels=reg,cache -n 2 --warmup 1 -o out.csv
expect_status 0 "dslash best" run dslash -d $POCL -s 8x8x8x4 -t float --param rhs=3 --param links=full --param kernels=best -n 1 --warmup 0 -o best.csv
expect_rows best.csv dslash best float
csv_col best.csv detail | grep -q "best=.*probe" && pass "best names its choice" || fail "best without its choice in detail"
expect_rows out.csv dslash reg,cache float,double
rows dslash-combos out.csv 32 && pass "32 (size, type, rhs, links, kernel) rows ok" || fail "expected 32 ok rows"
rows dslash-counts out.csv && pass "flops, bytes and error in the rows" || fail "flops/bytes/detail wrong"
# the variants: regcache (k rhs per work-item), reg in
# passes, the z-strip site order, best's probe over all of them, in both types; with stream
# first, the talk's baseline [Wagner15] (of_stream_triad) in every row
expect_status 0 "dslash variants" run stream,dslash -d $POCL --quick -t float,double --param rhs=4 \
  --param links=compressed --param dslash.kernels=reg,regcache,best --param pass=0,2 --param zstrip=0,2 \
  -n 1 --warmup 0 -o var.csv
expect_rows var.csv dslash reg,regcache,best float,double
rows dslash-variants var.csv && pass "variant rows: params, metrics, probe, baseline" || fail "variant rows wrong"
"$CLBENCH" dslash --help --wide | grep -q "regcache (k rhs per work-item" && pass "help lists regcache" ||
  fail "dslash --help does not list regcache"
"$CLBENCH" dslash --help --wide | grep -q "baselines: stream/triad" && pass "help lists stream/triad" ||
  fail "dslash --help does not list stream/triad"
# best= names the variant per rhs; a bad entry is refused; a zstrip that does not divide Lz
# gives a skipped row with the reason, and is refused with scaling=
expect_status 0 "best per rhs" run dslash -d $POCL -s 8x8x8x4 -t float --param rhs=2,4 \
  --param links=full --param kernels=best --param best=2:cache,regcache2 -n 1 --warmup 0 -o bper.csv
rows dslash-best-per-rhs bper.csv && pass "best= per rhs followed" || fail "best= per rhs not followed"
expect_error 2 "best: 'regcache9'" "bad best refused" run dslash -q -d $POCL --quick --param best=regcache9 -o bad.csv
expect_status 0 "zstrip 3 on Lz 8" run dslash -d $POCL --quick -t float --param rhs=1 --param links=full \
  --param kernels=reg --param zstrip=0,3 -n 1 --warmup 0 -o zs.csv
csv_col zs.csv detail | grep -q "zstrip=3 does not divide Lz=8" && pass "zstrip 3 skipped with its reason" ||
  fail "zstrip 3: $(csv_col zs.csv detail)"
expect_error 2 "zstrip" "zstrip with scaling refused" run dslash -d $POCL --quick --param zstrip=2 --param scaling=weak -o bad.csv
# a wrong site order (every strip's first plane only) leaves sites unwritten: validation fails
mkdir -p kz && cp "$CLBENCH_SRC"/cl/*.cl kz/
sed -i 's/uint z = s \* (uint)zs + (rem - t \* (uint)zs);/uint z = s * (uint)zs;/' kz/dslash.cl
expect_status 1 "broken site order fails validation" run dslash -d $POCL -s 8x8x8x4 -t float --param rhs=1 \
  --param links=full --param kernels=reg --param zstrip=2 -n 1 --warmup 0 --kernel-dir kz -o bz.csv
# a pass that skips its rhs block's advance reads the first block twice: validation fails
cp "$CLBENCH_SRC"/cl/*.cl kz/
sed -i 's/        v += (uint)(3 \* RHS) \* vh;/        v += 0u;/' kz/dslash.cl
expect_status 1 "broken passes fail validation" run dslash -d $POCL -s 8x8x8x4 -t float --param rhs=2 \
  --param links=full --param kernels=reg --param pass=1 -n 1 --warmup 0 --kernel-dir kz -o bp.csv
# a non-cubic lattice whose sites are not a multiple of the work-group size (bounds check)
expect_status 0 "dslash 6x6x4x4 local 64" run dslash -d $POCL -s 6x6x4x4 -t float,double --param rhs=3 \
  --param links=compressed --param kernels=reg,cache --param local=64 -n 1 --warmup 0 -o odd.csv
expect_rows odd.csv dslash reg,cache float,double
# bad sizes and parameters: exit 2, one line
expect_error 2 "extent 7 in direction x.*even" "odd extent refused" run dslash -d $POCL -s 7x8x8x8 -o bad.csv
expect_error 2 "extent 2 in direction t.*>= 4" "extent 2 refused" run dslash -d $POCL -s 8x8x8x2 -o bad.csv
expect_error 2 "4 extents" "three extents refused" run dslash -d $POCL -s 8x8x8 -o bad.csv
expect_error 2 "5 extents|expected LxLyLzLt|expected LxxLyxLzxLt|4 extents" "five extents refused" run dslash -d $POCL -s 8x8x8x8x8 -o bad.csv
expect_error 2 "links: unknown value 'half'" "bad links refused" run dslash -q -d $POCL --quick --param links=half -o bad.csv
expect_error 2 "rhs" "rhs 9 refused" run dslash -q -d $POCL --quick --param rhs=9 -o bad.csv
expect_error 2 "kernels: unknown value 'fast'" "bad kernel refused" run dslash -q -d $POCL --quick --param kernels=fast -o bad.csv
# a kernel with a wrong sign in the backward hops must fail validation (exit 1)
mkdir -p kern && cp "$CLBENCH_SRC"/cl/*.cl kern/
sed -i 's/acc\[3 \* r + 1\] -= cmulc/acc[3 * r + 1] += cmulc/' kern/dslash.cl
expect_status 1 "broken kernel fails validation" run dslash -d $POCL -s 8x8x8x4 -t float --param rhs=1 \
  --param links=full --param kernels=reg -n 1 --warmup 0 --kernel-dir kern -o broken.csv
csv_col broken.csv detail | grep -q "relative L2 error" && pass "error in detail" || fail "no error in detail"
# scaling= in one process: the lattice split over one rank, the halos along t
# exchanged with itself through the pinned buffers (no MPI; tests/fault/
# test_mpi_dslash.sh runs 2 and 3 ranks); the rows count the part (part=)
expect_status 0 "dslash scaling=strong, one process" run dslash -d $POCL -s 8x8x8x8 -t float,double \
  --param rhs=1,3 --param kernels=reg,cache --param links=compressed --param scaling=strong \
  -n 1 --warmup 1 -o scal.csv
expect_rows scal.csv dslash reg,cache float,double
rows dslash-scaling scal.csv && pass "scaling rows: params, counts, halo notes" || fail "scaling rows wrong"
echo "$OUT_TXT" | grep -q "dslash across ranks" && pass "halo summary" || fail "no halo summary: $OUT_TXT"
expect_status 0 "dslash scaling=weak, bus_gbps given" run dslash -d $POCL -s 8x8x8x4 -t float \
  --param rhs=2 --param kernels=cache --param scaling=weak --param bus_gbps=10 -n 1 --warmup 0 -o weak.csv
csv_col weak.csv detail | grep -q "bus_d2h_gbps=10 bus_h2d_gbps=10 (bus_gbps)" && pass "bus_gbps used" ||
  fail "bus_gbps not in detail: $(csv_col weak.csv detail)"
# the other chains (exchange=bulk: one read, the copy, one write; shm: the
# window of one process) validate with one rank too
expect_status 0 "dslash scaling=weak, exchange=bulk and shm" run dslash -d $POCL -s 8x8x8x4 -t float \
  --param rhs=1 --param kernels=reg --param links=compressed --param scaling=weak --param exchange=bulk -n 1 --warmup 0 -o chains.csv
expect_status 0 "dslash scaling=weak, exchange=shm, 1 KiB chunks" run dslash -d $POCL -s 8x8x8x4 \
  -t float --param rhs=2 --param kernels=reg --param links=compressed --param scaling=weak --param exchange=shm --param chunk=1 \
  -n 1 --warmup 0 -o chains.csv
rows dslash-chains chains.csv && pass "bulk and shm rows ok" || fail "chains"
# another chain, or chunk, is another line: in the params (the default's rows keep theirs)
rows dslash-chain-params chains.csv && pass "exchange= and chunk= in the rows' params" || fail "params end"
# a halo read from the wrong slab fails validation, also with one rank
cp "$CLBENCH_SRC"/cl/*.cl kern/
sed -i 's/(side == 2 ? n \* slab : 0u)/(side == 2 ? 0u : 0u)/' kern/dslash.cl
grep -q "(side == 2 ? 0u : 0u)" kern/dslash.cl && pass "the wrong halo planted" || fail "the planted halo fault did not apply"
expect_status 1 "a wrong halo fails validation" run dslash -d $POCL -s 8x8x8x8 -t float --param rhs=1 \
  --param kernels=reg --param scaling=strong -n 1 --warmup 0 --kernel-dir kern -o badhalo.csv
# a pack kernel that packs the wrong slices (in bounds): the halos it sends
# differ from the host's slabs, and the operator's result is wrong
cp "$CLBENCH_SRC"/cl/*.cl kern/
sed -i 's/int first = side ? 0 : lmu - 3;/int first = side ? 0 : lmu - 4;/' kern/dslash.cl
grep -q "lmu - 4;" kern/dslash.cl && pass "the wrong pack offset planted" || fail "the planted pack fault did not apply"
expect_status 1 "a wrong pack offset fails validation" run dslash -d $POCL -s 8x8x8x8 -t float \
  --param rhs=2 --param kernels=reg --param scaling=weak -n 1 --warmup 0 --kernel-dir kern -o badpack.csv
csv_col badpack.csv detail | grep -q "the packed halo (halo_pack) differs from the host's slab for the forward t neighbour" &&
  csv_col badpack.csv detail | grep -q "even sites wrong" && pass "the pack check names the slab" ||
  fail "pack check: $(csv_col badpack.csv detail)"
expect_error 2 "scaling: 'medium' is not strong or weak|scaling=medium" "bad scaling refused" run dslash -d $POCL --quick --param scaling=medium -o bad.csv
expect_error 2 "grid=1x1x1x2 has 2 parts, the job 1 rank" "grid of 2 parts in one process refused" run dslash -d $POCL --quick --param scaling=strong --param grid=1x1x1x2 -o bad.csv
expect_error 2 "splits x; only y, z and t" "grid splitting x refused" run dslash -d $POCL --quick --param scaling=weak --param grid=2x1x1x1 -o bad.csv
expect_error 2 "bus_gbps" "bad bus_gbps refused" run dslash -d $POCL --quick --param scaling=weak --param bus_gbps=-1 -o bad.csv
expect_error 2 "exchange: 'fast' \\(known: pipe, bulk, shm\\)" "bad exchange refused" run dslash -d $POCL --quick --param scaling=weak --param exchange=fast -o bad.csv
expect_error 2 "chunk" "bad chunk refused" run dslash -d $POCL --quick --param scaling=weak --param chunk=0 -o bad.csv
finish
