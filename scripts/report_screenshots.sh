#!/usr/bin/env bash
# The two screenshots of docs/REPORT.md and the README (docs/figures/), from the
# committed H100 and H200 suites and the published figures:
#   report-h100.png       the top of `clbench report` of the H100 suite: the device's
#                         card, its measured ceilings beside its datasheet, the
#                         bandwidth of every memory workload against both
#   report-h100-h200.png  sections of the page of both suites and the references:
#                         stream and transpose, each device at its default size
#                         beside the published figures
# Needs a built clbench, gnuplot, Chromium (apt-get install chromium) and
# ImageMagick's convert (to cut and scale the screenshots).
#   scripts/report_screenshots.sh          # CB=, H100_RUN=, H200_RUN=, FIGS= override
set -euo pipefail
cd "$(dirname "$0")/.."
CB=${CB:-build/clbench}
H100_RUN=${H100_RUN:-results/runs/2026-11-23/h100-suite-4.csv}
H200_RUN=${H200_RUN:-results/runs/2026-11-23/h200-suite-3.csv}
FIGS=${FIGS:-docs/figures}
browser=$(command -v chromium || command -v chromium-browser || true)
for need in "$CB" "$browser" "$(command -v convert || true)"; do
  [ -n "$need" ] && [ -x "$need" ] || { echo "report_screenshots: needs clbench ($CB), chromium and convert" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
shot() {   # shot PAGE.html PNG HEIGHT: the page's top HEIGHT pixels, 1280 wide
  "$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --user-data-dir="$work/profile" --window-size=1280,"$3" --screenshot="$2" "file://$1" \
    >/dev/null 2>&1
}
"$CB" report "$H100_RUN" -o "$work/h100.html"
"$CB" report "$H100_RUN" "$H200_RUN" results/reference/*.csv -o "$work/both.html"
# the page's head and the sections of stream and transpose (by their headings)
python3 - "$work/both.html" "$work/part.html" stream transpose <<'PY'
import re, sys
src, out, keep = sys.argv[1], sys.argv[2], set(sys.argv[3:])
page = open(src).read()
head, rest = page.split("<main>", 1)
parts = re.split(r'(?=<section id="s\d+">)', rest)
chosen = [p for p in parts if re.search(r"<h2>([^<]*)</h2>", p) and
          re.search(r"<h2>([^<]*)</h2>", p).group(1) in keep]
open(out, "w").write(head + "<main>\n" + "".join(chosen) + "</main></body></html>\n")
PY
shot "$work/h100.html" "$work/h100.png" 2150
shot "$work/part.html" "$work/both.png" 3100
mkdir -p "$FIGS"
convert "$work/h100.png" -resize 1000x -strip +dither -colors 256 "$FIGS/report-h100.png"
convert "$work/both.png" -resize 1000x -strip +dither -colors 256 "$FIGS/report-h100-h200.png"
ls -l "$FIGS/report-h100.png" "$FIGS/report-h100-h200.png"
