#!/usr/bin/env bash
# Builds WarpLab with a sanitizer in its own build directory (CPU only, GUI on) and runs the CPU
# and GUI tests under it; any finding fails the run.
#   scripts/ci/sanitize.sh asan [ci|engine|all|CTEST_REGEX]
#       AddressSanitizer + UndefinedBehaviorSanitizer. ci (the default, what .ci/run runs): every
#       test of tests/compute, io and app (the engine, the readers, the CLI) but the slowest
#       (docs/ERRORS.md, "What we tried"). engine: all of those, and the GUI tests that drive
#       the engine and the job runner (jobs started, cancelled, finished; studies; patterns).
#       all: every test of tests/compute, io, app and widgets (adds the real application under
#       Xvfb, screenshots, first use, the views' drawing and the copy-as-script run), before a
#       release. tests/python is not run: its module would be the ASan build, loaded into
#       Debian's Python with the runtime preloaded (LD_PRELOAD of libasan works for NumPy and
#       SciPy here), which is not wired up yet.
#   scripts/ci/sanitize.sh tsan [all|engine|CTEST_REGEX]
#       ThreadSanitizer. all (the default): the engine's threaded paths, the GUI job runner and
#       study loading; engine: its tests of tests/compute and io only (no GUI build).
#       The engine's loops run on oneTBB: Debian's libtbb is not built with TSan, which then
#       cannot see a task handed to another thread and reports data written before a parallel
#       loop and read inside it (docs/ERRORS.md, "What we tried"). Give a oneTBB built with
#       -fsanitize=thread in TSAN_TBB_DIR (its lib/cmake/TBB folder) for a clean run:
#       scripts/ci/tsan-tbb.sh builds one from Debian's source package and prints that folder.
# env: BUILD_DIR (default build-asan / build-tsan), JOBS (default 2), CC/CXX (default gcc),
#      TEST_TIMEOUT (seconds one test may take, default 900: a hang fails fast, not CI's limit).
# Suppressions (scripts/ci/sanitizers/*.supp) name system libraries only; each says why.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
kind="${1:-}"
jobs="${JOBS:-2}"
supp="$root/scripts/ci/sanitizers"
case "$kind" in
  asan)
    sanitize=address
    case "${2:-ci}" in
      # Every CPU test but the three slowest under ASan (before a release, in engine and all): the
      # CHB-MIT pattern ranking against the scalar reference (over 5 min on a loaded 2-core
      # machine) and the detector's cross-validation over the Bonn segments, in one matrix and
      # per fold (over 10 min each; the CLI's crossval test keeps the same code under ASan in CI).
      ci)  regex='^(compute|io|app)\.'; exclude='^(compute\.test_patterns_chbmit|io\.test_crossval|io\.test_crossval_matrix)$' ;;
      engine) regex='^((compute|io|app)\..*|widgets\.test_(align_job_cancel|main_window|study_gui|patterns_view|view_feedback))$' ;;
      all) regex='^(compute|io|app|widgets)\.' ;;
      *)   regex="$2" ;;
    esac
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:suppressions=$supp/asan.supp"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
    ;;
  tsan)
    sanitize=thread
    # Threads: the engine (parallel matrices and searches, cancellation), the GUI job runner
    # (align/search/matrix jobs started and cancelled), study loading (io and the GUI's).
    case "${2:-all}" in
      all)    regex='^(compute\.test_(engine|align_cancel|multi_search|sdtw_parallel|window_search|patterns)|io\.test_(study|study_patterns|number_column)|widgets\.test_(align_job_cancel|main_window|patterns_view|study_gui))$' ;;
      engine) regex='^(compute\.test_(engine|align_cancel|multi_search|sdtw_parallel|window_search|patterns)|io\.test_(study|study_patterns|number_column))$' ;;
      *)      regex="$2" ;;
    esac
    # ignore_noninstrumented_modules: Debian's Qt is not built with TSan, so the hand-offs inside
    # it (QThread::wait, the QtTest watchdog at exit) pass through futexes TSan cannot see; the
    # libc calls such a library makes are not checked, WarpLab's own accesses still are.
    export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1:suppressions=$supp/tsan.supp"
    ;;
  *)
    echo "usage: $0 asan|tsan [CTEST_REGEX]" >&2; exit 2 ;;
esac
exclude="${exclude:-^\$}"  # tests of the set left out (none: a name that never matches)
timeout="${TEST_TIMEOUT:-900}"
# Qt Test stops a test function after 300 s on its own; under a sanitizer the scalar-reference
# comparisons on recorded EEG take longer (test_patterns_chbmit), so CTest's limit governs.
export QTEST_FUNCTION_TIMEOUT=$(( timeout * 1000 ))
build="${BUILD_DIR:-$root/build-$kind}"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)

start=$(date +%s)
# The sources as built: a tree that changes during the build (a merge, a checkout) links objects
# of two versions of the same headers, whose types then differ in size between them; the tests
# read garbage without any sanitizer report (docs/ERRORS.md). Checked again before the tests.
tree_state() { git -C "$root" rev-parse HEAD 2>/dev/null; git -C "$root" status --porcelain --untracked-files=no 2>/dev/null; git -C "$root" diff 2>/dev/null | md5sum; }
tree_before="$(tree_state || true)"
# -O1: the sanitizers' usual level; it compiles about twice as fast as -O3 and keeps stacks readable.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -DNDEBUG" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -DNDEBUG" \
  -DCMAKE_C_COMPILER="${CC:-gcc}" -DCMAKE_CXX_COMPILER="${CXX:-g++}" "${launcher[@]}" \
  -DWARPLAB_SANITIZE="$sanitize" -DWARPLAB_CUDA=OFF -DWARPLAB_HIP=OFF -DWARPLAB_GUI=ON \
  -DWARPLAB_TESTS=ON ${TSAN_TBB_DIR:+-DTBB_DIR="$TSAN_TBB_DIR"} >/dev/null
# Only what the chosen tests run: their executables, and the CLI and GUI programs they start.
mapfile -t tests < <(ctest --test-dir "$build" -N -R "$regex" -E "$exclude" | sed -n 's/^ *Test *#[0-9]*: \(.*\)$/\1/p')
[[ ${#tests[@]} -gt 0 ]] || { echo "no test matches $regex" >&2; exit 2; }
# The CLI and GUI programs come as the tests' dependencies (tests/app, tests/widgets CMakeLists).
targets=()
for t in "${tests[@]}"; do targets+=("${t/./_}"); done
# Wall and CPU time of each step (CPU: the compilers' and the tests' own, children included),
# for estimating the step on an idle machine when this one is shared.
TIMEFORMAT="sanitize $kind: %R s wall, %U s user + %S s system CPU"
time cmake --build "$build" -j"$jobs" --target "${targets[@]}"
echo "sanitize $kind: build done after $(( $(date +%s) - start )) s"
if [[ "$(tree_state || true)" != "$tree_before" ]]; then
  echo "sanitize $kind: the sources changed during the build (objects of two versions may be linked together): run it again" >&2
  exit 2
fi
# Under asan, LeakSanitizer is on for every test, the GUI ones included: what system libraries keep to exit
# by design (libdbus under Xvfb) is in lsan.supp, by library, with why.
time QT_QPA_PLATFORM=offscreen ctest --test-dir "$build" -R "$regex" -E "$exclude" -j"$jobs" --output-on-failure --timeout "$timeout"
echo "sanitize $kind: ${#tests[@]} tests passed after $(( $(date +%s) - start )) s"
