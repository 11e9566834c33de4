# stride and matmul on the H100 and on the 16-core CPU (PoCL).
# stride runs after stream in the same invocation so that its rows carry
# of_stream_copy. Full sweeps: every stride 1..16, powers of two to 1024 with
# their odd neighbours, and every offset 0..32.
STRIDES=1..16,24,31,32,33,48,63,64,65,96,127,128,129,255,256,257,511,512,513,1023,1024,1025
# GPU (about 1.5 minutes, most of it host-side validation of 1 GiB arrays and
# the double matmul reference)
$CB run stream,stride -d $GPU -t float,double -n 10 --param strides=$STRIDES --param offsets=0..32 -o $OUT/h100.csv
$CB run matmul -d $GPU --param tile=8,16,32 -n 10 -o $OUT/h100.csv
# CPU: float over the full sweeps, double over the default lists; few reps
# (a stride-1024 gather touches a new page per element there).
$CB run stream,stride -d $CPU -t float -n 3 --warmup 1 --param strides=$STRIDES --param offsets=0..32 -o $OUT/pocl16.csv
$CB run stream,stride -d $CPU -t double -n 3 --warmup 1 -o $OUT/pocl16.csv
$CB run matmul -d $CPU --param tile=8,16,32 -n 3 --warmup 1 -o $OUT/pocl16.csv
