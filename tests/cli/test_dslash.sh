#!/usr/bin/env bash
# dslash on PoCL: 8^4 and 8^3x4, both long-link kinds, rhs 1 and 3, both
# types, both kernels validated against the float64 reference; bad sizes and
# parameters refused; a broken kernel is caught by the validation.
source "$(dirname "$0")/lib.sh"
set -e
expect_status 0 "dslash 8^4 and 8^3x4" run dslash -d $POCL -s 8x8x8x8,8x8x8x4 -t float,double \
  --param rhs=1,3 --param links=full,compressed --param kernel=reg,cache -n 2 --warmup 1 -o out.csv
expect_status 0 "dslash best" run dslash -d $POCL -s 8x8x8x4 -t float --param rhs=3 --param links=full --param kernel=best -n 1 --warmup 0 -o best.csv
expect_rows best.csv dslash best float
csv_col best.csv detail | grep -q "best=.*probe" && pass "best names its choice" || fail "best without its choice in detail"
expect_rows out.csv dslash reg,cache float,double
n=$(python3 - out.csv <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["workload"] == "dslash"]
combos = {(r["size"], r["dtype"], r["params"], r["kernel"]) for r in rows if r["status"] == "ok"}
print(len(combos))
PY
)
[ "$n" -eq 32 ] && pass "32 (size, type, rhs, links, kernel) rows ok" || fail "expected 32 ok rows, got $n"
# the counts of the talk: 1146 flop and 1024 + 408 r bytes per even site (fp32, compressed)
python3 - out.csv <<'PY' && pass "flops, bytes and error in the rows" || fail "flops/bytes/detail wrong"
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["workload"] != "dslash": continue
    sites = 8 * 8 * 8 * (8 if r["size"] == "8x8x8x8" else 4) // 2
    rhs = int(r["params"].split("rhs=")[1].split(",")[0])
    links = 1024 if "compressed" in r["params"] else 1152
    scale = 2 if r["dtype"] == "double" else 1
    assert abs(float(r["flops"]) - 1146 * sites * rhs) < 1e-6 * float(r["flops"]), r
    assert abs(float(r["bytes"]) - scale * (links + 408 * rhs) * sites) < 1, r
    assert "rel_l2=" in r["detail"], r
    assert ("rebuild_err=" in r["detail"]) == ("compressed" in r["params"]), r
PY
# a non-cubic lattice whose sites are not a multiple of the work-group size (bounds check)
expect_status 0 "dslash 6x6x4x4 local 64" run dslash -d $POCL -s 6x6x4x4 -t float,double --param rhs=3 \
  --param links=compressed --param kernel=reg,cache --param local=64 -n 1 --warmup 0 -o odd.csv
expect_rows odd.csv dslash reg,cache float,double
# bad sizes and parameters: exit 2, one line
expect_error 2 "extent 7 in direction x.*even" "odd extent refused" run dslash -d $POCL -s 7x8x8x8 -o bad.csv
expect_error 2 "extent 2 in direction t.*>= 4" "extent 2 refused" run dslash -d $POCL -s 8x8x8x2 -o bad.csv
expect_error 2 "4 extents" "three extents refused" run dslash -d $POCL -s 8x8x8 -o bad.csv
expect_error 2 "5 extents|expected LxLyLzLt|expected LxxLyxLzxLt|4 extents" "five extents refused" run dslash -d $POCL -s 8x8x8x8x8 -o bad.csv
expect_error 2 "links: unknown value 'half'" "bad links refused" run dslash -q -d $POCL --quick --param links=half -o bad.csv
expect_error 2 "rhs" "rhs 9 refused" run dslash -q -d $POCL --quick --param rhs=9 -o bad.csv
expect_error 2 "kernel: unknown value 'fast'" "bad kernel refused" run dslash -q -d $POCL --quick --param kernel=fast -o bad.csv
# a kernel with a wrong sign in the backward hops must fail validation (exit 1)
mkdir -p kern && cp "$CLBENCH_SRC"/cl/*.cl kern/
sed -i 's/acc\[3 \* r + 1\] -= cmulc/acc[3 * r + 1] += cmulc/' kern/dslash.cl
expect_status 1 "broken kernel fails validation" run dslash -d $POCL -s 8x8x8x4 -t float --param rhs=1 \
  --param links=full --param kernel=reg -n 1 --warmup 0 --kernel-dir kern -o broken.csv
csv_col broken.csv detail | grep -q "relative L2 error" && pass "error in detail" || fail "no error in detail"
# scaling= in one process: the lattice split over one rank, the halos along t
# exchanged with itself through the pinned buffers (no MPI; tests/fault/
# test_mpi_dslash.sh runs 2 and 3 ranks); the rows count the part (part=)
expect_status 0 "dslash scaling=strong, one process" run dslash -d $POCL -s 8x8x8x8 -t float,double \
  --param rhs=1,3 --param kernel=reg,cache --param links=compressed --param scaling=strong \
  -n 1 --warmup 1 -o scal.csv
expect_rows scal.csv dslash reg,cache float,double
python3 - scal.csv <<'PY' && pass "scaling rows: params, counts, halo notes" || fail "scaling rows wrong"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["workload"] == "dslash"]
assert len(rows) == 8, len(rows)
for r in rows:
    assert r["params"].endswith(",scaling=strong,grid=1x1x1x1,part=8x8x8x8"), r["params"]
    rhs = int(r["params"].split("rhs=")[1].split(",")[0])
    assert float(r["flops"]) == 1146 * rhs * 8 ** 4 // 2, r
    for key in ("halo_ms=", "halo_exposed_ms=", "halo_model_ms=", "halo_bytes=", "(measured)",
                "sites_interior=512 ", "sites_boundary=1536", "rel_l2="):
        assert key in r["detail"], (key, r["detail"])
PY
echo "$OUT_TXT" | grep -q "dslash across ranks" && pass "halo summary" || fail "no halo summary: $OUT_TXT"
expect_status 0 "dslash scaling=weak, bus_gbps given" run dslash -d $POCL -s 8x8x8x4 -t float \
  --param rhs=2 --param kernel=cache --param scaling=weak --param bus_gbps=10 -n 1 --warmup 0 -o weak.csv
csv_col weak.csv detail | grep -q "bus_d2h_gbps=10 bus_h2d_gbps=10 (bus_gbps)" && pass "bus_gbps used" ||
  fail "bus_gbps not in detail: $(csv_col weak.csv detail)"
# a halo read from the wrong slab fails validation, also with one rank
sed -i 's/uint fwd = 3u \* rtot \* slab;/uint fwd = 0u * rtot * slab;/' kern/dslash.cl
expect_status 1 "a wrong halo fails validation" run dslash -d $POCL -s 8x8x8x8 -t float --param rhs=1 \
  --param kernel=reg --param scaling=strong -n 1 --warmup 0 --kernel-dir kern -o badhalo.csv
expect_error 2 "scaling: 'medium' is not strong or weak|scaling=medium" "bad scaling refused" run dslash -d $POCL --quick --param scaling=medium -o bad.csv
expect_error 2 "grid=1x1x1x2 has 2 parts, the job 1 rank" "grid of 2 parts in one process refused" run dslash -d $POCL --quick --param scaling=strong --param grid=1x1x1x2 -o bad.csv
expect_error 2 "splits x or y" "grid splitting x refused" run dslash -d $POCL --quick --param scaling=weak --param grid=2x1x1x1 -o bad.csv
expect_error 2 "bus_gbps" "bad bus_gbps refused" run dslash -d $POCL --quick --param scaling=weak --param bus_gbps=-1 -o bad.csv
finish
