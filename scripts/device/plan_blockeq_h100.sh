# blockeq on the H100 with the profile's 256-item tiles (see platforms/h100_sxm.ini),
# float and double, P = 1,2,4,8,16,32,CU,CU+2,2CU.
$CB run blockeq -d $GPU -n 5 --warmup 1 -o $OUT/h100.csv
