# bus and dot on the H100 and on the machine's CPU (PoCL).
# GPU: bus at every default size (4 KiB .. 1 GiB in powers of 4); stream then
# dot at 2^28 elements, float and double, every dot kernel (device, host,
# hybrid with split=pow2 and split=auto, the sumsq variants, cpu1, cpu), so
# that dot's rows sit beside stream's and bus's of the same machine.
# -n 10: the host-timed dot rows take ~40 ms (float) / ~80 ms (double) each.
$CB run bus -d $GPU -n 10 -o $OUT/h100.csv
$CB run dot -d $GPU -t float,double -s 2^28 -n 10 -o $OUT/h100.csv
# the device kernel's grid: 1, 2, 4 (the default when the kernel allows 1024
# work-items), 8 and 16 groups of 256 per SM of the H100's 132
$CB run dot -d $GPU -t float,double -s 2^28 -n 10 --param kernels=device,device_sumsq \
  --param groups=132,264,528,1056,2112 -o $OUT/h100.csv
# CPU: stream then dot at the default sizes (above the last-level cache).
$CB run stream,dot -d $CPU -t float,double -n 5 -o $OUT/pocl16.csv
