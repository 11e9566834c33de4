#!/usr/bin/env bash
# Open a `clbench report` page in a real browser (headless Chromium: Debian's
# `chromium-headless-shell`, which bench.sh test installs, or `chromium`) and
# check what a person would see: the page loads with no console error (a
# Content-Security-Policy violation, a script, a failed load would each log
# one), its DOM after load still has no script element and has every chart
# of the page (as many <svg> elements as the file), and a screenshot of it is
# not blank. docs/REPORT.md, "Tests".
#
#   scripts/report_browser_check.sh PAGE.html [SHOT.png] [HEIGHT]
# CHROMIUM names the browser (default: chromium-headless-shell, else chromium,
# else chromium-browser). Exit 0 when every check passes, 1 when one fails, 77
# when no browser is installed (the CTest that runs it counts that as skipped).
set -uo pipefail
page=${1:?usage: report_browser_check.sh PAGE.html [SHOT.png] [HEIGHT]}
shot=${2:-}
height=${3:-3000}
browser=${CHROMIUM:-$(command -v chromium-headless-shell || command -v chromium ||
                      command -v chromium-browser || true)}
if [ -z "$browser" ]; then
  echo "skip: no Chromium installed (apt-get install chromium-headless-shell)"
  exit 77
fi
[ -f "$page" ] || { echo "report_browser_check: no page '$page'" >&2; exit 1; }
url="file://$(cd "$(dirname "$page")" && pwd)/$(basename "$page")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "$shot" ] || shot="$work/shot.png"
# a profile of its own: no user data, no first-run work (--headless=new: the
# full browser's headless mode; the headless shell is headless already)
flags=(--headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
       --user-data-dir="$work/profile" --enable-logging=stderr --v=0)
start=$(date +%s.%N)
timeout 120 "$browser" "${flags[@]}" --window-size=1280,"$height" --screenshot="$shot" "$url" \
  >"$work/shot.out" 2>"$work/shot.err"
rc=$?
timeout 120 "$browser" "${flags[@]}" --dump-dom "$url" >"$work/dom.html" 2>"$work/dom.err"
rc2=$?
end=$(date +%s.%N)
fails=0
fail() { echo "report_browser_check: FAIL: $*" >&2; fails=$((fails + 1)); }
[ "$rc" -eq 0 ] && [ "$rc2" -eq 0 ] || fail "chromium exited $rc / $rc2: $(tail -3 "$work/shot.err")"
# console messages of the page (Chromium logs them as CONSOLE lines); the
# browser's own complaints about the sandbox-less machine (dbus, GPU) are not the page's
console=$(grep -h 'CONSOLE' "$work/shot.err" "$work/dom.err" || true)
[ -z "$console" ] || fail "console messages: $console"
grep -qi '<script' "$work/dom.html" && fail "a script element in the DOM after load"
# the charts: inline SVG, each still an element of the DOM after load
charts=$(grep -o '<svg' "$page" | wc -l)
drawn=$(grep -o '<svg' "$work/dom.html" | wc -l)
[ "$drawn" -eq "$charts" ] || fail "$charts charts in the page, $drawn <svg> elements in the DOM after load"
[ "$charts" -gt 0 ] || echo "report_browser_check: note: no figure in the page (tables only)"
python3 - "$shot" <<'PY' || fail "the screenshot is blank or not a PNG"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w = struct.unpack(">I", body[:4])[0]
    if kind == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
# distinct byte values over the pixels: a blank page has a handful
sys.exit(0 if w > 0 and len(set(raw[::7])) > 32 else 1)
PY
printf 'report_browser_check: %s: %s (%.1f s)\n' "$page" \
  "$([ $fails -eq 0 ] && echo "loads without console errors, no script, $drawn charts in the DOM, screenshot not blank" || echo "$fails check(s) failed")" \
  "$(awk "BEGIN { print $end - $start }")"
[ $fails -eq 0 ]
