# transpose on the H100: the whole sequence at its default sizes, the
# whitepaper's 2048x2048 (cache-resident on the H100's 50 MB L2: the rows say
# so) and 8192x8192, float and double, after stream in the same invocation
# (of_stream_copy; -s is left out because stream's sizes are 1-D). serial is
# skipped there by its cap (serial_max, 1M elements); a small run records it
# at the 1024x1024 of the transpose lecture [Udacity12]. Then every best variant at 8192x8192 (one row
# each; the default `best` row is the fastest of the probe). A CPU run last.
$CB run stream,transpose -d $GPU -t float,double -o $OUT/h100.csv
$CB run transpose -d $GPU -t float,double -s 1024x1024 -n 3 --warmup 1 \
  --param kernels=copy,serial,per_row,naive -o $OUT/h100.csv
$CB run transpose -d $GPU -t float -s 8192x8192 --param kernels=copy,best \
  --param best=32x8v1,64x16v4,64x8v4,64x4v4,32x8v4,r4g8x32,r4g4x64,r2g8x32,64x4v4l,64x8v4l,64x4v4k2,64x8v4k2,rect128x32v4w256,rect256x32v4w256,rect256x16v4w256 -o $OUT/h100.csv
$CB run transpose -d $GPU -t double -s 8192x8192 --param kernels=copy,best \
  --param best=32x8v1,32x16v2,64x8v2,64x16v2,32x8v2,r2g8x32,r2g4x64,64x8v2l,64x16v2l,32x8v2k2,32x4v2k4,rect128x32v2w256,rect128x16v2w256 -o $OUT/h100.csv
$CB run stream,transpose -d $CPU -t float,double -n 5 -o $OUT/pocl16.csv
