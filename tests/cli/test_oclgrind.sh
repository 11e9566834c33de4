#!/usr/bin/env bash
# Oclgrind, whose calls are not thread-safe, is called from one thread only
# (docs/PORTABILITY.md, "Threads"): stream and dslash at tiny sizes end
# normally with every row ok. With builder threads compiling beside the run,
# dslash here ended with SIGSEGV or SIGABRT in 8 of 8 runs, stream in 1 of 8.
# Oclgrind interprets every work-item: tiny sizes only.
source "$(dirname "$0")/lib.sh"
set -e
# registered as an ICD (its device listed), else through its wrapper, where
# it is the only device
OG=$("$CLBENCH" list --wide 2>/dev/null | awk '/Oclgrind/ {print $1; exit}')
WRAP=()
if [ -z "$OG" ]; then
  command -v oclgrind >/dev/null || skip_test "Oclgrind is not installed (oclgrind)"
  OG=0
  # the wrapper preloads Oclgrind's runtime ahead of ASan's, which ASan
  # refuses unless told that the order is wanted (the sanitized build)
  WRAP=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" oclgrind)
fi

# og NAME ARGS...: one run on Oclgrind; exit 0 and every row ok
og() {
  local name=$1; shift
  set +e
  "${WRAP[@]}" "$CLBENCH" run "$@" -d "$OG" -t float -n 1 --warmup 0 -q -o "$name.csv" \
    >"$TMP/stdout" 2>"$TMP/stderr"
  local rc=$?
  set -e
  local st; st=$(csv_col "$name.csv" status 2>/dev/null | sort -u | tr '\n' ' ')
  if [ "$rc" -eq 0 ] && [ "$st" = "ok " ]; then pass "$name on Oclgrind: exit 0, every row ok"
  else fail "$name on Oclgrind: exit $rc, statuses '$st': $(tail -n 3 "$TMP/stderr")"; fi
}
og stream stream -s 4096
og dslash dslash -s 4x4x4x4
finish
