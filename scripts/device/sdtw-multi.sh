#!/usr/bin/env bash
# One call on the two-GPU kind for the subsequence search over several GPUs: build, the
# multi-GPU checks (one query's stretches and a batch's queries split over {0,1} and {1,0}
# against one device, bit for bit), the sdtw checks, then `warplab-cli bench` of one query and
# of 16 in a 40-hour and a 160-hour channel (256 Hz) on GPU 0 and on both, alternating.
# Carry .device-debs and .device-data. Logs in $OUT.
#   [LIMIT=300] bash scripts/device/sdtw-multi.sh
source "$(dirname "$0")/common.sh"
{ date -u; nvidia-smi -L; nproc; } | tee "$OUT/run.log"
b=build-device-multi
device_configure $b "$OUT/cfg.log" -DWARPLAB_TEST_DATA="$PWD/.device-data"
cmake --build $b -j32 --target gpu_test_multi gpu_test_sdtw warplab-cli > "$OUT/build.log" 2>&1 \
  || { grep -B2 -A12 -E 'error|FAILED' "$OUT/build.log" | head -80; exit 1; }
echo "built after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
for t in multi sdtw; do
  timeout "${LIMIT:-300}" $b/tests/gpu/gpu_test_$t "$PWD/.device-data" > "$OUT/$t.log" 2>&1
  echo "gpu_test_$t exit $? ($(( $(date +%s) - T0 )) s)" | tee -a "$OUT/run.log"
  grep -E "FAIL|checks|sdtw 1 x 300" "$OUT/$t.log" | tail -12 | tee -a "$OUT/run.log"
done
C=$b/app/cli/warplab-cli
for ref in 36864000 147456000; do
  lengths=256,1024; [ $ref = 147456000 ] && lengths=256
  for dev in 0 0,1 0 0,1; do
    a="bench --metric sdtw --znorm --lengths $lengths --queries 1 --reference-length $ref --top 5 --repeats 3 --kernels cuda.sdtw --devices $dev"
    echo "\$ warplab-cli $a" | tee -a "$OUT/bench.log"
    timeout 200 $C $a 2>&1 | tee -a "$OUT/bench.log" | grep -E "^cuda" | cut -c1-400
  done
done
for dev in 0 0,1; do
  a="bench --metric sdtw --znorm --lengths 256 --queries 16 --reference-length 36864000 --top 5 --repeats 3 --kernels cuda.sdtw --devices $dev"
  echo "\$ warplab-cli $a" | tee -a "$OUT/bench.log"
  timeout 200 $C $a 2>&1 | tee -a "$OUT/bench.log" | grep -E "^cuda" | cut -c1-400
done
echo "done after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
