#!/usr/bin/env bash
# Build the libFuzzer harnesses with clang in BUILD_DIR and run each for
# FUZZ_SECONDS (default 20) from its committed seed corpus
# (tests/fuzz/corpus/<name>/, which also holds every input that once crashed,
# so each run replays them first). Exit 1 on any crash, leak or UB report.
#   usage: run_fuzz.sh BUILD_DIR          (CLANG, CLBENCH_SRC from the environment)
set -euo pipefail
src=${CLBENCH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
bld=${1:?usage: run_fuzz.sh BUILD_DIR}
secs=${FUZZ_SECONDS:-20}
clang=${CLANG:-clang}
mkdir -p "$bld"
if ! cmake -S "$src" -B "$bld" -DCMAKE_C_COMPILER="$clang" -DCMAKE_BUILD_TYPE=Debug \
     -DCLBENCH_FUZZ=ON >"$bld/configure.log" 2>&1; then
  cat "$bld/configure.log" >&2; exit 1
fi
cmake --build "$bld" --target fuzz_results fuzz_profile fuzz_params -j 2 >"$bld/build.log" 2>&1 ||
  { cat "$bld/build.log" >&2; exit 1; }
status=0
for name in results profile params; do
  work=$(mktemp -d)   # new inputs go here: the committed corpus is not touched
  echo "== fuzz_$name for ${secs}s"
  if ! "$bld/tests/fuzz/fuzz_$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
       -max_len=4096 -print_final_stats=1 -artifact_prefix="$bld/crash-$name-" \
       "$work" "$src/tests/fuzz/corpus/$name" >"$bld/fuzz_$name.log" 2>&1; then
    tail -n 60 "$bld/fuzz_$name.log" >&2
    echo "FAIL: fuzz_$name found a problem; the input is $bld/crash-$name-*" >&2
    status=1
  else
    grep -E 'stat::number_of_executed_runs|Done [0-9]+ runs' "$bld/fuzz_$name.log" | tail -n 1
  fi
  rm -rf "$work"
done
exit $status
