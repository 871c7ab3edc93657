#!/usr/bin/env bash
# The fp32 soft-DTW value + gradient (issue 12): build, the GPU tests named in TESTS, the
# benchmark at 128 and 1,024 with 1,024 and 16,384 pairs (each shape of GRAD_SHAPES when set),
# then, unless NO_PROFILE, one launch of each kernel under Nsight Compute. Carry .device-debs
# and .device-data. Logs in $OUT.
# With BASE=1 the benchmark of the tree in ab-base.tgz (a `git archive` tarball, carried) runs
# first in the same call, for a before/after on one machine.
#   [TESTS="softdtw sdtw"] [GRAD_SHAPES=0x0,8x4] [BASE=1] bash scripts/device/softdtw-grad.sh
source "$(dirname "$0")/common.sh"
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader; nproc; } | tee "$OUT/run.log"
b=build-device-grad
device_configure $b "$OUT/cfg.log" -DWARPLAB_TEST_DATA="$PWD/.device-data"
TESTS=${TESTS:-softdtw}
cmake --build $b -j16 --target warplab-gpu-bench $(for t in $TESTS; do echo gpu_test_$t; done) > "$OUT/build.log" 2>&1 \
  || { grep -B2 -A12 -E 'error|FAILED' "$OUT/build.log" | head -80; exit 1; }
echo "built after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
for t in $TESTS; do
  timeout 300 $b/tests/gpu/gpu_test_$t "$PWD/.device-data" > "$OUT/test_$t.log" 2>&1
  echo "gpu_test_$t exit $? ($(( $(date +%s) - T0 )) s)" | tee -a "$OUT/run.log"
  grep -E "FAIL|checks" "$OUT/test_$t.log" | tail -8 | tee -a "$OUT/run.log"
done
B=$b/tests/gpu/warplab-gpu-bench
if [ -n "${BASE:-}" ]; then
  unpack_tree ab-base.tgz /tmp/base
  (cd /tmp/base && device_configure build-base "$OUT/cfg-base.log" && cmake --build build-base -j16 --target warplab-gpu-bench > "$OUT/build-base.log" 2>&1) || { tail -20 "$OUT/build-base.log"; exit 1; }
  for pairs in 1024 16384; do
    a="--metric softdtw --gradient --fp32 --lengths 128,1024 --pairs $pairs --repeats 5"
    echo "\$ (base) warplab-gpu-bench $a" | tee -a "$OUT/run.log"
    timeout 200 /tmp/base/build-base/tests/gpu/warplab-gpu-bench $a 2>&1 | grep -E "^cuda" | cut -c1-400 | tee -a "$OUT/run.log"
  done
fi
shapes=""; [ -n "${GRAD_SHAPES:-}" ] && shapes="--grad-shapes $GRAD_SHAPES"
for pairs in 1024 16384; do
  a="--metric softdtw --gradient --fp32 --lengths 128,1024 --pairs $pairs --repeats 5 $shapes"
  echo "\$ warplab-gpu-bench $a" | tee -a "$OUT/run.log"
  timeout 200 $B $a 2>&1 | cut -c1-400 | tee -a "$OUT/run.log"
done
if [ -z "${NO_PROFILE:-}" ]; then
  M=$NCU_METRICS
  for pairs in 1024 16384; do
    echo "### ncu, $pairs pairs of 1024 ${PROFILE_SHAPE:-}" | tee -a "$OUT/run.log"
    ps=""; [ -n "${PROFILE_SHAPE:-}" ] && ps="--grad-shapes $PROFILE_SHAPE"
    timeout 150 ncu --kernel-name regex:softDtw --launch-skip 2 --launch-count 2 --metrics "$M" \
      $B --metric softdtw --gradient --fp32 --lengths 1024 --pairs $pairs --repeats 1 $ps 2>&1 \
      | grep -vE "^==PROF==|^\s*$" | grep -E "softDtw|  [a-z]" | tee -a "$OUT/run.log"
  done
fi
echo "done after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
