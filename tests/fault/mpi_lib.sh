# Shared by the MPI tests (sourced after rel_lib.sh): Open MPI and an MPI
# build of clbench, and how the ranks start (Open MPI wants
# --allow-run-as-root when CI runs as root, and --oversubscribe for more ranks
# than cores: test-only).
if ! command -v mpirun >/dev/null 2>&1; then fail "mpirun not installed (bench.sh test installs openmpi-bin)"; finish; fi
if ! ldd "$CLBENCH" | grep -q libmpi; then fail "clbench was built without MPI (libopenmpi-dev missing?)"; finish; fi
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
MPIRUN=(timeout 120 mpirun --allow-run-as-root --oversubscribe)
export PRELOAD CLFAULT
# Open MPI leaks from MCA components it unloads at MPI_Finalize, in frames that
# LeakSanitizer cannot name (so tests/lsan.supp cannot match them): the ranks
# run with leak detection off; the sanitizers' other checks stay on.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
RUNENV=(-x ASAN_OPTIONS -x LSAN_OPTIONS -x CLBENCH_PLATFORMS)
