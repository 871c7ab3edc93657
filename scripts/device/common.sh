# shellcheck shell=bash
# Sourced by run.sh, the one entry for the GPU machine: the shared setup of every step, done
# once per call. The repository root becomes the working directory; $OUT (the device tool's
# folder that comes back, /tmp/warplab-out elsewhere) gets run.log (a line per result) and
# machine.txt; the Debian packages carried in .device-debs (`run.sh prepare` fetches them here
# with fetch-debs.sh) go on the paths; device_configure and device_build make
# the one build folder every step uses (no Qt, no HIP: what the GPU machine has). Test data is
# tests/data, the build's default.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
ROOT=$PWD
OUT=${OUT:-/tmp/warplab-out}
mkdir -p "$OUT"
T0=$(date +%s)
JOBS=$(nproc)
BUILD=${WARPLAB_BUILD_DIR:-build-device}
CLI=$ROOT/$BUILD/app/cli/warplab-cli

# What the GPU machine lacks for the engine, io/ and the CLI (EDFlib, TBB, HDF5, CLI11, JSON, fast_float, FFTW, Ninja).
DEVICE_DEBS="libtbb-dev libtbb12 libtbbmalloc2 libtbbbind-2-5 libhwloc15 libedf-dev libedf1 libcli11-dev
  nlohmann-json3-dev libfast-float-dev libhdf5-dev libhdf5-103-1 libhdf5-hl-100 libhdf5-cpp-103-1 libhdf5-hl-cpp-100 libsz2 libaec0
  libaec-dev ninja-build libfftw3-dev libfftw3-double3 libfftw3-single3 libfftw3-long3 libfftw3-quad3 libfftw3-bin"

if [ -f .device-debs/activate ]; then
  # shellcheck disable=SC1091
  source .device-debs/activate
  export PATH="$ROOT/.device-debs/root/usr/bin${PATH:+:$PATH}"
fi

elapsed() { echo $(( $(date +%s) - T0 )); }
# log TEXT: one line of the call's summary, with the seconds since its start.
log() { echo "[$(elapsed) s] $*" | tee -a "$OUT/run.log"; }

machine_info() {
  { date -u; nvidia-smi -L 2>&1; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader 2>&1
    lscpu 2>/dev/null | grep -E "Model name|^CPU\(s\)"; free -g 2>/dev/null | head -2
    nvcc --version 2>/dev/null | tail -1; g++ --version | head -1; cmake --version | head -1; } > "$OUT/machine.txt" 2>&1
}

# device_configure [CMAKE ARGUMENTS...]: configures $BUILD (Release, no Qt, HIP or MPI; later
# arguments override, e.g. -DWARPLAB_MPI=ON); stops the call with the log's end on failure.
# The shared HDF5 (WARPLAB_CLI_STATIC_HDF5=OFF): the unpacked debs here carry what the shared
# library needs at run time, not every archive a static link would pull in.
device_configure() {
  local gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  cmake -S . -B "$BUILD" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DWARPLAB_GUI=OFF -DWARPLAB_HIP=OFF -DWARPLAB_MPI=OFF -DWARPLAB_CLI_STATIC_HDF5=OFF \
    -DCMAKE_CUDA_COMPILER="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" \
    -DCMAKE_EXE_LINKER_FLAGS=-Wl,--allow-shlib-undefined "$@" > "$OUT/configure.log" 2>&1 \
    || { tail -30 "$OUT/configure.log"; exit 1; }
}

# device_build TARGET...: builds them in $BUILD (configured first if needed); the errors on failure.
device_build() {
  [ -f "$BUILD/CMakeCache.txt" ] || device_configure
  cmake --build "$BUILD" -j "$JOBS" --target "$@" >> "$OUT/build.log" 2>&1 \
    || { grep -B2 -A12 -E "error|FAILED" "$OUT/build.log" | head -80; exit 1; }
  log "built $* "
}

# gpu_test_targets: every GPU test program of the build (tests/gpu/test_gpu_*.cpp).
gpu_test_targets() {
  [ -f "$BUILD/CMakeCache.txt" ] || device_configure
  cmake --build "$BUILD" --target help | sed -n 's/^\(gpu_test_[a-z0-9_]*\):.*/\1/p' | sort -u
}

# run_gpu_test NAME [LIMIT]: tests/gpu's program gpu_test_NAME under a time limit (default
# $LIMIT or 300 s), its output in $OUT/test_NAME.log, its exit code and checks in run.log
# (77: skipped, e.g. the two-GPU parts on one GPU).
run_gpu_test() {
  local t=$1 limit=${2:-${LIMIT:-300}}
  timeout "$limit" "$BUILD/tests/gpu/gpu_test_$t" > "$OUT/test_$t.log" 2>&1
  log "gpu_test_$t exit $?"
  grep -E "FAIL|SKIP|checks" "$OUT/test_$t.log" | tail -5 | tee -a "$OUT/run.log"
}

# bench_rows BIN LOG ARGS...: the result rows (cuda|hip|cpu...) of one benchmark run, cut to
# $WIDTH characters, printed and appended to LOG; each run under $BENCH_TIMEOUT seconds.
bench_rows() {
  local bin=$1 log=$2
  shift 2
  timeout "${BENCH_TIMEOUT:-120}" "$bin" "$@" 2>&1 | grep -E "^(cuda|hip|cpu|device:)" | cut -c1-"${WIDTH:-130}" | tee -a "$log"
}

# wall_of CMD...: runs CMD, then prints its wall time on stderr.
wall_of() {
  local s
  s=$(date +%s.%N)
  "$@"
  local rc=$?
  echo "wall $(awk "BEGIN{print $(date +%s.%N) - $s}") s rc=$rc" >&2
  return $rc
}

# The Nsight Compute metrics of a kernel A/B: time, issue and occupancy, DRAM, registers, the
# busiest pipes, instructions, and the stall reasons per issue.
NCU_METRICS="gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.per_cycle_active"
NCU_METRICS="$NCU_METRICS,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,launch__occupancy_limit_registers"
NCU_METRICS="$NCU_METRICS,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active"
NCU_METRICS="$NCU_METRICS,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum"
NCU_METRICS="$NCU_METRICS,regex:smsp__average_warps_issue_stalled_(long_scoreboard|short_scoreboard|wait|barrier|math_pipe_throttle|lg_throttle|no_instruction|not_selected|dispatch_stall|mio_throttle)_per_issue_active\.ratio$"
# What limits a kernel: every pipe's use, issue slots and every stall reason (run.sh limits).
LIMIT_METRICS="smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__warps_active.avg.per_cycle_active,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second"
LIMIT_METRICS="$LIMIT_METRICS,regex:sm__inst_executed_pipe_[a-z_]+\.avg\.pct_of_peak_sustained_active$,regex:sm__pipe_[a-z_]+_cycles_active\.avg\.pct_of_peak_sustained_active$"
LIMIT_METRICS="$LIMIT_METRICS,regex:smsp__average_warps_issue_stalled_[a-z_]+_per_issue_active\.ratio$"
