#!/usr/bin/env bash
# The whole GPU suite in one device call, quickest programs first, each under a time limit
# (TESTS="window sdtw ..." picks some). Carry .device-debs and .device-data. BENCHES
# (';'-separated warplab-gpu-bench argument lists) run first, on the same build. $OUT keeps
# run.log and suite-logs.tgz (every other log): a call brings back at most 8 files.
#   [BENCHES="--metric ...;--metric ..."] bash scripts/device/suite-quick.sh
source "$(dirname "$0")/common.sh"
{ date -u; nvidia-smi -L; nproc; } > "$OUT/run.log" 2>&1
device_configure build-device-suite "$OUT/cfg.log" -DWARPLAB_TEST_DATA="$PWD/.device-data"
tests=${TESTS:-"window sdtw patterns shuffle softdtw streams tiled softdtw_designs energy multi kernels"}
targets=""; for t in $tests; do targets="$targets gpu_test_$t"; done
cmake --build build-device-suite -j16 --target $targets warplab-gpu-bench > "$OUT/build.log" 2>&1 \
  || { grep -B2 -A10 -E 'error|FAILED' "$OUT/build.log" | head -60; exit 1; }
echo "built after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
IFS=';' read -ra benches <<< "${BENCHES:-}"
for args in "${benches[@]}"; do
  echo "\$ warplab-gpu-bench $args" | tee -a "$OUT/run.log"
  bench_rows build-device-suite/tests/gpu/warplab-gpu-bench "$OUT/run.log" $args
done
for t in $tests; do
  echo "### gpu_test_$t (start $(( $(date +%s) - T0 )) s)" | tee -a "$OUT/run.log"
  timeout "${LIMIT:-330}" build-device-suite/tests/gpu/gpu_test_$t "$PWD/.device-data" > "$OUT/$t.log" 2>&1
  echo "exit $?" | tee -a "$OUT/$t.log" "$OUT/run.log"
  grep -E 'FAIL|SKIP|checks' "$OUT/$t.log" | tail -5 | tee -a "$OUT/run.log"
done
(cd build-device-suite && ctest -R "_registered$" 2>&1 | tail -3) | tee -a "$OUT/run.log"
echo "done after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
(cd "$OUT" && logs=$(ls *.log | grep -v '^run.log$') && tar -czf suite-logs.tgz $logs && rm -f $logs)
