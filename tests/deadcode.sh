#!/usr/bin/env bash
# No dead functions: every function with external linkage that the program's
# object files define (nm: T) is called or taken by the program, from another
# object (nm: U) or from its own (a relocation naming it, outside debug
# information). A function the program never uses is dead, and goes. The one
# exception is a function kept for the tests alone (a unit test's reference,
# a test workload's hook): it is listed in tests/test_only.txt, and the check
# fails when a listed function is used by the program after all, is no
# longer defined, or is named by no file under tests/ (the list stays true).
# Usage: deadcode.sh TEST_ONLY_LIST OBJECT... (the program's objects: the
# library's, the workloads' and main's)
set -u
[ $# -gt 1 ] || { echo "usage: deadcode.sh TEST_ONLY_LIST OBJECT..."; exit 2; }
list=$1; shift
tests_dir=$(dirname "$list")
defined=$(nm -A --defined-only "$@" | awk '$(NF-1) == "T" {sub(/:.*/, "", $1); print $NF, $1}' |
          sort -u)
[ -n "$defined" ] || { echo "FAIL no functions defined in the objects given"; exit 1; }
# "object symbol" for every symbol an object refers to: another object's
# (nm: U) or its own (a relocation, outside debug information and unwind tables)
refs=$({ nm -A -u "$@" | awk '{sub(/:.*/, "", $1); print $1, $NF}'
         objdump -r "$@" | awk '
           / file format / { f = $1; sub(/:$/, "", f) }
           /^RELOCATION RECORDS FOR/ { skip = ($4 ~ /debug|eh_frame/) }
           !skip && NF == 3 && $1 ~ /^[0-9a-f]+$/ { t = $3; sub(/[-+].*/, "", t); print f, t }'
       } | sort -u)
test_only=$(sed 's/#.*//' "$list" | awk 'NF {print $1}' | sort -u)
# "state symbol object": used (by another object or its own), or unused
verdicts=$(awk 'FNR == 1 {part++}
  part == 1 { other[$2] = other[$2] " " $1; own[$1 " " $2] = 1; next }
  { s = $1; o = $2; u = own[o " " s]
    if (!u) { n = split(other[s], objs, " "); for (i = 1; i <= n; i++) if (objs[i] != o) u = 1 }
    print (u ? "used" : "unused"), s, o }' <(echo "$refs") <(echo "$defined"))
status=0 n=0
while read -r state sym obj; do
  n=$((n + 1))
  [ "$sym" = main ] && continue
  listed=0
  grep -qxF "$sym" <<<"$test_only" && listed=1
  if [ "$state" = used ]; then
    [ "$listed" -eq 0 ] ||
      { echo "FAIL $sym is listed in $(basename "$list") but the program uses it"; status=1; }
  elif [ "$listed" -eq 0 ]; then
    echo "FAIL ${obj##*/host/}: $sym is defined and never used (remove it, or list it for tests)"
    status=1
  elif ! grep -rqw --include='*.[ch]' "$sym" "$tests_dir"; then
    echo "FAIL $sym is listed in $(basename "$list") but no test names it"
    status=1
  fi
done <<<"$verdicts"
for sym in $test_only; do
  awk -v s="$sym" '$1 == s {f = 1} END {exit !f}' <<<"$defined" ||
    { echo "FAIL $sym is listed in $(basename "$list") but not defined"; status=1; }
done
[ "$status" -eq 0 ] && echo "ok: $n functions with external linkage, each used by the program" \
  "or listed for tests ($(wc -w <<<"$test_only"))"
exit "$status"
