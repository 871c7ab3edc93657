#!/usr/bin/env bash
# One call on the GPU machine (the `device` tool): build the engine and the GPU suite, run the
# suite, then time the GPU kernels and the CPU path on the same work. Logs go to $OUT.
#   [BENCH_SET=full|shuffle|new|softdtw|sdtw|streams|cutimewarp] [SKIP_CLI=1] scripts/device/gpu.sh [tests|bench|profile|all]   (default: all)
# BENCH_SET=cutimewarp times cuTimeWarp's soft-DTW designs (cuda.softdtw.*) beside WarpLab's own.
# BENCH_SET=tiled times cuda.tiled on 1e5 / 1e6-sample pairs (dtw, cdtw, softdtw, twed), cuda.antidiagonal at 1e5.
# BENCH_SET=sdtw times the subsequence search (fp32 and half2; 100,000 and 1,000,000 references).
# BENCH_SET=softdtw times the soft-DTW forward (cuda.shuffle) and the fp32/fp64 gradient batches.
# BENCH_SET=streams times the engine path (tiles on 3 lanes against 1; the pattern shape).
# BENCH_SET=new times only the band cdtw and TWED kernels (with cuda.shuffle and the CPU on the
# same work); SKIP_CLI=1 does not build warplab-cli (saves device time).
# Needs, carried next to the working tree: .device-debs (Debian packages the machine lacks,
# made by ../shared/tools/device-debs.sh) and .device-data (ECG200 for the suite).
set -uo pipefail
cd "$(dirname "$0")/../.."
what=${1:-all}   # tests | bench | profile | all (tests + bench)
OUT=${OUT:-/tmp/warplab-out}
mkdir -p "$OUT"
build=build-device
log() { echo "== $*" | tee -a "$OUT/build.log"; }

source .device-debs/activate
{
  date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv
  nvcc --version | tail -2; g++ --version | head -1; cmake --version | head -1; nproc
} >"$OUT/build.log" 2>&1
cat "$OUT/build.log"

log configure
nvcc_path=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPLAB_GUI=OFF -DWARPLAB_HIP=OFF \
  -DCMAKE_CUDA_COMPILER="$nvcc_path" -DWARPLAB_TEST_DATA="$PWD/.device-data" \
  -DCMAKE_EXE_LINKER_FLAGS=-Wl,--allow-shlib-undefined >>"$OUT/build.log" 2>&1 || { log "configure FAILED"; tail -40 "$OUT/build.log"; exit 1; }
log build
gpu_tests=$(cmake --build $build --target help | sed -n 's/^\(gpu_test_[a-z0-9_]*\):.*/\1/p' | sort -u)
time cmake --build $build -j16 --target $gpu_tests warplab-gpu-bench >>"$OUT/build.log" 2>&1 \
  || { log "build FAILED"; grep -B2 -A12 -E "error|FAILED" "$OUT/build.log" | head -80; exit 1; }
# warplab-cli needs io (HDF5 and its runtime libraries); best effort here.
if [ -z "${SKIP_CLI:-}" ]; then
  cmake --build $build -j16 --target warplab-cli >>"$OUT/build.log" 2>&1 && log "warplab-cli built" || log "warplab-cli did not build (see build.log)"
fi

if [ "$what" = tests ] || [ "$what" = all ]; then
  log "GPU suite"
  : >"$OUT/gpu-tests.log"
  for t in $gpu_tests; do
    echo "### $t" | tee -a "$OUT/gpu-tests.log"
    timeout 300 $build/tests/gpu/$t "$PWD/.device-data" 2>&1 | tee -a "$OUT/gpu-tests.log"
    echo "exit code ${PIPESTATUS[0]}" | tee -a "$OUT/gpu-tests.log"
  done
  (cd $build && timeout 300 ctest -R "_registered$" --output-on-failure 2>&1 | tail -5) | tee -a "$OUT/gpu-tests.log"
fi

