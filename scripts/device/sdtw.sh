#!/usr/bin/env bash
# One device call for the GPU subsequence search: build, gpu_test_sdtw, the benchmark at each
# segment width (rows per lane) in fp32 and half2 with the CPU row, then what limits the lean
# pass (Nsight Compute) and its SASS loop mix. Carry .device-debs and .device-data. Logs in $OUT.
#   [ROWS=0,2,4,8,16,32] [HALF2_ROWS=...] [COLS=0,2,4] [ZNORM2K=1] [CPU=--cpu] [NO_PROFILE=1] bash scripts/device/sdtw.sh
# COLS: columns per step of the pass (each width with each).
source "$(dirname "$0")/common.sh"
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader; nproc; } | tee "$OUT/run.log"
b=build-device-sdtw
device_configure $b "$OUT/cfg.log" -DWARPLAB_TEST_DATA="$PWD/.device-data"
cmake --build $b -j16 --target gpu_test_sdtw warplab-gpu-bench > "$OUT/build.log" 2>&1 \
  || { grep -B2 -A12 -E 'error|FAILED' "$OUT/build.log" | head -80; exit 1; }
echo "built after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
timeout 300 $b/tests/gpu/gpu_test_sdtw "$PWD/.device-data" > "$OUT/test.log" 2>&1; echo "gpu_test_sdtw exit $?" | tee -a "$OUT/run.log"
grep -E "FAIL|checks|differ" "$OUT/test.log" | head -30 | tee -a "$OUT/run.log"
B=$b/tests/gpu/warplab-gpu-bench
S="--metric sdtw --sdtw-queries 512 --sdtw-length 2000 --sdtw-reference 100000 --top 5"
# ROWS: the segment widths of the fp32 rows (and HALF2_ROWS of the half2 ones); ZNORM2K=1 adds
# the two-kernel z-normaliser's row.
for h in "" --half2; do
  rows=${ROWS:-0,2,4,8,16,32}; [ -n "$h" ] && rows=${HALF2_ROWS:-$rows}
  extra=""; [ -z "$h" ] && [ -n "${ZNORM2K:-}" ] && extra=--sdtw-two-kernel-znorm
  echo "\$ warplab-gpu-bench $S --repeats 5 --sdtw-rows $rows --sdtw-cols ${COLS:-0} $h $extra ${CPU:-}" | tee -a "$OUT/bench.log"
  timeout 240 $B $S --repeats 5 --sdtw-rows $rows --sdtw-cols ${COLS:-0} $h $extra ${CPU:-} 2>&1 | tee -a "$OUT/bench.log" | cut -c1-700
done
if [ -z "${NO_PROFILE:-}" ]; then
  timeout 150 ncu --kernel-name regex:leanPassKernel --launch-skip 1 --launch-count 1 --metrics \
    gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warp_latency_issue_stalled_barrier,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio \
    $B $S --repeats 1 --sdtw-rows 16 2>&1 | grep -vE "^==PROF==|^\s*$" | tail -16 | tee -a "$OUT/run.log"
  # The SASS of the lean pass (fp32 and half2, 16 rows, squared) for reading off-line.
  for pat in leanPassKernelINS2_5F32OpELi16ELb0E leanPassKernelINS2_4H2OpELi16ELb0E; do
    cuobjdump -sass $b/compute/gpu/libwarplab_gpu.a 2>/dev/null | awk -v pat="$pat" '/Function :/ {on = index($0, pat) > 0} on' > "$OUT/$pat.sass"
  done
fi
echo "done after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
