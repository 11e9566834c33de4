# dslash on the H100: stream first (for of_stream_copy in detail), then the
# default 64^3x16 lattice in fp32 and fp64, rhs 1..8, both long-link kinds,
# kernels reg and cache (64 rows); then 32^3x8, the other lattice of [Wagner15], whose
# vectors fit in the 50 MB L2 (rhs 1,2,4,8: 32 rows). About 1.5-2 minutes,
# most of it kernel builds (one per type, link kind and rhs) and host-side
# setup (random U(3) links and the float64 reference on the 16 cores).
# The 16-core CPU through PoCL: 16^3x8, kernel reg (its default 32^3x8 works
# but takes minutes).
$CB run stream,dslash -d $GPU --param rhs=1..8 -n 10 -o $OUT/h100.csv
$CB run dslash -d $GPU -s 32x32x32x8 --param rhs=1,2,4,8 -n 10 -o $OUT/h100.csv
$CB run dslash -d $CPU -s 16x16x16x8 --param rhs=1,2,4,8 --param kernels=reg -n 5 -o $OUT/pocl16.csv
