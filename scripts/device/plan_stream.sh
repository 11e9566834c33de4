# stream on the H100: the launch-shape sweep (vector width x vectors per
# work-item x work-group size), then the default run; and the 16-core CPU.
$CB run stream -d $GPU --param vec=2,4 --param ilp=1,2,4 --param local=128,256,512,1024 -n 10 -o $OUT/h100-sweep.csv
$CB run stream -d $GPU -o $OUT/h100.csv
$CB run stream -d $CPU --param vec=4,8 --param ilp=1,2 -o $OUT/pocl16.csv
