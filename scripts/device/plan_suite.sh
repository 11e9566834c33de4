# The whole default suite on the H100 with the final code, timed: every
# workload at its default sizes with the profile's settings, as ./bench.sh
# runs it (give the plan CB_TIMEOUT=420). The --quick suite: plan_quick.sh.
t0=$(date +%s)
$CB run all -d $GPU -o $OUT/h100-suite.csv
echo "default suite: exit $?, $(( $(date +%s) - t0 )) s"
