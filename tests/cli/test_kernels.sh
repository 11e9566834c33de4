#!/usr/bin/env bash
# Every workload with several kernels selects them with --param kernels=.
# Which ones have several comes from the rows of one quick run of them all,
# never from a list kept here; a workload whose help names a `kernel`
# parameter (the same choice, spelled otherwise) fails too. Each workload with
# several kernels then runs its last kernel alone.
source "$(dirname "$0")/lib.sh"
set -e
expect_status 0 "every workload --quick" run all --quick -d $POCL -t float -n 1 --warmup 0 \
  --min-time 0 -q -o all.csv
for w in $("$CLBENCH" run --help | sed -n 's/^workloads: //p' | tr -d ','); do
  "$CLBENCH" "$w" --help >help.txt
  if grep -q '^  kernel  ' help.txt; then fail "$w: a 'kernel' parameter, not 'kernels'"; fi
done
rows kernel-choices all.csv >choices.txt || fail "no kernel choices in all.csv"
[ "$(wc -l <choices.txt)" -ge 2 ] && pass "$(wc -l <choices.txt) workloads with several kernels" \
  || fail "workloads with several kernels: $(cat choices.txt)"
while read -r w k t; do
  "$CLBENCH" "$w" --help | grep -q '^  kernels  ' && pass "$w: help lists kernels" \
    || fail "$w: several kernels in all.csv, no 'kernels' parameter"
  [ "$t" = - ] && t=
  expect_status 0 "$w --param kernels=$k" run "$w" --quick -d $POCL ${t:+-t $t} -n 1 --warmup 0 \
    --min-time 0 -q --param kernels="$k" -o "$w.csv"
  rows only-kernel "$w.csv" "$w" "$k" && pass "$w: only $k rows" || fail "$w: rows of other kernels"
done <choices.txt
# with several workloads, WORKLOAD.kernels= is for that one alone
expect_status 0 "stream.kernels= beside bus.kernels=" run stream,bus --quick -d $POCL -t float -n 1 \
  --warmup 0 --min-time 0 -q --param stream.kernels=copy --param bus.kernels=pinned_h2d -o two.csv
rows only-kernel two.csv stream copy && rows only-kernel two.csv bus pinned_h2d \
  && pass "each workload ran its own kernels" || fail "scoped kernels= not applied"
expect_error 2 "unknown parameter 'dot.kernels'" "a workload not selected refused" \
  run stream,bus --quick -d $POCL --param dot.kernels=cpu -o bad.csv
finish
