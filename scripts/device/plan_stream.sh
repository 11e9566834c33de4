# stream on the H100 (default sizes, every vector width) and on the PoCL CPU.
$CB run stream -d $GPU --param vec=1,2,4,8 -o $OUT/h100.csv
$CB run stream -d $GPU -o $OUT/h100.csv
$CB run stream -d $CPU -o $OUT/pocl16.csv
