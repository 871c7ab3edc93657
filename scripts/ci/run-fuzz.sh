#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang in their own build directory and runs
# each for a bounded time. Crashing inputs are left in $OUT_DIR/artifacts; copy them into
# tests/io/corpus/<target>/ so that io.test_fuzz_corpus replays them in every test run.
#   scripts/ci/run-fuzz.sh [SECONDS_PER_TARGET [TARGET...]]
#       default 60 s for each of every target; env BUILD_DIR, OUT_DIR, JOBS, FUZZ_JOBS (parallel
#       fuzzing processes per target, default 1). scripts/fuzz-release.sh runs it for an hour.
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

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DWARPLAB_FUZZ=ON -DWARPLAB_GUI=OFF -DWARPLAB_CUDA=OFF -DWARPLAB_HIP=OFF >/dev/null
cmake --build "$build" --target "${targets[@]}" -j"$jobs"

# libhdf5 crashes and spins on some damaged .h5 files (tests/fuzz/library-findings): fuzz_matrix
# leaves .h5 out unless FUZZ_HDF5=1 (scripts/fuzz-release.sh sets it).
[[ "${FUZZ_HDF5:-0}" == 1 ]] || export WARPLAB_FUZZ_NO_HDF5=1
# The file-based targets write one scratch file each under TMPDIR: keep them out of /tmp.
export TMPDIR="$out/scratch"
mkdir -p "$TMPDIR"
status=0
for t in "${targets[@]}"; do
  work="$out/corpus/$t"
  mkdir -p "$work" "$out/artifacts/$t"
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
  echo "== $t: ${seconds} s"
  parallel=()
  [[ "$fuzz_jobs" -gt 1 ]] && parallel=(-fork="$fuzz_jobs" -ignore_crashes=0)
  # libhdf5 (1.10.8, Debian 12) can loop for minutes inside H5Dread on a damaged global heap
  # (docs/ERRORS.md, "What we tried"): fuzz_matrix keeps such inputs under artifacts/ as
  # timeout-* and goes on (fork mode); a crash still fails the run.
  [[ "$t" == fuzz_matrix ]] && parallel=(-fork="$fuzz_jobs" -ignore_crashes=0 -ignore_timeouts=1 -ignore_ooms=0)
  t0=$(date +%s)
  if ! "$build/tests/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 "${parallel[@]}" \
       -artifact_prefix="$out/artifacts/$t/" "$work" "${existing[@]}"; then
    echo "$t found a failing input: see $out/artifacts/$t/" >&2
    status=1
  fi
  echo "== $t: ran $(( $(date +%s) - t0 )) s, corpus $(find "$work" -type f | wc -l) inputs"
done
rm -rf "$TMPDIR"
exit "$status"
