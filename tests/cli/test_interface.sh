#!/usr/bin/env bash
# The workload interface is the whole contract: a workload that lives only in
# tests/workload/ (probe.c + probe.cl) registers itself, declares its counts
# and baselines, and gets rows with of_* ratios, a model and `model roofline`
# from the core, with no core file knowing it. And the core knows no
# workload by name.
source "$(dirname "$0")/lib.sh"
set -e
: "${CLBENCH_PROBE:?CLBENCH_PROBE must point at the clbench_probe binary}"
mkdir kd && cp "$CLBENCH_SRC"/cl/*.cl kd/ && cp "$CLBENCH_SRC/tests/workload/probe.cl" kd/
PD="$CLBENCH_SRC/tests/data/profiles/probe"

CLBENCH=$CLBENCH_PROBE expect_status 0 "probe runs beside stream" \
  run stream,probe --quick -d $POCL -t float -n 3 --kernel-dir kd --platforms-dir "$PD" -o out.csv
expect_rows out.csv probe copy,twice float
rows interface-probe out.csv && pass "of_copy, of_stream_copy, model and counts filled by the core" || fail "probe rows incomplete"
CLBENCH=$CLBENCH_PROBE expect_status 0 "model roofline counts the probe" \
  model roofline -w probe -k twice -t float -s 1M -p pocl_probe --platforms-dir "$PD"
echo "$OUT_TXT" | grep -q "bytes      8.38861e+06" && echo "$OUT_TXT" | grep -q "flops      1.04858e+06" \
  && pass "roofline bytes and flops from probe's count" || fail "roofline: $OUT_TXT"
CLBENCH=$CLBENCH_PROBE expect_status 0 "probe --help" probe --help
echo "$OUT_TXT" | grep -q "baselines: stream/copy,probe/copy" && pass "help shows the baselines" || fail "help: $OUT_TXT"
CLBENCH=$CLBENCH_PROBE expect_error 2 "unknown probe kernel" "roofline: unknown kernel refused" \
  model roofline -w probe -k thrice -t float -s 1M -p pocl_probe --platforms-dir "$PD"

# The core (driver, results, models, compare, the charts, the report, CLI)
# never names a workload.
# (One exemption: the name of the core's own roofline model, which the
# empirical-roofline workload shares; host/models/roofline.c's `core_model_name`.)
names=$("$CLBENCH" --help --wide | awk '/^workloads:/{w=1;next} w&&NF{print $1} w&&!NF{exit}')
[ -n "$names" ] || fail "no workload names from --help"
for w in $names probe; do
  hits=$(grep -rn "\"$w\"" "$CLBENCH_SRC"/host/core "$CLBENCH_SRC"/host/cli "$CLBENCH_SRC"/host/models \
           "$CLBENCH_SRC"/host/compare "$CLBENCH_SRC"/host/chart "$CLBENCH_SRC"/host/report |
         grep -v 'models/roofline.c:.*static const char core_model_name\[\] = ' || true)
  if [ -n "$hits" ]; then
    fail "the core names workload '$w': $(echo "$hits" | head -3)"
  else pass "no core file names '$w'"; fi
done
# workloads include headers by plain name only: the include path CMake gives each
# folder (include/, itself, the folders named for it) decides which (tests/include_rule)
bad=$(grep -rhn '#include "' "$CLBENCH_SRC"/host/workloads | grep -v 'clb_workload.h' | \
      grep -Ev '#include "[a-z0-9_]+\.h"' || true)
[ -z "$bad" ] && pass "workloads include only the interface and their own headers" || fail "includes: $bad"
finish
