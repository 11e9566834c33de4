#!/usr/bin/env bash
# A results file that is not ours is never touched: another CSV, a file with
# an older/other header, a directory, an unwritable place, all refused with
# exit 2 and one line before anything is measured; the file stays
# byte-identical. An existing clbench CSV is appended to, its rows kept.
source "$(dirname "$0")/../cli/lib.sh"
set -e
printf 'a,b,c\n1,2,3\n' > other.csv
cp other.csv other.orig
expect_error 2 "other.csv.*another header" "foreign CSV refused" run stream --quick -q -d $POCL -n 1 -o other.csv
cmp -s other.csv other.orig && pass "foreign CSV untouched" || fail "foreign CSV modified"
head -c 40 /dev/urandom > binary.csv; cp binary.csv binary.orig
expect_error 2 "binary.csv" "binary file refused" run stream --quick -q -d $POCL -n 1 -o binary.csv
cmp -s binary.csv binary.orig && pass "binary file untouched" || fail "binary file modified"
mkdir adir
expect_error 2 "adir.*not a regular file" "directory refused" run stream --quick -q -d $POCL -n 1 -o adir
expect_error 2 "/proc/clbench-nonexistent" "unwritable place refused" run stream --quick -q -d $POCL -n 1 -o /proc/clbench-nonexistent/x.csv
# appending keeps what was there, byte for byte
expect_status 0 "first run" run stream --quick -d $POCL -t float -n 1 --warmup 0 -o mine.csv
cp mine.csv mine.orig
expect_status 0 "second run appends" run stream --quick -d $POCL -t float -n 1 --warmup 0 -o mine.csv
[ "$(head -c "$(stat -c %s mine.orig)" mine.csv | cmp -s - mine.orig && echo same)" = same ] &&
  pass "earlier rows kept byte for byte" || fail "earlier rows changed"
[ "$(grep -c '^run_id,' mine.csv)" -eq 1 ] && [ "$(($(wc -l < mine.csv)))" -eq 9 ] &&
  pass "one header, 8 rows" || fail "mine.csv: $(wc -l < mine.csv) lines"
# A full disk: an append cut short is cut back to the last whole row, the run
# stops with exit 3 and one line, the file still parses. A file-size limit
# (SIGXFSZ ignored, so write(2) fails with EFBIG where a full disk gives
# ENOSPC) hits the results file alone if the file is already near it; the
# limit leaves PoCL room for its kernel cache files.
python3 - mine.csv full.csv <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines(True)
out, size, i = [lines[0]], len(lines[0]), 0
while size < 4096 * 1024 - 1500:          # room for 3-4 more rows
    out.append(lines[1 + i % 8]); size += len(out[-1]); i += 1
open(sys.argv[2], "w").write("".join(out))
PY
cp full.csv full.orig
( trap '' XFSZ; ulimit -f 4096
  expect_error 3 "cannot append to results file 'full.csv': File too large \\(the file ends with the last row written whole\\)" \
    "a full disk stops the run" run stream --quick -q -d $POCL -n 1 --warmup 0 -o full.csv
  exit "$FAILS" ) || FAILS=$((FAILS + 1))
python3 - full.orig full.csv <<'PY' && pass "after a full disk: earlier bytes kept, only whole rows added, the file parses" || fail "file after a full disk"
import csv, io, sys
old, new = open(sys.argv[1]).read(), open(sys.argv[2]).read()
assert new.startswith(old) and new.endswith("\n"), "earlier bytes changed or torn last row"
added = list(csv.reader(io.StringIO(new[len(old):])))
assert 1 <= len(added) < 8 and all(len(r) == 38 for r in added), [len(r) for r in added]
assert len(new) <= 4096 * 1024
PY
"$CLBENCH" compare full.csv > /dev/null && pass "clbench reads it back" || fail "compare cannot read full.csv"
finish
