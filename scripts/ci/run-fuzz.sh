#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang in their own build directory and runs
# each for a bounded time. Crashing inputs are left in $OUT_DIR/artifacts; copy them into
# tests/io/corpus/<target>/ so that io.test_fuzz_corpus replays them in every test run.
#   scripts/ci/run-fuzz.sh [SECONDS_PER_TARGET [TARGET...]]
#       default 60 s for each of every target; env BUILD_DIR, OUT_DIR, JOBS, FUZZ_JOBS (parallel
#       fuzzing processes per target, default 1), FUZZ_BIN (a folder of targets built already,
#       e.g. carried to another machine: nothing is built). scripts/fuzz-release.sh runs it before
#       a release.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
seconds="${1:-60}"
build="${BUILD_DIR:-$root/build-fuzz}"
out="${OUT_DIR:-$build/fuzz-run}"
jobs="${JOBS:-2}"
all_targets=(fuzz_edf_header fuzz_edf_file fuzz_text_readers fuzz_session fuzz_regions fuzz_study fuzz_matrix fuzz_events_tsv)
targets=("${@:2}")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")
fuzz_jobs="${FUZZ_JOBS:-1}"

if [[ -n "${FUZZ_BIN:-}" ]]; then
  bin="$FUZZ_BIN"
else
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" \
    -DWARPLAB_FUZZ=ON -DWARPLAB_GUI=OFF -DWARPLAB_CUDA=OFF -DWARPLAB_HIP=OFF >/dev/null
  cmake --build "$build" --target "${targets[@]}" -j"$jobs"
  bin="$build/tests/fuzz"
fi

# libhdf5 crashes and spins on some damaged .h5 files (tests/fuzz/library-findings): fuzz_matrix
# leaves .h5 out unless FUZZ_HDF5=1 (scripts/fuzz-release.sh sets it).
[[ "${FUZZ_HDF5:-0}" == 1 ]] || export WARPLAB_FUZZ_NO_HDF5=1
# FUZZ_SIDE_BY_SIDE=1: all targets at once (a machine with cores for each), else one after another.
# FUZZ_KEEP_GOING=1 (the release run): a crash is kept under artifacts/ and fuzzing goes on, so
# that one run finds all it can; the run still fails if any crash, leak or timeout was kept.
side="${FUZZ_SIDE_BY_SIDE:-0}"
keep="${FUZZ_KEEP_GOING:-0}"
mkdir -p "$out/logs"

fuzz_one() {
  local t="$1" work="$out/corpus/$1" seeds existing parallel s t0 rc=0
  mkdir -p "$work" "$out/artifacts/$t" "$out/scratch/$t"
  seeds=("$root/tests/io/corpus/$t")
  case "$t" in
    fuzz_edf_*) seeds+=("$root/tests/fuzz/seeds/edf") ;;
    fuzz_text_readers) seeds+=("$root/tests/fuzz/seeds/text") ;;
    fuzz_session) seeds+=("$root/tests/fuzz/seeds/session") ;;
    # Recordings carry annotations too: the EDF seeds start the EDF+ side.
    fuzz_regions) seeds+=("$root/tests/fuzz/seeds/regions" "$root/tests/fuzz/seeds/edf") ;;
    fuzz_study) seeds+=("$root/tests/fuzz/seeds/study") ;;
    fuzz_matrix) seeds+=("$root/tests/fuzz/seeds/matrix") ;;
    fuzz_events_tsv) seeds+=("$root/tests/fuzz/seeds/events") ;;
  esac
  existing=()
  for s in "${seeds[@]}"; do [[ -d "$s" ]] && existing+=("$s"); done
  parallel=()
  if [[ "$keep" == 1 ]]; then
    parallel=(-fork="$fuzz_jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  else
    [[ "$fuzz_jobs" -gt 1 ]] && parallel=(-fork="$fuzz_jobs" -ignore_crashes=0)
    # libhdf5 (1.10.8, Debian 12) can loop for minutes inside H5Dread on a damaged global heap
    # (docs/ERRORS.md, "What we tried"): fuzz_matrix keeps such inputs under artifacts/ as
    # timeout-* and goes on (fork mode); a crash still fails the run.
    [[ "$t" == fuzz_matrix ]] && parallel=(-fork="$fuzz_jobs" -ignore_crashes=0 -ignore_timeouts=1 -ignore_ooms=0)
  fi
  # libhdf5 leaks on a failed open of some damaged files (scripts/ci/sanitizers/fuzz-lsan.supp);
  # its frames have no frame pointers, so only the slower unwinder sees the frame the narrow
  # suppression names. For fuzz_matrix with .h5 only.
  local asan="${ASAN_OPTIONS:-}"
  [[ "$t" == fuzz_matrix && "${FUZZ_HDF5:-0}" == 1 ]] && asan="${asan:+$asan:}fast_unwind_on_malloc=0"
  echo "== $t: ${seconds} s, ${fuzz_jobs} process(es)"
  t0=$(date +%s)
  # The file-based targets write one scratch file each under TMPDIR: keep them out of /tmp.
  TMPDIR="$out/scratch/$t" ASAN_OPTIONS="$asan" LSAN_OPTIONS="suppressions=$root/scripts/ci/sanitizers/fuzz-lsan.supp" \
    "$bin/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 "${parallel[@]}" \
    -artifact_prefix="$out/artifacts/$t/" "$work" "${existing[@]}" >"$out/logs/$t.log" 2>&1 || rc=$?
  [[ "$side" == 1 ]] || tail -n 30 "$out/logs/$t.log"
  # The last status line: fork mode '#N: cov: .. corp: .. exec/s: .. oom/timeout/crash: a/b/c',
  # one process '#N DONE cov: .. corp: ..'.
  local last execs
  last=$(grep -E '^#[0-9]+' "$out/logs/$t.log" | tail -n 1 || true)
  execs=$(sed -E 's/^#([0-9]+).*/\1/' <<<"$last")
  echo "== $t: ran $(( $(date +%s) - t0 )) s, ${execs:-?} executions, corpus $(find "$work" -type f | wc -l) inputs," \
       "kept: $(find "$out/artifacts/$t" -name 'crash-*' | wc -l) crash, $(find "$out/artifacts/$t" -name 'leak-*' | wc -l) leak," \
       "$(find "$out/artifacts/$t" -name 'timeout-*' | wc -l) timeout, $(find "$out/artifacts/$t" -name 'oom-*' | wc -l) oom, exit $rc" \
    | tee -a "$out/summary.txt"
  rm -rf "$out/scratch/$t"
  if [[ $rc -ne 0 ]] || { [[ "$keep" == 1 ]] && [[ -n "$(find "$out/artifacts/$t" -type f)" ]]; }; then
    echo "$t found a failing input: see $out/artifacts/$t/ and $out/logs/$t.log" >&2
    return 1
  fi
}

status=0
: >"$out/summary.txt"
if [[ "$side" == 1 ]]; then
  pids=()
  for t in "${targets[@]}"; do fuzz_one "$t" & pids+=($!); done
  for p in "${pids[@]}"; do wait "$p" || status=1; done
else
  for t in "${targets[@]}"; do fuzz_one "$t" || status=1; done
fi
exit "$status"