if [ "$what" = profile ] || [ "$what" = all ]; then
  # What limits the kernels: one launch of each under Nsight Compute, and the SASS mix.
  log "profile"
  B=$build/tests/gpu/warplab-gpu-bench
  : >"$OUT/profile.log"
  prof() {  # kernel-name regex, then the bench arguments
    local k=$1; shift
    echo "### $k: warplab-gpu-bench $*" >>"$OUT/profile.log"
    timeout 120 ncu --kernel-name regex:$k --launch-skip 1 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
      $B "$@" --repeats 1 >>"$OUT/profile.log" 2>&1 || echo "ncu failed" >>"$OUT/profile.log"
  }
  if [ "${BENCH_SET:-full}" = softdtw ]; then
    prof shuffleKernel --metric softdtw --kernels cuda.shuffle --lengths 1024 --pairs 65536
    prof softDtwForwardKernel --metric softdtw --gradient --fp32 --lengths 1024 --pairs 1024
    prof softDtwBackwardKernel --metric softdtw --gradient --fp32 --lengths 1024 --pairs 1024
    # Instruction mix (whole function bodies): shuffle soft-DTW (R=32, G=32, squared), fp32 forward and backward (16 rows per lane).
    for pat in shuffleKernelILi32ELi32ELb0ELb0ELi1ELb1E softDtwForwardKernelILi16ELb0E softDtwBackwardKernelILi16ELb0E; do
      cuobjdump -sass $build/compute/gpu/libwarplab_gpu.a 2>/dev/null | awk -v pat="$pat" '
        /Function :/ {on = index($0, pat) > 0; next}
        on && match($0, /\/\*[0-9a-f]+\*\/[ \t]+(@!?U?P[0-9T][ \t]+)?[A-Z][A-Z0-9]*/) {
          n = split(substr($0, RSTART, RLENGTH), a, /[ \t]+/); c[a[n]]++; tot++ }
        END { print tot, "ALL (" pat ")"; for (k in c) print c[k], k }' | sort -rn | head -16 >>"$OUT/profile.log"
      cuobjdump -sass $build/compute/gpu/libwarplab_gpu.a 2>/dev/null | awk -v pat="$pat" '
        /Function :/ {on = index($0, pat) > 0; next}
        on && /MUFU/ { split($0, a, "MUFU"); split(a[2], b, " "); c["MUFU" b[1]]++ }
        END { for (k in c) print c[k], k, "(" pat ")" }' >>"$OUT/profile.log"
    done
  elif [ "${BENCH_SET:-full}" = sdtw ]; then
    # The fp32 pass of a timed run (launches: warm-up pass, warm-up windows, then this one).
    echo "### stripeKernel (fp32 pass): warplab-gpu-bench --metric sdtw 512 x 2000 in 100000" >>"$OUT/profile.log"
    timeout 120 ncu --kernel-name regex:stripeKernel --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
      $B --metric sdtw --sdtw-queries 512 --sdtw-length 2000 --sdtw-reference 100000 --top 5 --repeats 1 >>"$OUT/profile.log" 2>&1 || echo "ncu failed" >>"$OUT/profile.log"
    # Instruction mix (whole bodies) of the fp32 pass, the half2 pass (16 rows, squared) and the window pass.
    for pat in 5F32OpELi16ELb0ELb0E 4H2OpELi16ELb0ELb0E 5F32OpELi16ELb0ELb1E; do
      cuobjdump -sass $build/compute/gpu/libwarplab_gpu.a 2>/dev/null | awk -v pat="stripeKernelINS2_$pat" '
        /Function :/ {on = index($0, pat) > 0; next}
        on && match($0, /\/\*[0-9a-f]+\*\/[ \t]+(@!?U?P[0-9T][ \t]+)?[A-Z][A-Z0-9]*/) {
          n = split(substr($0, RSTART, RLENGTH), a, /[ \t]+/); c[a[n]]++; tot++ }
        END { print tot, "ALL (" pat ")"; for (k in c) print c[k], k }' | sort -rn | head -20 >>"$OUT/profile.log"
    done
  elif [ "${BENCH_SET:-full}" = tiled ]; then
    # One launch from the middle of the 391 tile diagonals of a 100,000 x 100,000 pair (the widest
    # diagonal: 196 tiles), then the instruction mix of the dtw kernel (squared cost, whole body).
    echo "### tiledKernel (diagonal 196 of 391): warplab-gpu-bench --metric dtw --kernels cuda.tiled --lengths 100000 --pairs 1" >>"$OUT/profile.log"
    timeout 120 ncu --kernel-name regex:tiledKernel --launch-skip 196 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
      $B --metric dtw --kernels cuda.tiled --lengths 100000 --pairs 1 --repeats 1 >>"$OUT/profile.log" 2>&1 || echo "ncu failed" >>"$OUT/profile.log"
    cuobjdump -sass $build/compute/gpu/libwarplab_gpu.a 2>/dev/null | awk -v pat="tiledKernelILi0ELb0E" '
      /Function :/ {on = index($0, pat) > 0; next}
      on && match($0, /\/\*[0-9a-f]+\*\/[ \t]+(@!?U?P[0-9T][ \t]+)?[A-Z][A-Z0-9]*/) {
        n = split(substr($0, RSTART, RLENGTH), a, /[ \t]+/); c[a[n]]++; tot++ }
      END { print tot, "ALL (tiled dtw, squared)"; for (k in c) print c[k], k }' | sort -rn | head -25 >>"$OUT/profile.log"
  elif [ "${BENCH_SET:-full}" = streams ]; then
    # Whether tiles overlap: a timeline of the pattern-shaped engine run (3 lanes), if nsys exists.
    if command -v nsys >/dev/null; then
      timeout 120 nsys profile -o "$OUT/streams" --force-overwrite true -t cuda $B --metric cdtw --band 16 --kernels cuda.band_dpx \
        --lengths 1024 --engine-rows 415 --engine-cols 16384 --lanes 3 --repeats 1 >>"$OUT/profile.log" 2>&1 \
        && nsys stats -q --report cuda_gpu_trace --format csv "$OUT/streams.nsys-rep" >"$OUT/streams-trace.csv" 2>>"$OUT/profile.log" \
        || echo "nsys failed" >>"$OUT/profile.log"
      rm -f "$OUT/streams.nsys-rep" "$OUT/streams.sqlite"
    else
      echo "no nsys on this machine: no timeline" >>"$OUT/profile.log"
    fi
  elif [ "${BENCH_SET:-full}" = new ]; then
    prof bandKernel --metric cdtw --band 16 --kernels cuda.band --lengths 1024 --pairs 1048576
    prof twedWarpKernel --metric twed --kernels cuda.twed --lengths 1024 --pairs 65536
    prof bandKernel --metric cdtw --band 16 --kernels cuda.band_dpx --lengths 1024 --pairs 1048576
    # Instruction mix of the band kernel for W = 16, squared cost, fminf (Lb0E) and DPX (Lb1E):
    # its whole body (the 8-row chunk of the main loop, the tail chunk and the set-up).
    for v in 0 1; do
      cuobjdump -sass $build/compute/gpu/libwarplab_gpu.a 2>/dev/null | awk -v pat="bandKernelILi16ELb0ELb${v}E" '
        /Function :/ {on = index($0, pat) > 0; next}
        on && match($0, /\/\*[0-9a-f]+\*\/[ \t]+(@!?U?P[0-9T][ \t]+)?[A-Z][A-Z0-9]*/) {
          n = split(substr($0, RSTART, RLENGTH), a, /[ \t]+/); c[a[n]]++; tot++ }
        END { print tot, "ALL (band W=16, squared, dpx=" pat ")"; for (k in c) print c[k], k }' | sort -rn | head -25 >>"$OUT/profile.log"
    done
  elif [ "${BENCH_SET:-full}" = shuffle ]; then
    # The wavefront full-DTW kernel (shuffle_dpx.h) at both lengths, and the SASS of its steady
    # state (R = 32 rows, S = 2 columns: 64 cells per iteration) for G = 32 and G = 4, squared
    # cost, DPX (Lb1E) and fminf (Lb0E).
    prof waveKernel --metric dtw --kernels cuda.shuffle_dpx --lengths 1024 --pairs 65536
    prof waveKernel --metric dtw --kernels cuda.shuffle_dpx --lengths 128 --pairs 1048576
    for v in Li32ELb0ELb1E Li32ELb0ELb0E Li4ELb0ELb1E; do
      cuobjdump -sass $build/compute/gpu/libwarplab_gpu.a 2>/dev/null |
        python3 scripts/device/sass_loop_mix.py "waveKernelILi32ELi2E$v" 64 >>"$OUT/profile.log"
    done
  else
    prof shuffleKernel --metric dtw --kernels cuda.shuffle --lengths 1024 --pairs 65536
  fi
  grep -E "^###|Duration|Throughput|Achieved Occupancy|Registers|Issued|Eligible|Active Warps|ALL|FMNMX|IMNMX|VIMNMX|FFMA|FADD|MOV|LDG|MUFU|Pipe" "$OUT/profile.log" | head -100
