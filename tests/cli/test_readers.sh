#!/usr/bin/env bash
# Readers of results files: bounded memory, and blank lines alike in both
# formats.
# - A line (a CSV record) longer than 1 MiB is refused before it is parsed,
#   and a JSON line that cannot be a row by its shape (an array, objects
#   nested deeper than metrics, more keys than a row has) before jansson
#   builds it: a crafted 21 MB JSON Lines file took compare 1.6 GB before it
#   refused the first line; a 21 MB CSV field, a 1 MB line of nested objects
#   likewise. Each is one line `file:line: ...`, exit 2, within a small peak
#   memory (getrusage of the child).
# - Blank lines (at the start, between rows, at the end, CRLF) are skipped by
#   every reader in both formats (before, one made a JSON Lines file
#   unreadable), and `run -o F.jsonl` appends to such a file.
source "$(dirname "$0")/lib.sh"
set -e
NUM="warmup reps bytes flops t_min_s t_median_s t_mean_s t_max_s t_stddev_s gbps gbps_best gflops pct_peak_bw model ranks energy_j avg_power_w"

# peak FILE ARGS...: run clbench ARGS FILE; prints "exit peak_MB" (the child's
# maximum resident set, from wait4); stderr in $TMP/stderr
peak() {
  python3 - "$CLBENCH" "$@" 2>"$TMP/stderr" <<'PY'
import os, sys
cb, f, args = sys.argv[1], sys.argv[2], sys.argv[3:]
pid = os.fork()
if pid == 0:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.execv(cb, [cb] + args + [f])
_, st, ru = os.wait4(pid, 0)
print(os.waitstatus_to_exitcode(st), int(ru.ru_maxrss / 1024))
PY
}

