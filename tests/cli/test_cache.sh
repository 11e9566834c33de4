#!/usr/bin/env bash
# The program-binary cache (docs/MEASURING.md, "Program-binary cache"): a miss
# builds and keeps, a hit loads, --no-cache bypasses, `clbench cache clear`
# empties it; and every bad input -- a truncated, foreign, planted or linked
# entry, an entry or a directory not the user's, a directory others may
# write -- costs one warning line and a build from source, never a crash or
# a binary made for something else. PoCL caches builds itself, so the cache
# is forced on here (--cache on); auto leaves it off on PoCL.
source "$(dirname "$0")/lib.sh"
set -e
# PoCL's own cache stays where it was (it also follows XDG_CACHE_HOME)
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pocl/kcache}
export XDG_CACHE_HOME=$TMP/xdg
C=$XDG_CACHE_HOME/clbench
ENTRY="python3 $CLBENCH_SRC/tests/cli/cache_entry.py"
RUN=(run launch,latency --quick -d $POCL -n 1 --warmup 0 -v -o r.csv --param kernels=dispatch
     --param from=524288)

# run_cache WHAT N_WARNINGS [PATTERN] [extra args]: exit 0, ok rows, N warning lines
run_cache() {
  local what=$1 nwarn=$2 pat=${3:-.}; shift 3 || shift $#
  run_cb "${RUN[@]}" --cache on "$@"
  local got; got=$(grep -c 'warning: program cache' "$TMP/stderr" || true)
  if [ "$RC" -ne 0 ]; then fail "$what: exit $RC: $(grep clbench: "$TMP/stderr" | head -3)"
  elif [ "$got" -ne "$nwarn" ]; then fail "$what: $got warnings, expected $nwarn: $(grep warning "$TMP/stderr")"
  elif [ "$nwarn" -gt 0 ] && ! grep 'warning: program cache' "$TMP/stderr" | grep -Eq "$pat"; then
    fail "$what: the warning does not say /$pat/: $(grep warning "$TMP/stderr")"
  else pass "$what (exit 0, $got warning$( [ "$got" -eq 1 ] || echo s))"; fi
}
built() { grep -c "^built $1.cl" "$TMP/stderr" || true; }
loaded() { grep -c "^loaded $1.cl .* from the program cache" "$TMP/stderr" || true; }

# three programs: launch's, latency's and the core's timer check (timer.cl)
run_cache "cold: both programs built" 0
[ "$(built launch)" -eq 1 ] && [ "$(built latency)" -eq 1 ] && [ "$(built timer)" -eq 1 ] &&
  [ "$(ls "$C"/*.bin | wc -l)" -eq 3 ] && pass "three entries kept" || fail "entries: $(ls -la "$C")"
[ "$(stat -c %a "$C")" = 700 ] && [ "$(stat -c %a "$C"/*.bin | sort -u)" = 600 ] \
  && pass "directory 0700, entries 0600" || fail "modes: $(stat -c '%a %n' "$C" "$C"/*)"
run_cache "warm: both loaded" 0
[ "$(loaded launch)" -eq 1 ] && [ "$(loaded latency)" -eq 1 ] && [ "$(built launch)" -eq 0 ] \
  && pass "hits build nothing" || fail "warm run built: $(grep -E '^(built|loaded)' "$TMP/stderr")"
run_cb "${RUN[@]}" --no-cache
[ "$RC" -eq 0 ] && [ "$(built launch)" -eq 1 ] && [ "$(loaded launch)" -eq 0 ] \
  && pass "--no-cache builds from source" || fail "--no-cache: $(grep -E '^(built|loaded)' "$TMP/stderr")"
run_cb "${RUN[@]}"
[ "$RC" -eq 0 ] && [ "$(built launch)" -eq 1 ] && [ "$(loaded launch)" -eq 0 ] \
  && pass "--cache auto on PoCL: not used (PoCL caches its builds)" || fail "auto on PoCL: $(grep -E '^(built|loaded)' "$TMP/stderr")"

# Bad entries: one warning each, rebuilt, kept whole again.
L=$($ENTRY find "$C" "void empty"); T=$($ENTRY find "$C" "chase")
[ -n "$L" ] && [ -n "$T" ] || fail "entries of launch and latency not found"
truncate -s $(($(stat -c %s "$T") / 2)) "$T"
$ENTRY rekey "$L" 2 "another device"
run_cache "a truncated and a foreign-device entry" 2 "truncated|another device"
grep 'warning: program cache' "$TMP/stderr" | grep -q truncated && \
  grep 'warning: program cache' "$TMP/stderr" | grep -q "built for another device" \
  && pass "each named" || fail "warnings: $(grep warning "$TMP/stderr")"
[ "$(built launch)" -eq 1 ] && [ "$(built latency)" -eq 1 ] && pass "both rebuilt from source" \
  || fail "not rebuilt: $(grep -E '^(built|loaded)' "$TMP/stderr")"
run_cache "rewritten entries load again" 0
[ "$(loaded launch)" -eq 1 ] && [ "$(loaded latency)" -eq 1 ] && pass "repaired" || fail "not repaired"

head -c 4096 /dev/urandom > "$L"
cp "$T" "$TMP/elsewhere.bin" && rm "$T" && ln -s "$TMP/elsewhere.bin" "$T"
run_cache "a planted file and a symbolic link" 2 "not a clbench cache entry|symbolic link"
[ ! -L "$T" ] && [ -f "$T" ] && pass "the link replaced by a real entry" || fail "link still there"

if [ "$(id -u)" -eq 0 ]; then
  chown 12345 "$L"
  run_cache "an entry of another user" 1 "owned by uid 12345"
  chown 12345 "$C"
  run_cache "a directory of another user" 1 "owned by uid 12345.*not used this run"
  [ "$(built launch)" -eq 1 ] && pass "built from source" || fail "built: $(built launch)"
  chown 0 "$C"
else
  skip_part "the wrong-owner cases need root (chown to another uid)"
fi
chmod 777 "$C"
run_cache "a directory others may write" 1 "others may write to it.*not used this run"
chmod 700 "$C"
mv "$C" "$TMP/real" && ln -s "$TMP/real" "$C"
run_cache "a directory that is a symbolic link" 1 "symbolic link.*not used this run"
rm "$C" && mv "$TMP/real" "$C"

expect_status 0 "cache info" cache info
echo "$OUT_TXT" | grep -q "3 entries" && pass "info: $OUT_TXT" || fail "info: $OUT_TXT"
expect_status 0 "cache clear" cache clear
echo "$OUT_TXT" | grep -q "removed 3 " && [ -z "$(ls -A "$C")" ] && pass "clear: $OUT_TXT" \
  || fail "clear: $OUT_TXT; left: $(ls -A "$C")"
chmod 777 "$C"
expect_error 2 "others may write to it" "cache clear refuses a directory others may write" cache clear
chmod 700 "$C"
finish
