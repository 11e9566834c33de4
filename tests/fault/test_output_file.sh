#!/usr/bin/env bash
# A results file that is not ours is never touched: another CSV, a file with
# an older/other header, a directory, an unwritable place, all refused with
# exit 2 and one line before anything is measured; the file stays
# byte-identical. An existing clbench CSV is appended to, its rows kept.
source "$(dirname "$0")/../cli/lib.sh"
set -e
printf 'a,b,c\n1,2,3\n' > other.csv
cp other.csv other.orig
expect_error 2 "other.csv.*another header" "foreign CSV refused" run stream --quick -q -d cpu -n 1 -o other.csv
cmp -s other.csv other.orig && pass "foreign CSV untouched" || fail "foreign CSV modified"
head -c 40 /dev/urandom > binary.csv; cp binary.csv binary.orig
expect_error 2 "binary.csv" "binary file refused" run stream --quick -q -d cpu -n 1 -o binary.csv
cmp -s binary.csv binary.orig && pass "binary file untouched" || fail "binary file modified"
mkdir adir
expect_error 2 "adir.*not a regular file" "directory refused" run stream --quick -q -d cpu -n 1 -o adir
expect_error 2 "/proc/clbench-nonexistent" "unwritable place refused" run stream --quick -q -d cpu -n 1 -o /proc/clbench-nonexistent/x.csv
# appending keeps what was there, byte for byte
expect_status 0 "first run" run stream --quick -d cpu -t float -n 1 --warmup 0 -o mine.csv
cp mine.csv mine.orig
expect_status 0 "second run appends" run stream --quick -d cpu -t float -n 1 --warmup 0 -o mine.csv
[ "$(head -c "$(stat -c %s mine.orig)" mine.csv | cmp -s - mine.orig && echo same)" = same ] &&
  pass "earlier rows kept byte for byte" || fail "earlier rows changed"
[ "$(grep -c '^run_id,' mine.csv)" -eq 1 ] && [ "$(($(wc -l < mine.csv)))" -eq 9 ] &&
  pass "one header, 8 rows" || fail "mine.csv: $(wc -l < mine.csv) lines"
finish
