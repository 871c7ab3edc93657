#!/usr/bin/env bash
# One call on the GPU machine for issue 11's window search: build the GPU window test and
# warplab-window-bench, run the test (GPU == cpu.reference), then time the GPU (1e9-sample
# random walk generated there, k = 10; 1e6; EEG repeated to 1e7; band-limited noise 1e7) and
# the CPU path on the same 1e7 references. Logs to $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/warplab-out}
mkdir -p "$OUT"
build=build-device
source .device-debs/activate
{ date -u; nvidia-smi -L; nproc; } >"$OUT/build.log" 2>&1
nvcc_path=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPLAB_GUI=OFF -DWARPLAB_HIP=OFF \
  -DCMAKE_CUDA_COMPILER="$nvcc_path" -DWARPLAB_TEST_DATA="$PWD/.device-data" \
  -DCMAKE_EXE_LINKER_FLAGS=-Wl,--allow-shlib-undefined >>"$OUT/build.log" 2>&1 || { echo "configure FAILED"; tail -30 "$OUT/build.log"; exit 1; }
time cmake --build $build -j16 --target gpu_test_window warplab-window-bench >>"$OUT/build.log" 2>&1 \
  || { echo "build FAILED"; grep -B2 -A12 -E "error|FAILED" "$OUT/build.log" | head -60; exit 1; }
echo "### gpu_test_window" | tee "$OUT/gpu-window-tests.log"
timeout 200 $build/tests/gpu/gpu_test_window 2>&1 | tee -a "$OUT/gpu-window-tests.log"
echo "exit code ${PIPESTATUS[0]}" | tee -a "$OUT/gpu-window-tests.log"
B=$build/compute/warplab-window-bench
EEG=resources/sample/chb01_03_sample.edf
{
  echo "### $B --walk 1000000000 --top 10 --backend cuda"
  timeout 150 $B --walk 1000000000 --top 10 --backend cuda --repeats 3
  echo "### $B --walk 1000000 --top 1 --backend cuda"
  timeout 30 $B --walk 1000000 --top 1 --backend cuda --repeats 3
  for be in cuda cpu; do
    echo "### $B --eeg $EEG --signal 0 --repeat-to 10000000 --top 10 --backend $be"
    timeout 60 $B --eeg $EEG --signal 0 --repeat-to 10000000 --top 10 --backend $be --repeats 2
    echo "### $B --noise 10000000 --top 10 --backend $be"
    timeout 60 $B --noise 10000000 --top 10 --backend $be --repeats 2
    echo "### $B --walk 10000000 --top 10 --backend $be"
    timeout 60 $B --walk 10000000 --top 10 --backend $be --repeats 2
  done
} 2>&1 | tee "$OUT/gpu-window-bench.log"
