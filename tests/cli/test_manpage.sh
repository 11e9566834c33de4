#!/usr/bin/env bash
# The man page clbench(1) is installed and documents every option that the
# program's own --help texts list (one source of truth each, kept in sync).
source "$(dirname "$0")/lib.sh"
set -e
MAN="$CLBENCH_SRC/host/cli/clbench.1"
[ -f "$MAN" ] && pass "man page present" || fail "no $MAN"
# man's roff escapes '-' as '\-': compare against the unescaped text
plain=$(sed 's/\\-/-/g' "$MAN")
# (each --help must list options: one that prints nothing, or no option,
# checks nothing and fails)
missing=0 total=0
for cmd in "run --help" "compare --help" "model --help" "list --help" "report --help" \
           "cache --help"; do
  run_cb $cmd
  opts=$(echo "$OUT_TXT" | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u)
  [ "$RC" -eq 0 ] && [ -n "$opts" ] || { fail "'clbench $cmd': exit $RC, no option listed"; continue; }
  for opt in $opts; do
    total=$((total + 1))
    if ! echo "$plain" | grep -q -- "$opt"; then
      fail "'clbench $cmd' lists $opt, the man page does not"; missing=$((missing + 1)); fi
  done
done
[ "$missing" -eq 0 ] && [ "$total" -ge 20 ] && pass "all $total --help options are in the man page" ||
  fail "$missing of $total --help options missing from the man page (20 or more expected)"
# and every long option of the commands' option tables (getopt_long), listed in
# --help or not
missing=0 total=0
for opt in $(grep -ohE '\{"[a-z][a-z0-9-]+", *(no|required|optional)_argument' "$CLBENCH_SRC"/host/cli/*.c |
             grep -oE '"[a-z0-9-]+"' | tr -d '"' | sort -u); do
  total=$((total + 1))
  if ! echo "$plain" | grep -q -- "--$opt"; then
    fail "the option table has --$opt, the man page does not"; missing=$((missing + 1)); fi
done
[ "$missing" -eq 0 ] && [ "$total" -ge 20 ] && pass "all $total options of the option tables are in the man page" ||
  fail "$missing of $total table options missing from the man page (20 or more expected)"
if command -v man >/dev/null 2>&1; then
  MANWIDTH=80 man -l "$MAN" >/dev/null 2>&1 && pass "man renders it" || fail "man -l failed"
else
  skip_part "man is not installed here, the page's rendering not checked"
fi
# cmake --install puts it under share/man/man1
if [ -n "${CLBENCH_BUILD:-}" ] && [ -f "$CLBENCH_BUILD/cmake_install.cmake" ]; then
  cmake --install "$CLBENCH_BUILD" --prefix "$TMP/inst" >/dev/null 2>&1 &&
    [ -f "$TMP/inst/share/man/man1/clbench.1" ] && pass "installed to share/man/man1" ||
    fail "cmake --install did not install the man page"
fi
finish
