#!/usr/bin/env bash
# clbench in two commands:
#   ./bench.sh             install what is missing, build, run the whole suite on the default device
#   ./bench.sh test        install what is missing, build the -Werror and the sanitizer builds, run every test
#                          on PoCL, the device-limit tests again on a second PoCL shape (label shape2),
#                          and every workload on Mesa's Rusticl (CTest label rusticl)
#   ./bench.sh run ARGS    build if needed, then: clbench ARGS  (e.g. ./bench.sh run stream -t float)
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages: what the build and the tests need (chromium-headless-shell:
# the report's check in a real browser, tests/cli/test_report_browser.sh).
PKGS=(cmake make gcc pkg-config ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
      libcsv-dev libinih-dev libcmocka-dev libjansson-dev gnuplot-nox clang libclang-rt-dev
      openmpi-bin libopenmpi-dev mesa-opencl-icd chromium-headless-shell)
JOBS=$(nproc 2>/dev/null || echo 2)
# The seconds ./bench.sh's build and suite may take (the packages' install
# aside): the suite's default sizes step down where clbench's estimate would
# not end within them (clbench run --budget; docs/MEASURING.md, "Default sizes").
BUDGET=300

install_missing() {
  local missing=()
  for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "bench.sh: missing packages; as root run:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 2
  fi
  echo "bench.sh: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq "${missing[@]}" >/dev/null
}

# build DIR [cmake options...]: says what it does (configure, compile with a
# percentage every tenth, the time it took); compiler warnings and errors
# show as they come.
build() {
  local dir=$1 t0=$SECONDS; shift
  mkdir -p "$dir"   # the configure log lives in the (git-ignored) build dir, not the tree
  echo "bench.sh: configuring $dir ($*)" >&2
  cmake -S . -B "$dir" "$@" >"$dir/configure.log" 2>&1 || { cat "$dir/configure.log" >&2; exit 3; }
  echo "bench.sh: compiling clbench in $dir with $JOBS jobs" >&2
  cmake --build "$dir" -j "$JOBS" 2>&1 | awk '
    /^\[ *[0-9]+%\]/ { p = substr($0, 2) + 0; if (p >= next_p) { printf "bench.sh: compiling: %d%%\n", p; next_p = p - p % 10 + 10; fflush() } next }
    /^-- |Built target|Consolidate/ { next }
    { print; fflush() }' next_p=10 >&2 || true
  [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "bench.sh: build in $dir failed" >&2; exit 3; }
  echo "bench.sh: $dir built in $((SECONDS - t0)) s" >&2
}

cmd=${1:-all}
case "$cmd" in
  test)
    install_missing
    build build-test -DCMAKE_BUILD_TYPE=Debug -DCLBENCH_WERROR=ON
    build build-asan -DCMAKE_BUILD_TYPE=Debug -DCLBENCH_WERROR=ON -DCLBENCH_SANITIZE=ON
    status=0
    rm -f build-test/junit.xml build-asan/junit.xml
    echo "== tests: -Werror build ==" >&2
    # Both builds are -Werror. The suites that run clbench (labels cli,
    # rusticl, reliability) run once, in the sanitized build below, where a
    # leak or UB is also caught (run twice, they ran the same code paths
    # twice and doubled the suite's time on two cores). Here: the unit tests, the
    # docs against the code, and the second device shape (label shape2,
    # tests/cli/shape2.sh), which only this build defines.
    (cd build-test && ctest --output-on-failure -j "$JOBS" -LE 'reliability|cli|rusticl' \
       --output-junit "$PWD/junit.xml") || status=1
    echo "== tests: ASan+UBSan build ==" >&2
    (cd build-asan && ctest --output-on-failure -j "$JOBS" --output-junit "$PWD/junit.xml") || status=1
    # what each build skipped, and why (a test that cannot run here exits 77:
    # CTest's "Skipped"; tests/skip_summary.py reads the reasons)
    for b in build-test build-asan; do
      [ -f "$b/junit.xml" ] || continue
      s=$(python3 tests/skip_summary.py "$b/junit.xml") || status=1
      [ -z "$s" ] || printf '== skipped in %s ==\n%s\n' "$b" "$s" >&2
    done
    exit $status
    ;;
  run)
    shift
    install_missing
    build build -DCMAKE_BUILD_TYPE=Release -DCLBENCH_TESTS=OFF
    exec ./build/clbench "$@"
    ;;
  all)
    install_missing
    t0=$SECONDS
    # what is left of the budget for a run: the report and the summary keep 20 s
    left() { local l=$((BUDGET - (SECONDS - t0) - 20)); echo $((l < 30 ? 30 : l)); }
    build build -DCMAKE_BUILD_TYPE=Release -DCLBENCH_TESTS=OFF
    ./build/clbench list
    # stream first, on its own: its table (the device's bandwidth ceiling)
    # is on screen within a minute; the other workloads follow and append to
    # the same file, this suite's own, which the report then reads whole.
    # On a 2-core CPU the whole default suite takes about 2 minutes; its
    # sizes step down where it would not end within the budget (--budget).
    mkdir -p results/local
    suite=results/local/suite-$(date -u +%Y%m%d-%H%M%S).csv
    status=0
    echo "bench.sh: running stream (the device's bandwidth ceiling) on the default device" >&2
    ./build/clbench run stream -o "$suite" --budget $(($(left) / 6)) || status=$?
    others=$(./build/clbench --help --wide | awk '/^workloads:/{w=1;next} w&&NF{print $1} w&&!NF{exit}' | grep -vx stream | paste -sd, -)
    echo "bench.sh: running the other workloads: $others" >&2
    ./build/clbench run "$others" -o "$suite" --budget "$(left)" || status=$?
    # the page of the suite (clbench says "report: results/local/report.html")
    [ -s "$suite" ] && { ./build/clbench report "$suite" -o results/local/report.html || status=3; }
    # the headline last, on screen: the figures people paste into slides
    # (docs/COMPARE.md, "The headline")
    [ -s "$suite" ] && { echo >&2; ./build/clbench compare "$suite" --headline || status=3; }
    exit $status
    ;;
  -h|--help|help)
    sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
    ;;
  *)
    echo "bench.sh: unknown command '$cmd' (accepted: test, run ARGS..., or nothing)" >&2
    exit 2
    ;;
esac
