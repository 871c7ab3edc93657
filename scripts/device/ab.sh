#!/usr/bin/env bash
# A/B of a compile-time variant against the tree as it is, in one device call: builds
# warplab-gpu-bench twice (B: with VARIANT_FLAGS added to the CUDA flags), then runs each line of
# BENCHES (';'-separated warplab-gpu-bench argument lists) on A, B, A, B. Carry .device-debs.
#   VARIANT_FLAGS="-DWL_WAVE_STEPS=4" BENCHES="--metric dtw --kernels cuda.shuffle_dpx --lengths 1024" bash scripts/device/ab.sh
source "$(dirname "$0")/common.sh"
{ date -u; nvidia-smi -L; echo "B = A + ${VARIANT_FLAGS}"; } | tee "$OUT/ab.log"
for v in A B; do
  flags=""; [ $v = B ] && flags="$VARIANT_FLAGS"
  device_configure build-ab-$v "$OUT/cfg-$v.log" -DCMAKE_CUDA_FLAGS="$flags"
  cmake --build build-ab-$v -j16 --target warplab-gpu-bench ${EXTRA_TARGETS:-} > "$OUT/build-$v.log" 2>&1 \
    || { grep -B2 -A12 -E 'error|FAILED' "$OUT/build-$v.log" | head -60; exit 1; }
  echo "built $v after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/ab.log"
done
IFS=';' read -ra lines <<< "$BENCHES"
for args in "${lines[@]}"; do
  for v in A B A B; do
    echo "## $v: warplab-gpu-bench $args" | tee -a "$OUT/ab.log"
    bench_rows build-ab-$v/tests/gpu/warplab-gpu-bench "$OUT/ab.log" $args
  done
done
echo "done after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/ab.log"
