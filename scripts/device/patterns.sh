#!/usr/bin/env bash
# Seizure pattern discovery at the published scale (issue 5), for the GPU machine:
# one channel of 150,995,456 samples at 256 Hz (589,823 epochs of 1024, stride 256) with
# seizures of 107,263 samples (415 patterns): 244,776,545 cdtw distances, band 16.
#
# Here, once (downloads the Debian packages the build needs into .device-debs/):
#   scripts/device/patterns.sh prepare
# On the device (the run tool, with carry [".device-debs"]), from the repository root:
#   scripts/device/patterns.sh [build|published|subset|all]     (default: all)
# Everything it measures goes to $OUT (or ./device-out): the build logs, the GPU run of the
# published workload, the CPU run of a subset on all cores, and a GPU-vs-CPU ranking check.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ "${1:-}" = prepare ]; then
  exec ../shared/tools/device-debs.sh \
    libtbb-dev libtbb12 libtbbmalloc2 libtbbbind-2-5 libhwloc15 \
    libedf-dev libedf1 libcli11-dev nlohmann-json3-dev \
    libhdf5-dev libhdf5-103-1 libhdf5-hl-100 libhdf5-cpp-103-1 libhdf5-hl-cpp-100 libsz2 libaec0 libaec-dev \
    ninja-build
fi

what=${1:-all}   # build | published | subset | all
if [ -f .device-debs/activate ]; then
  # shellcheck disable=SC1091
  source .device-debs/activate
  export PATH="$PWD/.device-debs/root/usr/bin${PATH:+:$PATH}"
fi
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
# The same build directory and flags as scripts/device/gpu.sh, so that one device session can
# run both scripts without building twice.
build=${WARPLAB_BUILD_DIR:-build-device}
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)

{ date -u; nvidia-smi -L || true; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv || true
  lscpu | grep -E "Model name|^CPU\(s\)" || true; nproc; } > "$out/machine.txt" 2>&1
cat "$out/machine.txt"

# The CLI only (no Qt on the device): compute, io, app/cli.
cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DWARPLAB_GUI=OFF -DWARPLAB_HIP=OFF \
  -DCMAKE_CUDA_COMPILER="$nvcc" -DWARPLAB_TEST_DATA="$PWD/.device-data" \
  -DCMAKE_EXE_LINKER_FLAGS=-Wl,--allow-shlib-undefined > "$out/configure.log" 2>&1 \
  || { tail -40 "$out/configure.log"; exit 1; }
cmake --build "$build" --target warplab-cli -j "$(nproc)" > "$out/build.log" 2>&1 \
  || { grep -B2 -A12 -E "error|FAILED" "$out/build.log" | head -60; exit 1; }
cli=$build/app/cli/warplab-cli
[ "$what" = build ] && exit 0

if [ "$what" = published ] || [ "$what" = all ]; then
# 1. The published workload on the GPU (auto picks the GPU; the timing line names the kernel).
echo "== published workload, backend auto"
timeout 500 "$cli" patterns --synthetic published --backend auto --timing --top 20 --progress \
  > "$out/published_gpu.csv" 2> "$out/published_gpu.log" || { tail -5 "$out/published_gpu.log"; }
grep '^timing' "$out/published_gpu.log" || tail -5 "$out/published_gpu.log"
head -6 "$out/published_gpu.csv"
fi
[ "$what" = published ] && exit 0

# 2. The CPU on all cores: the same 415 patterns against 65,536 epochs
#    (65,536 epochs of 1024 at stride 256 need (65536-1)*256+1024 = 16,777,984 samples).
echo "== CPU subset, 415 x 65536"
"$cli" patterns --synthetic 16777984 --backend cpu --timing --top 0 \
  > "$out/subset_cpu.csv" 2> "$out/subset_cpu.log" || true
grep '^timing' "$out/subset_cpu.log" || tail -5 "$out/subset_cpu.log"

# 3. The GPU on that subset: its ranking should equal the CPU's.
echo "== GPU subset, 415 x 65536"
"$cli" patterns --synthetic 16777984 --backend auto --timing --top 0 \
  > "$out/subset_gpu.csv" 2> "$out/subset_gpu.log" || true
grep '^timing' "$out/subset_gpu.log" || tail -5 "$out/subset_gpu.log"
if cmp -s "$out/subset_cpu.csv" "$out/subset_gpu.csv"; then
  echo "subset ranking: GPU == CPU" | tee "$out/subset_compare.txt"
else
  { echo "subset ranking differs (first lines):"; diff "$out/subset_cpu.csv" "$out/subset_gpu.csv" | head -20; } | tee "$out/subset_compare.txt"
fi

# 4. The bundled real sample (CHB-MIT chb01_03, FP1-F7, seizure 42-82 s), whose qualities are
#    far from 0 and 1, so that the comparison is not decided by ties: CPU vs GPU, every pattern.
for b in cpu auto; do
  "$cli" patterns --recording resources/sample/chb01_03_sample.edf --annotation seizure --backend $b --timing \
    > "$out/sample_$b.csv" 2> "$out/sample_$b.log" || tail -3 "$out/sample_$b.log"
done
if cmp -s "$out/sample_cpu.csv" "$out/sample_auto.csv"; then
  echo "sample ranking: GPU == CPU" | tee -a "$out/subset_compare.txt"
else
  { echo "sample ranking differs:"; diff "$out/sample_cpu.csv" "$out/sample_auto.csv" | head -20; } | tee -a "$out/subset_compare.txt"
fi
