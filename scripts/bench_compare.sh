#!/usr/bin/env bash
# Time `clbench compare` on large generated results files (schema v2): 100k
# and 1M rows (scripts/gen_compare_rows.py: 32 columns, ~rows/40 lines,
# repeated runs, a swept parameter, sizes written as 2^k, NM and decimal).
# Reports wall time, CPU time (user + system: what other jobs on a shared
# machine do not inflate) and maximum resident memory (/usr/bin/time -v) for the
# text table (--by-size), --any-size --sweep none, --json (--by-size) and --baseline (the file against
# a copy of itself under other run ids: twice the rows), and checks the targets of the text table: 100k rows
# <= 1 s, 1M rows <= 10 s and <= 1 GB. A benchmark, not a test: run it by hand.
#
#   scripts/bench_compare.sh [CLBENCH [DIR]]     (default build/clbench, /tmp/clbench-bench-compare)
# The generated files are kept in DIR and reused.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
cb=${1:-$src/build/clbench}
dir=${2:-${TMPDIR:-/tmp}/clbench-bench-compare}
[ -x "$cb" ] || { echo "bench_compare: no clbench at '$cb' (build first, or pass its path)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench_compare: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
mkdir -p "$dir"
status=0
printf '%-8s %-12s %9s %9s %11s  %s\n' rows mode "wall s" "cpu s" "max RSS MB" "target (wall)"
for n in 100000 1000000; do
  f="$dir/rows-$n.csv"
  if [ ! -s "$f" ]; then
    python3 "$src/scripts/gen_compare_rows.py" "$n" "$f.tmp" && mv "$f.tmp" "$f"
  fi
  # the gate refuses a baseline's own run on the new side: the copy is another run
  [ -s "$f.base" ] || awk 'NR == 1 { print; next } { print "base-" $0 }' "$f" >"$f.base"
  for mode in table any-size json baseline; do
    case $mode in
      table) args=(--by-size) ;;   # 16 devices: size by size, as before the lineup default
      any-size) args=(--any-size --sweep none) ;;
      json) args=(--json --by-size) ;;
      baseline) args=(--baseline "$f.base") ;;
    esac
    if ! /usr/bin/time -v -o "$dir/time.txt" "$cb" compare "$f" "${args[@]}" >/dev/null 2>"$dir/err.txt"; then
      echo "bench_compare: clbench compare failed: $(head -c 300 "$dir/err.txt")" >&2
      status=1
      continue
    fi
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$dir/time.txt")
    secs=$(echo "$wall" | awk -F: '{s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s}')
    cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$dir/time.txt")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$dir/time.txt")
    target=""
    if [ "$mode" = table ]; then
      limit=$([ "$n" -eq 100000 ] && echo 1 || echo 10)
      if awk -v s="$secs" -v l="$limit" -v r="$rss" 'BEGIN {exit !(s <= l && r <= 1024)}'; then
        target="met (<= $limit s, <= 1024 MB)"
      else
        target="MISSED (<= $limit s, <= 1024 MB)"
        status=1
      fi
    fi
    printf '%-8s %-12s %9s %9s %11s  %s\n' "$n" "$mode" "$secs" "$cpu" "$rss" "$target"
  done
done
exit $status
