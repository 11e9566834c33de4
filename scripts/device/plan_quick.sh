# The whole --quick suite on the H100, timed (what CI runs on PoCL; it must
# work on a GPU with 132 CUs too).
t0=$(date +%s)
$CB run all --quick -d $GPU -o $OUT/h100-quick.csv
echo "quick suite: exit $?, $(( $(date +%s) - t0 )) s"
