#!/usr/bin/env bash
# Before a release: every fuzz target of tests/fuzz for an hour in all (the time shared equally),
# FUZZ_JOBS processes each (default: the machine's cores). Crashes fail the run and are left in
# build-fuzz/fuzz-run/artifacts/<target>/; copy each into tests/io/corpus/<target>/ with a name
# saying what broke, fix it, and record the run in docs/ERRORS.md ("What we tried").
#   scripts/fuzz-release.sh [TOTAL_MINUTES]     (default 60)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
minutes="${1:-60}"
targets=(fuzz_edf_header fuzz_edf_file fuzz_text_readers fuzz_session fuzz_regions fuzz_study fuzz_matrix)
per=$(( minutes * 60 / ${#targets[@]} ))
export FUZZ_JOBS="${FUZZ_JOBS:-$(nproc)}"
export FUZZ_HDF5=1  # .h5 too: expect libhdf5's own findings (tests/fuzz/library-findings)
start=$(date +%s)
status=0
"$root/scripts/ci/run-fuzz.sh" "$per" "${targets[@]}" || status=$?
echo "fuzz-release: ${#targets[@]} targets, ${per} s each with ${FUZZ_JOBS} processes, $(( $(date +%s) - start )) s in all, status $status"
exit "$status"
