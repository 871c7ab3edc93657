#!/usr/bin/env bash
# One device call for the GPU subsequence search cut into reference stretches: build, the sdtw
# tests (stretched against the unsplit pass, bit for bit, and against the reference), then
# `warplab-cli bench` on the published shape and on one query in a 40-hour channel (256 Hz),
# the stretched pass (cuda.sdtw) beside the whole one (cuda.sdtw.whole) and all CPU cores.
# Carry .device-debs and .device-data. Logs in $OUT.
# BASE=file.tgz (a `git archive` of an earlier commit, untracked in the root): that tree's CLI
# is built too and the published shape runs on both, alternating, in the same call.
#   [TESTS="sdtw kernels window"] [LONG=36864000] [BASE=ab-base.tgz] bash scripts/device/stretches.sh
source "$(dirname "$0")/common.sh"
{ date -u; nvidia-smi -L; nproc; } | tee "$OUT/run.log"
b=build-device-stretch
device_configure $b "$OUT/cfg.log" -DWARPLAB_TEST_DATA="$PWD/.device-data"
tests=${TESTS-"sdtw kernels window"}
targets=""; for t in $tests; do targets="$targets gpu_test_$t"; done
cmake --build $b -j16 --target $targets warplab-cli > "$OUT/build.log" 2>&1 \
  || { grep -B2 -A12 -E 'error|FAILED' "$OUT/build.log" | head -80; exit 1; }
if [ -n "${BASE:-}" ]; then
  unpack_tree "$BASE" build-base-src
  (cd build-base-src && device_configure build "$OUT/cfg-base.log" && cmake --build build -j16 --target warplab-cli > "$OUT/build-base.log" 2>&1) \
    || { grep -B2 -A12 -E 'error|FAILED' "$OUT/build-base.log" | head -40; exit 1; }
fi
echo "built after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
for t in $tests; do
  timeout "${LIMIT:-300}" $b/tests/gpu/gpu_test_$t "$PWD/.device-data" > "$OUT/$t.log" 2>&1
  echo "gpu_test_$t exit $? ($(( $(date +%s) - T0 )) s)" | tee -a "$OUT/run.log"
  grep -E "FAIL|checks" "$OUT/$t.log" | tail -8 | tee -a "$OUT/run.log"
done
grep -E "stretches, .* waves" "$OUT/sdtw.log" 2>/dev/null | head -40 | tee -a "$OUT/run.log"
C=$b/app/cli/warplab-cli
run() { echo "\$ warplab-cli $*" | tee -a "$OUT/bench.log"; timeout 240 $C "$@" 2>&1 | tee -a "$OUT/bench.log" | cut -c1-900; }
if [ -n "${BASE:-}" ]; then
  P="bench --metric sdtw --znorm --lengths 2000 --queries 512 --reference-length 100000 --top 5 --repeats 5"
  for v in base new base new; do
    if [ $v = base ]; then k=cuda.sdtw,cuda.sdtw_half2; X=build-base-src/build/app/cli/warplab-cli; else k=cuda.sdtw.whole,cuda.sdtw,cuda.sdtw_half2; X=$C; fi
    echo "## $v: warplab-cli $P --kernels $k" | tee -a "$OUT/ab.log"
    timeout 120 $X $P --kernels $k 2>&1 | grep -E "^(cuda|hip)" | cut -c1-112 | tee -a "$OUT/ab.log"
  done
fi
run bench --metric sdtw --znorm --lengths 2000 --queries 512 --reference-length 100000 --top 5 --repeats 5 \
  --kernels cuda.sdtw,cuda.sdtw.whole
run bench --metric sdtw --znorm --lengths 256,1024 --queries 1 --reference-length ${LONG:-36864000} --top 5 --repeats 3 \
  --kernels cuda.sdtw,cuda.sdtw.whole
# All CPU cores on the 256-sample query (its row checks every match against one core's sweep).
run bench --metric sdtw --znorm --lengths 256 --queries 1 --reference-length ${LONG:-36864000} --top 5 --repeats 3 \
  --kernels cuda.sdtw,cpu.simd
run bench --metric sdtw --znorm --lengths 256 --queries 16 --reference-length ${LONG:-36864000} --top 5 --repeats 3 \
  --kernels cuda.sdtw,cuda.sdtw.whole
echo "done after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
