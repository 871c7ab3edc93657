#!/usr/bin/env bash
# Before a release: every fuzz target of tests/fuzz, .h5 included, for at least an hour of
# fuzzing processes in all (60 process-minutes, the cores shared among the targets). With as many
# cores as targets, all targets run side by side for MINUTES of wall time, cores/targets
# processes each; on a smaller machine one after another, MINUTES/targets each, on every core.
# A crash, leak or timeout is kept and fuzzing goes on (FUZZ_KEEP_GOING), so one run finds all
# it can; the run fails if any was kept. They are left in $OUT_DIR/artifacts/<target>/ (default
# build-fuzz/fuzz-run); copy each into tests/io/corpus/<target>/ with a name saying what broke,
# fix it, and record the run in docs/ERRORS.md ("What we tried") from $OUT_DIR/summary.txt.
#   scripts/fuzz-release.sh [MINUTES]     (default 60 on a small machine; on one of 16 cores,
#                                          8 minutes give 8 targets x 2 processes = 128 process-minutes)
# env: FUZZ_JOBS (processes in all, default the machine's cores), FUZZ_BIN (targets built
#      already, e.g. carried to another machine), OUT_DIR.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
minutes="${1:-60}"
targets=(fuzz_edf_header fuzz_edf_file fuzz_text_readers fuzz_session fuzz_regions fuzz_study fuzz_matrix fuzz_events_tsv)
cores="${FUZZ_JOBS:-$(nproc)}"
export FUZZ_HDF5=1  # .h5 too: expect libhdf5's own findings (tests/fuzz/library-findings)
export FUZZ_KEEP_GOING=1
if (( cores >= ${#targets[@]} )); then
  export FUZZ_SIDE_BY_SIDE=1 FUZZ_JOBS=$(( cores / ${#targets[@]} ))
  per=$(( minutes * 60 ))
  processes=$(( FUZZ_JOBS * ${#targets[@]} ))
else
  export FUZZ_SIDE_BY_SIDE=0 FUZZ_JOBS="$cores"
  per=$(( minutes * 60 / ${#targets[@]} ))
  processes="$cores"
fi
start=$(date +%s)
status=0
"$root/scripts/ci/run-fuzz.sh" "$per" "${targets[@]}" || status=$?
elapsed=$(( $(date +%s) - start ))
echo "fuzz-release: ${#targets[@]} targets, ${per} s each with ${FUZZ_JOBS} processes" \
     "(side by side: ${FUZZ_SIDE_BY_SIDE}), ${processes} processes at once," \
     "about $(( processes * minutes )) process-minutes, ${elapsed} s in all, status $status"
exit "$status"
