#!/usr/bin/env bash
# Build the libFuzzer harnesses with clang in BUILD_DIR and run each from its
# committed seed corpus (tests/fuzz/corpus/<name>/, which also holds every
# input that once crashed, so each run replays them first). The harness of
# the readers (fuzz_rows: every consumer of rows) is also seeded with every
# committed results file (results/, tests/data/), and first run once on each
# of those files whole. Exit 1 on any crash, leak or UB report.
#
# CI needs the same answer on every run of the same tree, so by default each
# harness runs a fixed number of inputs (FUZZ_RUNS, else the table below)
# from a fixed seed (FUZZ_SEED): a red CI run is then a real, reproducible bug
# in the change, never a lucky draw. A search for new bugs sets FUZZ_SECONDS (a time limit,
# no run limit) and FUZZ_SEED=0 (libFuzzer picks a seed).
#   usage: run_fuzz.sh BUILD_DIR          (CLANG, CLBENCH_SRC from the environment)
set -euo pipefail
src=${CLBENCH_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
bld=${1:?usage: run_fuzz.sh BUILD_DIR}
seed=${FUZZ_SEED:-1}
clang=${CLANG:-clang}
# Default inputs per harness: about 10-15 s each on a 2-core VM (the CSV and
# profile harnesses write a file per input, ~5 000/s; the parsers ~100 000/s).
# The plot harness makes two tables and scripts per input (~1 200/s on a loaded
# 2-core VM, where the CSV harness ran ~600/s).
# The rows harness runs every consumer (compare with each metric, plots,
# models, ceilings, upgrade, the report) per input: ~100/s. The HTML harness
# (the report's escaping and SVG inlining, the charts' text) runs ~1 500-4 000/s.
declare -A runs=([results]=60000 [profile]=60000 [params]=1000000 [plot]=100000 [rows]=1500
                 [html]=50000)
declare -A maxlen=([rows]=8192)
names=(results profile params plot rows html)
mkdir -p "$bld"
if ! cmake -S "$src" -B "$bld" -DCMAKE_C_COMPILER="$clang" -DCMAKE_BUILD_TYPE=Debug \
     -DCLBENCH_FUZZ=ON >"$bld/configure.log" 2>&1; then
  cat "$bld/configure.log" >&2; exit 1
fi
cmake --build "$bld" --target "${names[@]/#/fuzz_}" -j 2 >"$bld/build.log" 2>&1 ||
  { cat "$bld/build.log" >&2; exit 1; }
status=0
# every committed results file, whole, through every consumer of rows
# (git's list where the tree is a checkout: a user's results/local/ is not committed)
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t committed < <(git -C "$src" ls-files -- 'results/*.csv' 'results/*.jsonl' \
                             'tests/data/*.csv' 'tests/data/*.jsonl' | sed "s|^|$src/|")
else
  mapfile -t committed < <(find "$src/results" "$src/tests/data" -type f \( -name '*.csv' -o -name '*.jsonl' \) | sort)
fi
echo "== fuzz_rows on ${#committed[@]} committed results files"
if ! FUZZ_VERBOSE=0 "$bld/tests/fuzz/fuzz_rows" -rss_limit_mb=2048 -timeout=60 "${committed[@]}" >"$bld/fuzz_rows_files.log" 2>&1; then
  tail -n 60 "$bld/fuzz_rows_files.log" >&2
  echo "FAIL: fuzz_rows failed on a committed results file (FUZZ_VERBOSE=1 shows its output)" >&2
  status=1
fi
for name in "${names[@]}"; do
  work=$(mktemp -d)   # new inputs go here: the committed corpus is not touched
  seeds=("$src/tests/fuzz/corpus/$name")
  if [ "$name" = rows ]; then   # the committed files as seeds (the harness cuts them at max_len)
    mkdir -p "$work.seeds"; seeds+=("$work.seeds")
    for f in "${committed[@]}"; do cp "$f" "$work.seeds/$(echo "${f#"$src"/}" | tr / _)"; done
  fi
  if [ -n "${FUZZ_SECONDS:-}" ]; then
    limit=(-max_total_time="$FUZZ_SECONDS") what="for ${FUZZ_SECONDS}s"
  else
    # a time cap too, for a slow machine: it can only cut the same sequence short
    limit=(-runs="${FUZZ_RUNS:-${runs[$name]}}" -max_total_time=60)
    what="${FUZZ_RUNS:-${runs[$name]}} inputs (at most 60 s)"
  fi
  echo "== fuzz_$name, $what, seed $seed"
  if ! "$bld/tests/fuzz/fuzz_$name" "${limit[@]}" -seed="$seed" -timeout=10 -rss_limit_mb=2048 \
       -max_len="${maxlen[$name]:-4096}" -print_final_stats=1 -artifact_prefix="$bld/crash-$name-" \
       "$work" "${seeds[@]}" >"$bld/fuzz_$name.log" 2>&1; then
    tail -n 60 "$bld/fuzz_$name.log" >&2
    echo "FAIL: fuzz_$name found a problem; the input is $bld/crash-$name-*" >&2
    status=1
  else
    grep -E 'stat::number_of_executed_units|stat::average_exec_per_sec' "$bld/fuzz_$name.log" | tr '\n' ' '
    echo
  fi
  rm -rf "$work" "$work.seeds"
done
exit $status
