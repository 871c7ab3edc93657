# Sourced by the one-call device scripts (suite-quick.sh, sdtw.sh, limits.sh, ab.sh): the
# repository root as the working directory, $OUT, the carried Debian packages (.device-debs)
# on the paths, T0 (the start), device_configure, unpack_tree and bench_rows.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
OUT=${OUT:-/tmp/warplab-out}
mkdir -p "$OUT"
source .device-debs/activate; export PATH="$PWD/.device-debs/root/usr/bin:$PATH"
T0=$(date +%s)

# device_configure DIR LOG [CMAKE ARGUMENTS...]: a Release build of the engine, the CLI and the
# GPU programs without Qt, HIP or MPI (what the GPU machine has), its log in LOG; stops the
# script with the log's end when CMake fails.
device_configure() {
  local dir=$1 log=$2
  shift 2
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPLAB_GUI=OFF -DWARPLAB_HIP=OFF -DWARPLAB_MPI=OFF \
    -DCMAKE_CUDA_COMPILER="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" \
    -DCMAKE_EXE_LINKER_FLAGS=-Wl,--allow-shlib-undefined "$@" > "$log" 2>&1 || { tail -20 "$log"; exit 1; }
}

# unpack_tree TGZ DIR: an earlier tree (a `git archive` tarball, carried) unpacked into a fresh DIR,
# with the carried packages linked in, for a base build beside the working tree.
unpack_tree() {
  rm -rf "$2" && mkdir -p "$2" && tar -xzf "$1" -C "$2" && ln -sfn "$PWD/.device-debs" "$2/.device-debs"
}

# bench_rows BIN LOG ARGS...: the result rows of one warplab-gpu-bench run (cut to WIDTH
# characters), printed and appended to LOG.
bench_rows() {
  local bin=$1 log=$2
  shift 2
  timeout ${BENCH_TIMEOUT:-120} "$bin" "$@" 2>&1 | grep -E "^(cuda|hip|cpu)" | cut -c1-${WIDTH:-130} | tee -a "$log"
}

# The Nsight Compute metrics of a kernel A/B (ab-variants.sh, softdtw-grad.sh): time, issue and
# occupancy, DRAM, registers, the busiest pipes, instructions, and the stall reasons per issue.
NCU_METRICS="gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.per_cycle_active"
NCU_METRICS="$NCU_METRICS,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,launch__occupancy_limit_registers"
NCU_METRICS="$NCU_METRICS,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active"
NCU_METRICS="$NCU_METRICS,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum"
NCU_METRICS="$NCU_METRICS,regex:smsp__average_warps_issue_stalled_(long_scoreboard|short_scoreboard|wait|barrier|math_pipe_throttle|lg_throttle|no_instruction|not_selected|dispatch_stall|mio_throttle)_per_issue_active\.ratio$"
