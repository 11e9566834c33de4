# dslash on the H100: stream first (for of_stream_copy), then the default
# 64^3x16 lattice in fp32 and fp64, rhs 1..8, both long-link kinds, both
# kernels; then 32^3x8 (the talk's other lattice, its vectors fit the L2).
# The 16-core CPU through PoCL: 16^3x8 (its default 32^3x8 would take minutes).
$CB run stream,dslash -d $GPU --param rhs=1..8 -n 10 -o $OUT/h100.csv
$CB run dslash -d $GPU -s 32x32x32x8 --param rhs=1..8 -n 10 -o $OUT/h100.csv
$CB run dslash -d $CPU -s 16x16x16x8 -t float,double --param rhs=1,2,4,8 --param kernel=reg -n 5 -o $OUT/pocl16.csv
