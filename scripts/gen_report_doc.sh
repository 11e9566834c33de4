#!/usr/bin/env bash
# The table of docs/REPORT.md that lists how the report draws each workload:
# generated from the workloads' `figure` declarations, which `clbench
# WORKLOAD --help` prints ("figure: ..."). tests/cli/test_report.sh checks
# that the doc holds exactly this table.
#   scripts/gen_report_doc.sh [CLBENCH]           # print the table
#   scripts/gen_report_doc.sh [CLBENCH] --write   # replace it in docs/REPORT.md
set -euo pipefail
cd "$(dirname "$0")/.."
cb=${1:-build/clbench}
table() {
  echo "| workload | the report's chart (its \`figure\` declaration, \`clbench WORKLOAD --help\`) |"
  echo "|---|---|"
  for w in $("$cb" --help --wide | awk '/^workloads:/{w=1;next} w&&NF{print $1} w&&!NF{exit}'); do
    echo "| \`$w\` | $("$cb" "$w" --help --wide | sed -n 's/^figure: //p') |"
  done
}
if [ "${2:-}" != --write ]; then table; exit 0; fi
doc=docs/REPORT.md
python3 - "$doc" "$(table)" <<'PY'
import sys
path, table = sys.argv[1], sys.argv[2]
begin, end = "<!-- figures: scripts/gen_report_doc.sh -->", "<!-- end of figures -->"
text = open(path).read()
a, b = text.index(begin) + len(begin), text.index(end)
open(path, "w").write(text[:a] + "\n" + table + "\n" + text[b:])
PY