fi

if [ "$what" = bench ] || [ "$what" = all ]; then
  B=$build/tests/gpu/warplab-gpu-bench
  run() { echo "\$ warplab-gpu-bench $*" | tee -a "$OUT/bench.log"; timeout 240 $B "$@" 2>&1 | tee -a "$OUT/bench.log"; }
  : >"$OUT/bench.log"
  if [ "${BENCH_SET:-full}" = softdtw ]; then
    run --metric softdtw --kernels cuda.shuffle --lengths 128,1024 --pairs 1048576 --repeats 3 --cpu --json "$OUT/s1.json"
    run --metric softdtw --gradient --fp32 --lengths 128,1024 --pairs 1024 --repeats 3 --json "$OUT/s2.json"
    run --metric softdtw --gradient --fp32 --lengths 128,1024 --pairs 16384 --repeats 3 --json "$OUT/s3.json"
    run --metric softdtw --gradient --fp32 --gamma 0.01 --lengths 1024 --pairs 1024 --repeats 3 --json "$OUT/s4.json"
    run --metric softdtw --gradient --lengths 128,1024 --pairs 1024 --repeats 3 --json "$OUT/s5.json"
  elif [ "${BENCH_SET:-full}" = cutimewarp ]; then
    # cuTimeWarp's designs (softdtw_designs.h, cuda.softdtw.tiled = cuda.tiled) and WarpLab's
    # soft-DTW kernels on the same inputs; the banded design at band 16 beside the unbanded
    # stencil (its error is against unbanded soft-DTW); long pairs without the naive design
    # (a 4096 x 4096 matrix per thread).
    run --metric softdtw --kernels cuda.shuffle,cuda.antidiagonal,cuda.softdtw.naive,cuda.softdtw.diagonal,cuda.softdtw.stencil,cuda.softdtw.tiled --lengths 128,512,1024 --pairs 65536 --repeats 3 --json "$OUT/c1.json"
    run --metric softdtw --band 16 --kernels cuda.softdtw.stencil,cuda.softdtw.banded --lengths 128,512,1024 --pairs 65536 --repeats 3 --json "$OUT/c2.json"
    run --metric softdtw --kernels cuda.shuffle,cuda.antidiagonal,cuda.softdtw.diagonal,cuda.softdtw.stencil,cuda.softdtw.tiled --lengths 4096 --pairs 256 --repeats 3 --json "$OUT/c3.json"
  elif [ "${BENCH_SET:-full}" = sdtw ]; then
    run --metric sdtw --sdtw-queries 512 --sdtw-length 2000 --sdtw-reference 100000 --top 5 --repeats 3 --cpu --json "$OUT/d1.json"
    run --metric sdtw --sdtw-queries 512 --sdtw-length 2000 --sdtw-reference 100000 --top 5 --repeats 3 --half2 --json "$OUT/d2.json"
    run --metric sdtw --sdtw-queries 128 --sdtw-length 2000 --sdtw-reference 1000000 --top 5 --repeats 3 --json "$OUT/d3.json"
    run --metric sdtw --sdtw-queries 128 --sdtw-length 2000 --sdtw-reference 1000000 --top 5 --repeats 3 --half2 --json "$OUT/d4.json"
    run --metric sdtw --sdtw-queries 512 --sdtw-length 128 --sdtw-reference 100000 --top 5 --repeats 3 --half2 --json "$OUT/d5.json"
  elif [ "${BENCH_SET:-full}" = tiled ]; then
    # Long series: cuda.tiled at 1e5 and 1e6 samples (no reference check above 1e9 cells per pair:
    # gpu_test_tiled checks long pairs), the anti-diagonal kernel at 1e5 for comparison (slow: one
    # timed run), and the CPU (on shorter series, see runCpuComparison).
    run --metric dtw --kernels cuda.tiled --lengths 100000,1000000 --pairs 1 --repeats 3 --json "$OUT/t1.json"
    run --metric dtw --kernels cuda.tiled --lengths 100000 --pairs 4 --repeats 3 --cpu --json "$OUT/t2.json"
    run --metric softdtw --kernels cuda.tiled --lengths 100000 --pairs 1 --repeats 3 --json "$OUT/t3.json"
    run --metric twed --kernels cuda.tiled --lengths 100000 --pairs 1 --repeats 3 --json "$OUT/t4.json"
    run --metric cdtw --band 1000 --kernels cuda.tiled --lengths 1000000 --pairs 1 --repeats 3 --json "$OUT/t5.json"
    run --metric dtw --kernels cuda.antidiagonal --lengths 100000 --pairs 1 --repeats 1 --json "$OUT/t6.json"
  elif [ "${BENCH_SET:-full}" = streams ]; then
    # The engine path end to end, 3 lanes (tiles in flight) against 1: the pattern shape
    # (415 x 65,536 windows of 1024 at stride 256, cdtw band 16), a short-series matrix whose
    # transfers outweigh the kernel, and all-pairs dtw (one tile at 1024 series, 10 at 4096).
    run --metric cdtw --band 16 --kernels cuda.band_dpx --lengths 1024 --engine-rows 415 --engine-cols 65536 --lanes 3,1 --repeats 3 --cpu --json "$OUT/st1.json"
    run --metric cdtw --band 16 --kernels cuda.band_dpx --lengths 128 --engine-rows 1024 --engine-cols 65536 --engine-stride 32 --lanes 3,1 --repeats 3 --json "$OUT/st2.json"
    run --metric dtw --kernels cuda.shuffle --lengths 1024 --engine-rows 1024 --engine-cols 0 --engine-stride 0 --lanes 3,1 --repeats 3 --cpu --json "$OUT/st3.json"
    run --metric dtw --kernels cuda.shuffle --lengths 256 --engine-rows 4096 --engine-cols 0 --engine-stride 0 --lanes 3,1 --repeats 3 --json "$OUT/st4.json"
  elif [ "${BENCH_SET:-full}" = new ]; then
    run --metric cdtw --band 16 --kernels cuda.band,cuda.band_dpx,cuda.shuffle --lengths 128,1024 --pairs 1048576 --cpu --engine --json "$OUT/n1.json"
    run --metric cdtw --band 1 --kernels cuda.band,cuda.band_dpx --lengths 1024 --pairs 1048576 --json "$OUT/n2.json"
    run --metric cdtw --band 32 --kernels cuda.band,cuda.band_dpx,cuda.shuffle --lengths 1024 --pairs 1048576 --json "$OUT/n3.json"
    run --metric twed --kernels cuda.twed,cuda.twed_fp64 --lengths 128,1024 --pairs 1048576 --repeats 3 --cpu --json "$OUT/n4.json"
  elif [ "${BENCH_SET:-full}" = shuffle ]; then
    # Full DTW: the shuffle kernel against the wavefront kernel without and with DPX; cdtw w=16:
    # the band kernels (the engine's default for cdtw), all at 1M pairs of 128 and of 1024.
    run --metric dtw --kernels cuda.shuffle,cuda.shuffle_wave,cuda.shuffle_dpx --lengths 128,1024 --pairs 1048576 --cpu --json "$OUT/w1.json"
    run --metric cdtw --band 16 --kernels cuda.band,cuda.band_dpx --lengths 128,1024 --pairs 1048576 --cpu --json "$OUT/w2.json"
  else
  run --metric dtw --kernels cuda.shuffle --lengths 128,1024 --pairs 1048576 --cpu --json "$OUT/b1.json"
  run --metric cdtw --band 16 --kernels cuda.shuffle --lengths 128,1024 --pairs 1048576 --cpu --json "$OUT/b2.json"
  run --metric cdtw --band 102 --kernels cuda.shuffle --lengths 1024 --pairs 1048576 --json "$OUT/b3.json"
  run --metric softdtw --kernels cuda.shuffle --lengths 128,1024 --pairs 1048576 --repeats 3 --json "$OUT/b5.json"
  run --metric softdtw --gradient --lengths 128,1024 --pairs 1024 --repeats 3 --json "$OUT/b6.json"
  run --metric sdtw --sdtw-queries 512 --sdtw-length 2000 --sdtw-reference 100000 --top 5 --repeats 3 --json "$OUT/b4.json"
  if [ "${BENCH_SET:-full}" = full ]; then
    for m in dtw softdtw twed euclidean; do
      run --metric $m --kernels cuda.antidiagonal,cuda.antidiagonal_fp64 --lengths 128,1024 --pairs 65536 --repeats 3 --cpu --json "$OUT/a-$m.json"
    done
  fi
  fi
  python3 - "$OUT" <<'PY'
import json, glob, sys, os
out = sys.argv[1]
rows = []
for f in sorted(glob.glob(os.path.join(out, "*.json"))):
    d = json.load(open(f)); rows += d["rows"]; dev = d["device"]; os.remove(f)
json.dump({"device": dev, "rows": rows}, open(os.path.join(out, "bench.json"), "w"), indent=1)
PY
  if [ -x $build/app/cli/warplab-cli ]; then
    echo '$ warplab-cli bench --metric dtw --kernels cuda.shuffle,cpu.simd --lengths 128 --pairs 65536 --repeats 3' | tee -a "$OUT/bench.log"
    timeout 120 $build/app/cli/warplab-cli bench --metric dtw --kernels cuda.shuffle,cpu.simd --lengths 128 --pairs 65536 --repeats 3 2>&1 | tee -a "$OUT/bench.log"
  fi
fi
