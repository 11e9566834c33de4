# copy2d, blockeq and camping on the H100 (default sizes) and on the PoCL CPU.
# stream runs first in the copy2d invocation: copy2d rows carry of_stream_copy
# (target: float and double >= 0.95, float3 packed >= 0.85).
$CB run stream,copy2d -d $GPU -o $OUT/h100.csv
# a tile sweep for the profile's copy2d.tile (float, double, packed float3)
$CB run stream,copy2d -d $GPU -t float,double,float3 -n 10 --param tile=32x4,32x8,32x16,64x4,64x8,16x4 -o $OUT/h100.csv
# blockeq: P = 1,2,4,8,16,32,CU,CU+2,2CU for float and double (few reps: P=1 is one
# work-group walking all 131072 tiles)
$CB run blockeq -d $GPU -n 5 --warmup 1 -o $OUT/h100.csv
$CB run camping -d $GPU -o $OUT/h100.csv
# the same on the 16-core CPU, smaller
$CB run stream,copy2d -d $CPU -n 5 -o $OUT/pocl16.csv
$CB run blockeq -d $CPU -n 3 --warmup 1 -s 4096x4096 -o $OUT/pocl16.csv
$CB run camping -d $CPU -n 3 --warmup 1 -t float -s 16M -o $OUT/pocl16.csv
