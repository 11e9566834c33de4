# transpose `best`: the tile-order, down-the-column, persistent and
# streaming-store forms (docs/workloads/transpose.md) against the plain
# tile at 8192x8192, one row per variant, float then double, with stream at
# its default sizes first for the reference (stream takes no 2-D size, so it
# runs on its own: divide by hand). Then the tail diagnostic: the same few
# forms at 16384x16384 float (4x the work per launch; if `best` gains
# against stream copy there, the 8192^2 gap is a per-launch cost).
$CB run stream -d $GPU -t float,double -o $OUT/h100.csv
$CB run transpose -d $GPU -t float -s 8192x8192 --param kernels=copy,best \
  --param best=64x8v4,64x8v4oR,64x8v4oC,64x8v4oD,64x8v4oS8,64x8v4oS32,64x8v4d2,64x8v4d4,64x8v4d4oC,64x8v4p2,64x8v4p4,64x8v4p6,64x8v4p4oC,64x8v4nt,64x8v4oCnt,64x8v4p4nt -o $OUT/h100.csv
$CB run transpose -d $GPU -t double -s 8192x8192 --param kernels=copy,best \
  --param best=64x8v2,32x16v2,64x8v2oR,64x8v2oC,64x8v2oD,64x8v2oS32,32x16v2oC,32x16v2d2,32x16v2d4,32x16v2d4oC,32x16v2p4,32x16v2p8,32x16v2p8oC,64x8v2nt,64x8v2oCnt,32x16v2p8nt -o $OUT/h100.csv
$CB run transpose -d $GPU -t float -s 16384x16384 --param kernels=copy,best \
  --param best=64x8v4,64x8v4oC,64x8v4p4,64x8v4nt -o $OUT/h100.csv
