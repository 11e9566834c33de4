#!/usr/bin/env bash
# Runs on the GPU test machine (through the device tool), from the repository root:
#   source .device-deps/setup.sh && bash scripts/device/run.sh [PLAN...]
# Builds clbench in /tmp/b, lists the devices, then runs each plan
# scripts/device/plan_<name>.sh (all of them when none is named). A plan is a
# list of clbench invocations using $CB (the binary), $GPU and $CPU (device
# specs) and writing its rows to $OUT/h100.csv (GPU) or $OUT/pocl16.csv (the
# machine's CPU): the tool returns at most 8 files. The log is $OUT/log.txt.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release -DCLBENCH_TESTS=OFF >/tmp/b.log 2>&1 &&
  cmake --build /tmp/b -j16 >>/tmp/b.log 2>&1 || { tail -40 /tmp/b.log; exit 3; }
# Each clbench call is bounded (rows measured before a kill are kept: they
# are flushed one by one). GPU=skip or CPU=skip leaves that device's lines
# out (clbench refuses the unknown device at once).
export CB="timeout -k 10 ${CB_TIMEOUT:-150} /tmp/b/clbench" GPU=${GPU:-gpu} CPU=${CPU:-cpu} OUT
/tmp/b/clbench list | tee "$OUT/list.txt"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >>"$OUT/list.txt" 2>&1 || true
plans=("$@")
[ ${#plans[@]} -eq 0 ] && plans=($(ls scripts/device/plan_*.sh | sed 's|.*/plan_||; s|\.sh$||'))
for p in "${plans[@]}"; do
  echo "=== plan $p ==="
  t0=$(date +%s)
  bash "scripts/device/plan_$p.sh" >"/tmp/log-$p.txt" 2>&1
  echo "plan $p: exit $? in $(( $(date +%s) - t0 )) s"
  { echo "=== plan $p ==="; cat "/tmp/log-$p.txt"; } >>"$OUT/log.txt"
  grep -E "ok, .* failed|FAIL|rror" "/tmp/log-$p.txt" | tail -8
done
