#!/usr/bin/env bash
# The published pattern workload from EDF files on disk (issue 10), for the GPU machine:
# a generated study of 42 EDF+ files (23 channels, 256 Hz, 163.9 h, about 6.9 GB, written by
# warplab-make-study with a chb99-summary.txt placing 7 seizures of 436 s, one per file), then
# warplab-study-patterns does what `warplab-cli patterns --study` does: io::Study::open on the
# summary, io::studyPatternRequest for channel FP1-F7 (one segment per recording: 589,823 epochs
# of 1024 at stride 256, none across a file end; 415 patterns, each from its own recording's
# seizure) and compute::findPatterns. It ranks them: GPU with device epochs (three runs), GPU with host-packed epochs (the older path,
# its ranking compared exactly), and the CPU on a subset (the 7 files with seizures: 415 x
# 98,287) next to the GPU on the same subset.
# On the device (run tool, carry [".device-debs"]), from the repository root:
#   scripts/device/study-patterns.sh [build|test|bench|all]   (default: all)
# Logs go to $OUT (or ./device-out). The study goes to $WARPLAB_STUDY_DIR (default
# /tmp/warplab-study), never to $OUT.
set -euo pipefail
cd "$(dirname "$0")/../.."
what=${1:-all}
if [ -f .device-debs/activate ]; then
  # shellcheck disable=SC1091
  source .device-debs/activate
  export PATH="$PWD/.device-debs/root/usr/bin${PATH:+:$PATH}"
fi
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
build=${WARPLAB_BUILD_DIR:-build-device}
study=${WARPLAB_STUDY_DIR:-/tmp/warplab-study}
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)

{ date -u; nvidia-smi -L || true; lscpu | grep -E "Model name|^CPU\(s\)" || true; free -g | head -2; } > "$out/machine.txt" 2>&1
cat "$out/machine.txt"

cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DWARPLAB_GUI=OFF -DWARPLAB_HIP=OFF \
  -DCMAKE_CUDA_COMPILER="$nvcc" -DWARPLAB_TEST_DATA="$PWD/.device-data" \
  -DCMAKE_EXE_LINKER_FLAGS=-Wl,--allow-shlib-undefined > "$out/configure.log" 2>&1 \
  || { tail -40 "$out/configure.log"; exit 1; }
t=$(date +%s)
cmake --build "$build" --target gpu_test_patterns gpu_test_multi warplab-make-study warplab-study-patterns -j "$(nproc)" \
  > "$out/build.log" 2>&1 || { grep -B2 -A12 -E "error|FAILED" "$out/build.log" | head -60; exit 1; }
echo "build: $(( $(date +%s) - t )) s"
[ "$what" = build ] && exit 0

if [ "$what" = test ] || [ "$what" = all ]; then
  echo "== GPU pattern tests"
  "$build/tests/gpu/gpu_test_patterns" > "$out/gpu_test_patterns.log" 2>&1 || true
  grep -E "^FAIL|checks" "$out/gpu_test_patterns.log" || tail -5 "$out/gpu_test_patterns.log"
  echo "== GPU multi tests (2-GPU parts skip on one GPU)"
  rc=0; "$build/tests/gpu/gpu_test_multi" > "$out/gpu_test_multi.log" 2>&1 || rc=$?
  echo "gpu_test_multi exit $rc (77: its 2-GPU part skipped)"
  grep -E "^FAIL|checks|SKIP" "$out/gpu_test_multi.log" | head -5 || tail -5 "$out/gpu_test_multi.log"
fi
[ "$what" = test ] && exit 0

echo "== generating the study in $study"
rm -rf "$study"
/usr/bin/time -f "make-study: %e s wall, %M KiB peak" "$build/io/warplab-make-study" "$study" 2>&1 | tee "$out/make_study.log"
du -sh "$study" | tee -a "$out/make_study.log"
sp="$build/io/warplab-study-patterns"
sum="$study/chb99-summary.txt"

echo "== GPU, device epochs, whole study (3 runs)"
for k in 1 2 3; do
  "$sp" "$sum" --backend auto --csv "$out/study_gpu_$k.csv" > "$out/study_gpu_$k.log" 2>&1 || tail -3 "$out/study_gpu_$k.log"
  grep '^timing' "$out/study_gpu_$k.log" || true
done
head -6 "$out/study_gpu_1.log" | grep '^rank' || true
echo "== GPU, host-packed epochs (older path), whole study"
"$sp" "$sum" --backend auto --host-epochs --csv "$out/study_gpu_host.csv" > "$out/study_gpu_host.log" 2>&1 || tail -3 "$out/study_gpu_host.log"
grep '^timing' "$out/study_gpu_host.log" || true
if cmp -s "$out/study_gpu_1.csv" "$out/study_gpu_host.csv"; then echo "whole study: device epochs == host epochs (every pattern, exact)"
else echo "whole study: rankings DIFFER"; diff "$out/study_gpu_1.csv" "$out/study_gpu_host.csv" | head -10; fi | tee "$out/compare.txt"

# A ranking kept from an earlier run (e.g. before a change to the ranking code), compared exactly.
if [ -f .device-data/study_gpu_prev.csv ]; then
  if cmp -s "$out/study_gpu_1.csv" .device-data/study_gpu_prev.csv; then echo "whole study: == the earlier run's ranking (exact)"
  else echo "whole study: DIFFERS from the earlier run's ranking"; diff "$out/study_gpu_1.csv" .device-data/study_gpu_prev.csv | head -10; fi | tee -a "$out/compare.txt"
fi

echo "== subset: files 3,9,...,39 (all seizures), CPU and GPU"
"$sp" "$sum" --pick 3:6 --backend cpu --csv "$out/subset_cpu.csv" > "$out/subset_cpu.log" 2>&1 || tail -3 "$out/subset_cpu.log"
grep '^timing' "$out/subset_cpu.log" || true
"$sp" "$sum" --pick 3:6 --backend auto --csv "$out/subset_gpu.csv" > "$out/subset_gpu.log" 2>&1 || tail -3 "$out/subset_gpu.log"
grep '^timing' "$out/subset_gpu.log" || true
# cpu.simd and the GPU both accumulate in fp32, in different orders: compare the ranking
# order and the qualities (column 2, 3), then the distances loosely.
if cmp -s <(cut -d, -f1-3 "$out/subset_cpu.csv") <(cut -d, -f1-3 "$out/subset_gpu.csv"); then
  echo "subset: GPU ranking == CPU ranking (order and qualities)"
else echo "subset: rankings differ (first lines):"; diff <(cut -d, -f1-3 "$out/subset_cpu.csv") <(cut -d, -f1-3 "$out/subset_gpu.csv") | head -10; fi | tee -a "$out/compare.txt"
rm -rf "$study"
