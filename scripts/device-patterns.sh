#!/usr/bin/env bash
# Seizure pattern discovery at the published scale (issue 5), for the GPU machine:
# one channel of 150,995,456 samples at 256 Hz (589,823 epochs of 1024, stride 256) with
# seizures of 107,263 samples (415 patterns): 244,776,545 cdtw distances, band 16.
#
# Here, once (downloads the Debian packages the build needs into .device-debs/):
#   scripts/device-patterns.sh prepare
# On the device (the run tool, with carry [".device-debs"]), from the repository root:
#   scripts/device-patterns.sh
# Everything it measures goes to $OUT (or ./device-out): the build logs, the GPU run of the
# published workload, the CPU run of a subset on all cores, and a GPU-vs-CPU ranking check.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = prepare ]; then
  exec ../shared/tools/device-debs.sh \
    libtbb-dev libtbb12 libtbbmalloc2 libtbbbind-2-5 libhwloc15 \
    libedf-dev libedf1 libcli11-dev nlohmann-json3-dev \
    libhdf5-dev libhdf5-103-1 libhdf5-hl-100 libhdf5-cpp-103-1 libhdf5-hl-cpp-100 libsz2 libaec0 libaec-dev \
    ninja-build
fi

if [ -f .device-debs/activate ]; then
  # shellcheck disable=SC1091
  source .device-debs/activate
  export PATH="$PWD/.device-debs/root/usr/bin${PATH:+:$PATH}"
fi
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
build=${WARPLAB_BUILD_DIR:-build-device-patterns}
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)

{ nvidia-smi || true; lscpu || true; } > "$out/machine.txt" 2>&1

# The CLI only (no Qt on the device): compute, io, app/cli.
cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DWARPLAB_GUI=OFF -DWARPLAB_TESTS=OFF \
  -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90 > "$out/configure.log" 2>&1 \
  || { tail -40 "$out/configure.log"; exit 1; }
cmake --build "$build" --target warplab-cli -j "$(nproc)" > "$out/build.log" 2>&1 \
  || { tail -40 "$out/build.log"; exit 1; }
cli=$build/app/cli/warplab-cli

# 1. The published workload on the GPU (auto picks the GPU; the timing line names the kernel).
echo "== published workload, backend auto"
"$cli" patterns --synthetic published --backend auto --timing --top 20 --progress \
  > "$out/published_gpu.csv" 2> "$out/published_gpu.log" || { tail -5 "$out/published_gpu.log"; }
grep '^timing' "$out/published_gpu.log" || tail -5 "$out/published_gpu.log"

# 2. The CPU on all cores: the same 415 patterns against the first 16,384 epochs.
#    16,384 epochs of 1024 at stride 256 need (16384-1)*256+1024 = 4,195,072 samples.
echo "== CPU subset, 415 x 16384"
"$cli" patterns --synthetic 4195072 --backend cpu --timing --top 20 \
  > "$out/subset_cpu.csv" 2> "$out/subset_cpu.log" || true
grep '^timing' "$out/subset_cpu.log" || tail -5 "$out/subset_cpu.log"

# 3. The GPU on that subset: its ranking must equal the CPU's.
echo "== GPU subset, 415 x 16384"
"$cli" patterns --synthetic 4195072 --backend auto --timing --top 20 \
  > "$out/subset_gpu.csv" 2> "$out/subset_gpu.log" || true
grep '^timing' "$out/subset_gpu.log" || tail -5 "$out/subset_gpu.log"
if cmp -s "$out/subset_cpu.csv" "$out/subset_gpu.csv"; then
  echo "subset ranking: GPU == CPU" | tee "$out/subset_compare.txt"
else
  { echo "subset ranking differs (first lines):"; diff "$out/subset_cpu.csv" "$out/subset_gpu.csv" | head -20; } | tee "$out/subset_compare.txt"
fi
