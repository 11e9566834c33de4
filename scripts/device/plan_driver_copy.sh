# The copy kernel against the driver's own copy (clEnqueueCopyBuffer) at the
# default sizes on the H100, twice: is the copy shortfall against 3050 GB/s
# clbench's or the device's?
$CB run stream -d $GPU --param driver_copy=1 -o $OUT/h100.csv
$CB run stream -d $GPU --param driver_copy=1 -o $OUT/h100.csv