# the memory of a reader that refuses at once: the baseline, then each crafted file
head -n 1 "$CLBENCH_SRC/tests/data/compare/cpu.csv" > header.csv
read -r rc base < <(peak header.csv compare)
limit=$((base + 48))
crafted() { # NAME PATTERN: compare NAME is refused within the limit
  local got; got=$(peak "$1" compare)
  local rc=${got% *} mb=${got#* }
  [ "$rc" -eq 2 ] && grep -Eq "^clbench: .*$1:1: .*($2)" "$TMP/stderr" &&
    pass "$1: refused ($(cat "$TMP/stderr"))" || fail "$1: exit $rc: $(head -c 300 "$TMP/stderr")"
  [ "$mb" -le "$limit" ] && pass "$1: peak $mb MB (baseline $base MB)" ||
    fail "$1: peak $mb MB, above $limit MB (baseline $base MB)"
}
python3 -c "import sys; sys.stdout.write('{\"x\":[' + ','.join(['{}'] * 7000000) + ']}\n')" > nested21.jsonl
crafted nested21.jsonl "longer than"
python3 -c "import sys; sys.stdout.write('{\"x\":[' + ','.join(['{}'] * 330000) + ']}\n')" > nested1.jsonl
crafted nested1.jsonl "not a clbench row"
python3 -c "import sys; sys.stdout.write('{' + ','.join('\"k%d\":{}' % i for i in range(60000)) + '}\n')" > keys.jsonl
crafted keys.jsonl "not a clbench row"
{ cat header.csv; printf '"'; head -c 21000000 /dev/zero | tr '\0' a; printf '"\n'; } > field21.csv
got=$(peak field21.csv compare); mb=${got#* }
[ "${got% *}" -eq 2 ] && grep -q "field21.csv:2: .*longer than" "$TMP/stderr" &&
  pass "field21.csv: refused ($(cat "$TMP/stderr"))" || fail "field21.csv: $got: $(head -c 300 "$TMP/stderr")"
[ "$mb" -le "$limit" ] && pass "field21.csv: peak $mb MB" || fail "field21.csv: peak $mb MB, above $limit MB"

# the longest rows a reader accepts (a detail of 1,000,000 bytes): read, in a
# small multiple of the line
head -n 2 "$CLBENCH_SRC/tests/data/compare/cpu.csv" > one.csv
rows to-jsonl one.csv one.jsonl "$NUM"
python3 - <<'PY'
import csv, json
r = next(csv.DictReader(open("one.csv", newline="")))
r["detail"] = "x" * 1000000
w = csv.DictWriter(open("long.csv", "w", newline=""), fieldnames=list(r), lineterminator="\n")
w.writeheader()
w.writerow(r)
o = json.loads(open("one.jsonl").readline())
o["detail"] = r["detail"]
open("long.jsonl", "w").write(json.dumps(o) + "\n")
PY
for f in long.csv long.jsonl; do
  got=$(peak $f compare); mb=${got#* }
  [ "${got% *}" -eq 0 ] && pass "$f: a 1 MB row is read" || fail "$f: exit ${got% *}: $(head -c 300 "$TMP/stderr")"
  [ "$mb" -le "$limit" ] && pass "$f: peak $mb MB" || fail "$f: peak $mb MB, above $limit MB"
done

# blank lines: every reader reads the same rows from a file with blank lines
cp "$CLBENCH_SRC/tests/data/compare/cpu.csv" a.csv
rows to-jsonl a.csv a.jsonl "$NUM"
blanks() { # IN OUT: blank lines at the start, between rows (LF and CRLF), at the end
  python3 - "$1" "$2" <<'PY'
import sys
L = open(sys.argv[1], newline="").read().split("\n")
open(sys.argv[2], "w", newline="").write("\n\r\n" + L[0] + "\n\n" + "\n".join(L[1:3]) + "\r\n\r\n\n"
                                         + "\n".join(L[3:]) + "\n\n")
PY
}
blanks a.csv b.csv
blanks a.jsonl b.jsonl
python3 - <<'PY'   # a baseline of other runs: the same rows, other run ids
import csv
rows = list(csv.reader(open("a.csv", newline="")))
for r in rows[1:]:
    r[0] = "old-" + r[0]
csv.writer(open("base.csv", "w", newline=""), lineterminator="\n").writerows(rows)
PY
for f in a b; do
  for e in csv jsonl; do
    "$CLBENCH" compare $f.$e 2>&1 | sed "s/$f\\.$e/FILE/" > cmp-$f-$e.txt || true
    "$CLBENCH" compare $f.$e --baseline base.csv 2>&1 | sed "s/$f\\.$e/FILE/" > gate-$f-$e.txt || true
    "$CLBENCH" model roofline --results $f.$e -w stream 2>&1 | sed "s/$f\\.$e/FILE/" > model-$f-$e.txt || true
  done
done
for what in cmp gate model; do
  for o in a-jsonl b-csv b-jsonl; do
    cmp -s $what-a-csv.txt $what-$o.txt && pass "$what: $o reads as a.csv" ||
      fail "$what: $o differs from a.csv: $(diff $what-a-csv.txt $what-$o.txt | head -n 4)"
  done
done
grep -q "stream" cmp-a-csv.txt && pass "compare shows the rows" || fail "compare: $(head -n 3 cmp-a-csv.txt)"
expect_status 0 "report of a JSON Lines file with blank lines" report b.jsonl -o b.html
expect_status 0 "results upgrade of a JSON Lines file with blank lines" results upgrade b.jsonl

# run -o F.jsonl appends to a file that starts with a blank line; readers read it
printf '\n' > runs.jsonl
expect_status 0 "run -o runs.jsonl (a blank first line)" run stream -d $POCL -t float -s 4096 -n 1 \
  --warmup 0 -q -o runs.jsonl
printf '\n\n' >> runs.jsonl
expect_status 0 "run -o runs.jsonl again (blank lines between)" run stream -d $POCL -t float -s 4096 \
  -n 1 --warmup 0 -q -o runs.jsonl
run_cb compare runs.jsonl --json
[ "$RC" -eq 0 ] && pass "compare reads the appended runs.jsonl" || fail "compare runs.jsonl: $ERR_TXT"
finish
