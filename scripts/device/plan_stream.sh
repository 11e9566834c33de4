# stream on the H100 at the default size with the profile's launch shape
# (the sweep that chose it: results/runs/nvidia-h100-80gb-hbm3-stream-sweep.csv),
# and on the 16-core CPU.
$CB run stream -d $GPU -o $OUT/h100.csv
$CB run stream -d $CPU -o $OUT/pocl16.csv
