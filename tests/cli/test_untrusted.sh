#!/usr/bin/env bash
# Input from outside is untrusted (docs/RELIABILITY.md, "Untrusted input"):
# sizes whose byte counts overflow, paths of any length, results files and
# profiles that are not regular files, a kernel directory with a link to
# /dev/zero, a results file whose last line is torn. Each ends in one line and
# the right exit status, never a crash, a hang, or a changed file.
source "$(dirname "$0")/lib.sh"
set -e
T="timeout 30"   # a reader that hangs on a FIFO or /dev/zero fails the test here

# ---- sizes whose byte count does not fit in 64 bits: exit 2, one line, nothing written
printf 'keep\n' > keep.txt
for spec in "stream -s 2^62" "camping -s 2^62" "dot -s 2^62" "stride -s 2^62" \
            "dslash -s 65536x65536x65536x16384" "copy2d -t double -s 1073793636x2147380029" \
            "transpose -s 4294967296x1073741824" "matmul -s 2^40" "blockeq -t double -s 2^31x2^31"; do
  set -- $spec
  expect_error 2 "does not fit in 64 bits|too large|bad size" "$spec refused" run "$@" -d $POCL -q -o big.csv
done
[ ! -e big.csv ] && pass "no results file written for refused sizes" || fail "big.csv written: $(cat big.csv | head -3)"
# a grid whose product of extents overflows (it read as 1x2x2x2, exit 0)
R="$CLBENCH_SRC/results/runs/2026-11-23"
for g in 1x4294967298x4294967298x4611686009837453314 1x2x2x99999999999999999999999; do
  expect_error 2 "grid=$g is not" "model scaling grid=$g refused" model scaling \
    --results "$R/h200x2-mpi.csv,$R/h200-suite-3.csv" -w dslash -k reg --param rhs=1 --param grid=$g
done

# ---- paths of any length the OS accepts; beyond it, one line
long=$(python3 -c "print('/'.join(['d' * 120] * 5))")
expect_status 0 "a 600-character -o path" run stream --quick -d $POCL -t float -n 2 -o "$long/r.csv"
[ -f "$long/r.csv" ] && [ "$(grep -c . "$long/r.csv")" -eq 5 ] && pass "the file lands at that exact path" || fail "not at $long/r.csv"
toolong=$(python3 -c "print('x' * 300)")
expect_error 2 "File name too long|cannot" "a 300-character file name (over NAME_MAX) refused" run stream --quick -d $POCL -o "$toolong.csv"

# ---- readers take regular files only
mkfifo fifo.csv
run_cb compare fifo.csv
[ "$RC" -eq 2 ] && echo "$ERR_TXT" | grep -q "not a regular file" && pass "compare FIFO: refused at once" || fail "compare fifo: exit $RC: $ERR_TXT"
rc=0; $T "$CLBENCH" compare /dev/zero >/dev/null 2>"$TMP/e" || rc=$?
[ $rc -eq 2 ] && grep -q "not a regular file" "$TMP/e" && pass "compare /dev/zero: refused at once" || fail "compare /dev/zero: exit $rc"
mkdir pdir && cp "$CLBENCH_SRC"/platforms/*.ini pdir/ && mkfifo pdir/evil.ini
rc=0; $T "$CLBENCH" profiles --platforms-dir pdir >/dev/null 2>"$TMP/e" || rc=$?
[ $rc -eq 2 ] && grep -q "evil.ini.*not a regular file" "$TMP/e" && pass "a FIFO among the profiles: refused at once" || fail "profile fifo: exit $rc $(cat "$TMP/e")"
mkdir kd && cp "$CLBENCH_SRC"/cl/*.cl kd/ && rm kd/stream.cl && ln -s /dev/zero kd/stream.cl
rc=0; $T "$CLBENCH" run stream --quick -d $POCL -t float --kernel-dir kd -o kz.csv >/dev/null 2>"$TMP/e" || rc=$?
[ $rc -ne 124 ] && grep -q "kernel source .*stream.cl.* not a regular file" "$TMP/e" &&
  pass "--kernel-dir with a link to /dev/zero: refused (exit $rc)" || fail "kernel-dir /dev/zero: exit $rc $(cat "$TMP/e")"
head -c 5000000 /dev/urandom | base64 > kd2.cl; mkdir kd2 && cp "$CLBENCH_SRC"/cl/*.cl kd2/ && mv kd2.cl kd2/stream.cl
run_cb run stream --quick -d $POCL -t float --kernel-dir kd2 -o kb.csv
echo "$ERR_TXT" | grep -q "larger than" && pass "a 6.7 MB kernel source refused with its size cap" || fail "big kernel source: $ERR_TXT"

# ---- a results file whose last line is torn: refused, untouched
"$CLBENCH" run stream --quick -d $POCL -t float -n 2 -q -o torn.csv >/dev/null
printf 'half,a,row' >> torn.csv; cp torn.csv torn.orig
expect_error 2 "does not end with a newline" "appending to a torn file refused" run stream --quick -d $POCL -t float -n 2 -o torn.csv
cmp -s torn.csv torn.orig && pass "the torn file is untouched" || fail "torn.csv changed"

# ---- a field that would drive the terminal: quoted in the message with its control bytes escaped
"$CLBENCH" run stream --quick -d $POCL -t float -n 2 -q -o esc.csv >/dev/null
python3 - <<'PY'
import csv
rows = list(csv.reader(open("esc.csv", newline="")))
rows[1][rows[0].index("status")] = "ok\x1b]0;pwned\x07\x1b[31m"
csv.writer(open("esc.csv", "w", newline=""), lineterminator="\n").writerows(rows)
PY
expect_error 2 "column status is not .*'ok.x1b]0;pwned.x07.x1b\[31m'" \
  "a status with terminal controls refused, escaped" compare esc.csv
grep -q $'\x1b' "$TMP/stderr" && fail "a raw ESC byte reached stderr" || pass "no raw ESC byte on stderr"
finish
