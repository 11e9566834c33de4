#!/usr/bin/env bash
# The man page clbench(1) is installed and documents every option that the
# program's own --help texts list (one source of truth each, kept in sync).
source "$(dirname "$0")/lib.sh"
set -e
MAN="$CLBENCH_SRC/host/cli/clbench.1"
[ -f "$MAN" ] && pass "man page present" || fail "no $MAN"
# man's roff escapes '-' as '\-': compare against the unescaped text
plain=$(sed 's/\\-/-/g' "$MAN")
for cmd in "run --help" "compare --help" "model --help" "list --help" "report --help" \
           "cache --help"; do
  run_cb $cmd
  for opt in $(echo "$OUT_TXT" | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u); do
    if echo "$plain" | grep -q -- "$opt"; then :; else fail "'clbench $cmd' lists $opt, the man page does not"; fi
  done
done
pass "every --help option is in the man page"
# and every long option of the commands' option tables (getopt_long), listed in
# --help or not
for opt in $(grep -ohE '\{"[a-z][a-z0-9-]+", *(no|required|optional)_argument' "$CLBENCH_SRC"/host/cli/*.c |
             grep -oE '"[a-z0-9-]+"' | tr -d '"' | sort -u); do
  if echo "$plain" | grep -q -- "--$opt"; then :; else fail "the option table has --$opt, the man page does not"; fi
done
pass "every option of the option tables is in the man page"
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
