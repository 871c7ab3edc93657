#!/usr/bin/env bash
# What limits the fast kernels (issue 12): one launch each under Nsight Compute with the pipe
# utilisations, issue slots and stall reasons, plus a micro-benchmark of the min/FMA pipes
# (scripts/device/pipe_rates.cu). Carry .device-debs and .device-data. Logs in $OUT.
#   bash scripts/device/limits.sh
source "$(dirname "$0")/common.sh"
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader; } | tee "$OUT/run.log"
nvcc -O3 -arch=sm_90 -o /tmp/pipe_rates scripts/device/pipe_rates.cu 2>&1 | tail -5
timeout 60 /tmp/pipe_rates | tee "$OUT/pipe_rates.log"
cuobjdump -sass /tmp/pipe_rates | grep -oE "(VIMNMX3|VIMNMX|IMNMX|FMNMX3|FMNMX|VHMNMX|HMNMX2|FFMA|FADD|HFMA2)[.A-Z0-9_]*" | sort | uniq -c | tee -a "$OUT/pipe_rates.log"
b=${BUILD:-build-device-suite}
device_configure $b "$OUT/cfg.log" -DWARPLAB_TEST_DATA="$PWD/.device-data"
cmake --build $b -j16 --target warplab-gpu-bench > "$OUT/build.log" 2>&1 \
  || { grep -B2 -A12 -E 'error|FAILED' "$OUT/build.log" | head -80; exit 1; }
echo "built after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
B=$b/tests/gpu/warplab-gpu-bench
M="smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__warps_active.avg.per_cycle_active,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second"
M="$M,regex:sm__inst_executed_pipe_[a-z_]+\.avg\.pct_of_peak_sustained_active$,regex:sm__pipe_[a-z_]+_cycles_active\.avg\.pct_of_peak_sustained_active$"
M="$M,regex:smsp__average_warps_issue_stalled_[a-z_]+_per_issue_active\.ratio$"
prof() {  # label, kernel-name regex, bench arguments
  local l=$1 k=$2; shift 2
  echo "### $l: warplab-gpu-bench $*" | tee -a "$OUT/profile.log"
  timeout 120 ncu --kernel-name regex:"$k" --launch-skip 1 --launch-count 1 --metrics "$M" $B "$@" --repeats 1 2>&1 \
    | grep -vE "^==PROF==|^\s*$" | awk '$NF != "0" && $NF != "0.00"' | tail -45 | tee -a "$OUT/profile.log"
}
S="--metric sdtw --sdtw-queries 512 --sdtw-length 2000 --sdtw-reference 100000 --top 5 --sdtw-rows 32"
prof "sdtw fp32 lean pass, 32 rows" leanPassKernel $S
prof "sdtw half2 lean pass, 32 rows" leanPassKernel $S --half2
prof "dtw 1024 shuffle_dpx" waveKernel --metric dtw --kernels cuda.shuffle_dpx --lengths 1024 --pairs 65536
prof "cdtw w16 128 band_dpx" bandKernel --metric cdtw --band 16 --kernels cuda.band_dpx --lengths 128 --pairs 1048576
prof "softdtw grad fp32 forward" softDtwForwardKernel --metric softdtw --gradient --fp32 --lengths 1024 --pairs 1024
prof "softdtw grad fp32 backward" softDtwBackwardKernel --metric softdtw --gradient --fp32 --lengths 1024 --pairs 1024
echo "done after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
