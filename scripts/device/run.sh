#!/usr/bin/env bash
# The one entry for the GPU machine (the `device` tool): builds what its steps need in one build
# folder (build-device: engine, io, warplab-cli and the GPU tests, no Qt), then runs the steps in
# order; several steps in one call are joined by a lone `+`. Every figure comes from
# `warplab-cli bench ...`; logs and results go to $OUT, run.log holding one line per result.
#
#   scripts/device/run.sh STEP [ARGS...] [+ STEP [ARGS...]]...
#
# Here, once (no apt on the GPU machine):
#   prepare                  fetch the Debian packages it lacks into .device-debs (carry it)
#   prepare-mpi              fetch Open MPI into mpi-debs (carry it for `scale` and `mpi`)
# On the GPU machine (carry .device-debs; test data is tests/data):
#   build [TARGET...]        warplab-cli and every GPU test program, or the targets named
#   suite                    every GPU test program (LIMIT seconds each, default 300), the GPU
#                            CTests, and one run of each GPU form of `warplab-cli bench`
#   suite-quick              the GPU test programs quickest first (TESTS="window sdtw ..." picks
#                            some, LIMIT default 330), after the `bench gpu` runs of BENCHES
#                            (';'-separated argument lists); logs packed into suite-logs.tgz
#   tests [NAME...]          the GPU test programs named (gpu_test_NAME), or all
#   bench ARGS...            `warplab-cli bench ARGS...`, e.g. `bench gpu --metric sdtw --half2`
#   cli ARGS...              any `warplab-cli` command, timed (search, dm, patterns, ...)
#   figures [SET]            the GPU benchmark runs behind the published figures: SET full (default),
#                            shuffle, new, softdtw, sdtw, tiled, streams or cutimewarp; rows merged
#                            into $OUT/bench.json
#   profile REGEX ARGS...    one launch of the kernels matching REGEX under Nsight Compute, in the
#                            run `warplab-cli bench ARGS...` (e.g. `profile waveKernel gpu --metric dtw ...`)
#   sass PATTERN [CELLS]     the instruction mix of a kernel (its mangled name contains PATTERN)
#                            and of its main loop, per DP cell with CELLS (sass_loop_mix.py)
#   limits                   what limits the fast kernels: pipe_rates.cu (instruction throughput),
#                            then each kernel's pipes, issue slots and stall reasons
#   patterns [published|subset|all]   pattern discovery at the published scale (synthetic channel)
#   study [test|bench|all]   the published pattern workload from 42 generated EDF+ files on disk
#                            (warplab-make-study, then `bench study`), GPU and CPU
#   detect [DEVICE-LIST...]  leave-one-seizure-out crossval on the 42-file study (wall, per --devices
#                            list, default 0), `bench crossval` on it (one discovery per fold against
#                            one matrix, same process, results compared), and a 7-file subset on
#                            the CPU and the GPU
#   window                   the window search: its GPU test, then `bench window` on 1e9, 1e7
#                            and 1e6-sample references, GPU and CPU
#   answer [DEVICE-LIST...]  the time to the answer: the user's commands (patterns --study on the
#                            42-file study, dm to .npy in float64 and float32, search) from process
#                            start to the last byte (--timing split) and to exit (wall), on each
#                            --devices list (default 0), RUNS rounds alternating; BASE_TGZ=tree.tgz
#                            (git archive of an earlier commit) times its warplab-cli beside;
#                            patterns --study and the 2-series dm also with WARPLAB_FULL_EXIT=1
#   scale                    several GPUs and MPI ranks (nvidia-h100-x2; carry mpi-debs too)
#   output [DEVICE-LIST...]  dm to .npy as the time-to-the-answer bar states it: 32,768 x 16,384 and
#                            65,536 x 65,536 cdtw(1024, w16) on each --devices list (default 0 0,1
#                            all), float64 and float32, and under mpirun -n K (one GPU per rank;
#                            carry mpi-debs), beside the disk's write speed (dd, fdatasync) in the
#                            same call; BASE_TGZ times an earlier tree; every file compared
#                            (MPI_RANKS="2 4", MPI65=0, OUTPUT_65K=0 choose the runs)
#   window-scale [DEVICE-LIST...]  the window search of a 1e9-sample reference read from a .npy
#                            file (the whole command, --timing split), and in process (bench window),
#                            on each --devices list (default 0 0,1 all), matches compared
#   mpi                      tests/mpi/mpi_check.sh with 2 and 3 ranks (carry mpi-debs)
#   ab VARIANT...            compile-time variants against the tree as it is (see ab_step below)
#   python                   the Python package on the CUDA build with the machine's python3 (NumPy,
#                            PyTorch): tests/python (the GPU files first; PYTEST_K=EXPR for -k), and
#                            the soft-DTW loss timed against pytorch-softdtw-cuda (carry .peers/soft_dtw_cuda.py)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-2}"; }

# ---- here -------------------------------------------------------------------------------------
prepare_step() {
  # shellcheck disable=SC2086
  exec scripts/device/fetch-debs.sh $DEVICE_DEBS
}

prepare_mpi_step() {
  set -e
  mkdir -p mpi-debs
  grep -qx '/mpi-debs/' .git/info/exclude 2>/dev/null || echo '/mpi-debs/' >> .git/info/exclude
  (cd mpi-debs && rm -f ./*.deb && apt-get download openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev \
     libpmix2 libevent-2.1-7 libevent-core-2.1-7 libevent-pthreads-2.1-7 libevent-extra-2.1-7 libevent-openssl-2.1-7 \
     libfabric1 libucx0 libibverbs1 librdmacm1 libpsm2-2 libpsm-infinipath1 libnl-3-200 libnl-route-3-200 \
     libmunge2 libhwloc15 libhwloc-plugins libgfortran5 libnuma1 libxnvctrl0 libpciaccess0 libltdl7)
  # Open MPI relocates to OPAL_PREFIX (its wrappers and plugins follow it); PMIx to PMIX_PREFIX.
  cat > mpi-debs/activate <<'ACT'
_mroot="$PWD/mpi-debs/root"
for _d in "$PWD"/mpi-debs/*.deb; do dpkg -x "$_d" "$_mroot"; done
_mlib="$_mroot/usr/lib/x86_64-linux-gnu"
export OPAL_PREFIX="$_mroot/usr" OPAL_LIBDIR="$_mlib/openmpi/lib" OPAL_BINDIR="$_mroot/usr/bin"
export OPAL_INCLUDEDIR="$_mlib/openmpi/include" OPAL_DATADIR="$_mroot/usr/share/openmpi" OPAL_PKGDATADIR="$_mroot/usr/share/openmpi"
export PMIX_PREFIX="$_mlib/pmix2" PMIX_INSTALL_PREFIX="$_mlib/pmix2"
export LD_LIBRARY_PATH="$_mlib/openmpi/lib:$_mlib/pmix2/lib:$_mlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$_mroot/usr/bin:$PATH"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_plm_rsh_agent=false
export MPIRUN="$_mroot/usr/bin/mpirun.openmpi" MPI_CXX_COMPILER="$_mroot/usr/bin/mpicxx.openmpi"
ACT
  ls mpi-debs | wc -l
}

# An MPI build: the same folder, reconfigured with Open MPI from mpi-debs.
with_mpi() {
  [ -f mpi-debs/activate ] || { echo "carry mpi-debs (run.sh prepare-mpi here)"; exit 1; }
  # shellcheck disable=SC1091
  source mpi-debs/activate
  device_configure -DWARPLAB_MPI=ON -DMPI_CXX_COMPILER="$MPI_CXX_COMPILER"
  timeout 60 "$MPIRUN" --oversubscribe -n 2 hostname > "$OUT/mpirun_check.txt" 2>&1
  log "mpirun check rc=$? $(tr '\n' ' ' < "$OUT/mpirun_check.txt" | cut -c1-200)"
}
# mpi2 CMD...: CMD under mpirun -n 2, one GPU per rank; mpin N CMD...: under mpirun -n N.
mpi2() { mpin 2 "$@"; }
mpin() {
  local n=$1
  shift
  "$MPIRUN" --oversubscribe --bind-to none -n "$n" bash -c 'CUDA_VISIBLE_DEVICES=$OMPI_COMM_WORLD_LOCAL_RANK exec "$0" "$@"' "$@"
}

# ---- build and tests --------------------------------------------------------------------------
build_step() {
  # shellcheck disable=SC2046
  if [ $# -gt 0 ]; then device_build "$@"; else device_build warplab-cli $(gpu_test_targets); fi
}

tests_step() {
  local names=("$@")
  [ ${#names[@]} -gt 0 ] || mapfile -t names < <(gpu_test_targets | sed 's/^gpu_test_//')
  # shellcheck disable=SC2046
  device_build $(printf 'gpu_test_%s ' "${names[@]}")
  for t in "${names[@]}"; do run_gpu_test "$t"; done
}

suite_step() {
  build_step
  tests_step
  (cd "$BUILD" && timeout 300 ctest -R '^gpu\.' -E '^gpu\.test_gpu_' --output-on-failure 2>&1 | tail -4) | tee -a "$OUT/run.log"
  # Each GPU form of `bench` once, small.
  cli_step bench gpu --metric dtw --kernels cuda.shuffle --lengths 128 --pairs 65536 --repeats 3 --cpu
  cli_step bench gpu --metric sdtw --sdtw-queries 64 --sdtw-length 256 --sdtw-reference 100000 --repeats 3
  cli_step bench multi 4096 4096 256 16 0 all
  cli_step bench window --walk 10000000 --top 10 --backend cuda --repeats 2
}

suite_quick_step() {
  local tests=${TESTS:-"window sdtw patterns shuffle softdtw streams tiled softdtw_designs energy multi kernels"}
  # shellcheck disable=SC2046,SC2086
  device_build warplab-cli $(printf 'gpu_test_%s ' $tests)
  local benches
  IFS=';' read -ra benches <<< "${BENCHES:-}"
  for args in "${benches[@]}"; do
    echo "\$ warplab-cli bench gpu $args" | tee -a "$OUT/run.log"
    # shellcheck disable=SC2086
    bench_rows "$CLI" "$OUT/run.log" bench gpu $args
  done
  for t in $tests; do LIMIT=${LIMIT:-330} run_gpu_test "$t"; done
  (cd "$BUILD" && ctest -R "_registered$" 2>&1 | tail -3) | tee -a "$OUT/run.log"
  (cd "$OUT" && logs=$(ls test_*.log 2>/dev/null) && [ -n "$logs" ] && tar -czf suite-logs.tgz $logs && rm -f $logs)
}

# cli_step ARGS...: `warplab-cli ARGS...`, its output in $OUT/cli.log and on stdout, its wall time.
cli_step() {
  [ -x "$CLI" ] || device_build warplab-cli
  echo "\$ warplab-cli $*" | tee -a "$OUT/cli.log"
  timeout "${CLI_TIMEOUT:-300}" "$CLI" "$@" 2> >(tee -a "$OUT/cli.log" >&2) | tee -a "$OUT/cli.log" | cut -c1-"${WIDTH:-400}"
  log "warplab-cli $* -> exit ${PIPESTATUS[0]}"
}

# ---- the published GPU figures ------------------------------------------------------------------
figures_step() {
  local set=${1:-full} n=0
  device_build warplab-cli
  fig() { n=$((n + 1)); cli_step bench gpu "$@" --json "$OUT/fig-$n.json"; }
  case $set in
    softdtw)
      fig --metric softdtw --kernels cuda.shuffle --lengths 128,1024 --pairs 1048576 --repeats 3 --cpu
      fig --metric softdtw --gradient --fp32 --lengths 128,1024 --pairs 1024 --repeats 3
      fig --metric softdtw --gradient --fp32 --lengths 128,1024 --pairs 16384 --repeats 3
      fig --metric softdtw --gradient --fp32 --gamma 0.01 --lengths 1024 --pairs 1024 --repeats 3
      fig --metric softdtw --gradient --lengths 128,1024 --pairs 1024 --repeats 3 ;;
    cutimewarp)  # cuTimeWarp's designs beside WarpLab's soft-DTW kernels, the same inputs
      fig --metric softdtw --kernels cuda.shuffle,cuda.antidiagonal,cuda.softdtw.naive,cuda.softdtw.diagonal,cuda.softdtw.stencil,cuda.softdtw.tiled --lengths 128,512,1024 --pairs 65536 --repeats 3
      fig --metric softdtw --band 16 --kernels cuda.softdtw.stencil,cuda.softdtw.banded --lengths 128,512,1024 --pairs 65536 --repeats 3
      fig --metric softdtw --kernels cuda.shuffle,cuda.antidiagonal,cuda.softdtw.diagonal,cuda.softdtw.stencil,cuda.softdtw.tiled --lengths 4096 --pairs 256 --repeats 3 ;;
    sdtw)
      fig --metric sdtw --sdtw-queries 512 --sdtw-length 2000 --sdtw-reference 100000 --top 5 --repeats 3 --cpu
      fig --metric sdtw --sdtw-queries 512 --sdtw-length 2000 --sdtw-reference 100000 --top 5 --repeats 3 --half2
      fig --metric sdtw --sdtw-queries 128 --sdtw-length 2000 --sdtw-reference 1000000 --top 5 --repeats 3
      fig --metric sdtw --sdtw-queries 128 --sdtw-length 2000 --sdtw-reference 1000000 --top 5 --repeats 3 --half2
      fig --metric sdtw --sdtw-queries 512 --sdtw-length 128 --sdtw-reference 100000 --top 5 --repeats 3 --half2 ;;
    tiled)  # long series: no reference check above 1e9 cells per pair (gpu_test_tiled checks those)
      fig --metric dtw --kernels cuda.tiled --lengths 100000,1000000 --pairs 1 --repeats 3
      fig --metric dtw --kernels cuda.tiled --lengths 100000 --pairs 4 --repeats 3 --cpu
      fig --metric softdtw --kernels cuda.tiled --lengths 100000 --pairs 1 --repeats 3
      fig --metric twed --kernels cuda.tiled --lengths 100000 --pairs 1 --repeats 3
      fig --metric cdtw --band 1000 --kernels cuda.tiled --lengths 1000000 --pairs 1 --repeats 3
      fig --metric dtw --kernels cuda.antidiagonal --lengths 100000 --pairs 1 --repeats 1 ;;
    streams)  # the engine path end to end, 3 tiles in flight against 1
      fig --metric cdtw --band 16 --kernels cuda.band_dpx --lengths 1024 --engine-rows 415 --engine-cols 65536 --tile-streams 3,1 --repeats 3 --cpu
      fig --metric cdtw --band 16 --kernels cuda.band_dpx --lengths 128 --engine-rows 1024 --engine-cols 65536 --engine-stride 32 --tile-streams 3,1 --repeats 3
      fig --metric dtw --kernels cuda.shuffle --lengths 1024 --engine-rows 1024 --engine-cols 0 --engine-stride 0 --tile-streams 3,1 --repeats 3 --cpu
      fig --metric dtw --kernels cuda.shuffle --lengths 256 --engine-rows 4096 --engine-cols 0 --engine-stride 0 --tile-streams 3,1 --repeats 3 ;;
    new)  # the band cdtw and TWED kernels
      fig --metric cdtw --band 16 --kernels cuda.band,cuda.band_dpx,cuda.shuffle --lengths 128,1024 --pairs 1048576 --cpu --engine
      fig --metric cdtw --band 1 --kernels cuda.band,cuda.band_dpx --lengths 1024 --pairs 1048576
      fig --metric cdtw --band 32 --kernels cuda.band,cuda.band_dpx,cuda.shuffle --lengths 1024 --pairs 1048576
      fig --metric twed --kernels cuda.twed,cuda.twed_fp64 --lengths 128,1024 --pairs 1048576 --repeats 3 --cpu ;;
    shuffle)  # full DTW: shuffle against the wavefront kernel with and without DPX; cdtw w16 band kernels
      fig --metric dtw --kernels cuda.shuffle,cuda.shuffle_wave,cuda.shuffle_dpx --lengths 128,1024 --pairs 1048576 --cpu
      fig --metric cdtw --band 16 --kernels cuda.band,cuda.band_dpx --lengths 128,1024 --pairs 1048576 --cpu ;;
    full)
      fig --metric dtw --kernels cuda.shuffle --lengths 128,1024 --pairs 1048576 --cpu
      fig --metric cdtw --band 16 --kernels cuda.shuffle --lengths 128,1024 --pairs 1048576 --cpu
      fig --metric cdtw --band 102 --kernels cuda.shuffle --lengths 1024 --pairs 1048576
      fig --metric softdtw --kernels cuda.shuffle --lengths 128,1024 --pairs 1048576 --repeats 3
      fig --metric softdtw --gradient --lengths 128,1024 --pairs 1024 --repeats 3
      fig --metric sdtw --sdtw-queries 512 --sdtw-length 2000 --sdtw-reference 100000 --top 5 --repeats 3
      for m in dtw softdtw twed euclidean; do
        fig --metric $m --kernels cuda.antidiagonal,cuda.antidiagonal_fp64 --lengths 128,1024 --pairs 65536 --repeats 3 --cpu
      done ;;
    *) echo "figures: no set '$set'"; exit 2 ;;
  esac
  python3 - "$OUT" <<'PY'
import glob, json, os, sys
out, rows, dev = sys.argv[1], [], ""
for f in sorted(glob.glob(os.path.join(out, "fig-*.json")), key=lambda p: int(p.rsplit("-", 1)[1][:-5])):
    d = json.load(open(f)); rows += d["rows"]; dev = d["device"]; os.remove(f)
json.dump({"device": dev, "rows": rows}, open(os.path.join(out, "bench.json"), "w"), indent=1)
PY
}

# ---- what limits a kernel -----------------------------------------------------------------------
# profile REGEX ARGS...: one launch (after one skipped) under Nsight Compute with the sections
# that say what bounds it ($NCU_SET=limits: every pipe and stall reason instead).
profile_step() {
  local k=$1
  shift
  device_build warplab-cli
  local sections=(--section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis)
  [ "${NCU_SET:-}" = limits ] && sections=(--metrics "$LIMIT_METRICS")
  echo "### $k: warplab-cli bench $*" | tee -a "$OUT/profile.log"
  timeout "${PROFILE_TIMEOUT:-150}" ncu --kernel-name "regex:$k" --launch-skip "${LAUNCH_SKIP:-1}" --launch-count 1 "${sections[@]}" \
    "$CLI" bench "$@" --repeats 1 2>&1 | grep -vE "^==PROF==|^\s*$" | tail -"${PROFILE_LINES:-60}" | tee -a "$OUT/profile.log"
}

sass_step() {
  device_build warplab-cli
  cuobjdump -sass "$BUILD/compute/gpu/libwarplab_gpu.a" 2>/dev/null | python3 scripts/device/sass_loop_mix.py "$@" | tee -a "$OUT/profile.log"
}

limits_step() {
  nvcc -O3 -arch=sm_90 -o /tmp/pipe_rates scripts/device/pipe_rates.cu 2>&1 | tail -5
  timeout 60 /tmp/pipe_rates | tee "$OUT/pipe_rates.log"
  cuobjdump -sass /tmp/pipe_rates | grep -oE "(VIMNMX3|VIMNMX|IMNMX|FMNMX3|FMNMX|VHMNMX|HMNMX2|FFMA|FADD|HFMA2)[.A-Z0-9_]*" | sort | uniq -c | tee -a "$OUT/pipe_rates.log"
  local S="gpu --metric sdtw --sdtw-queries 512 --sdtw-length 2000 --sdtw-reference 100000 --top 5 --sdtw-rows 32"
  export NCU_SET=limits PROFILE_LINES=45
  # shellcheck disable=SC2086
  profile_step leanPassKernel $S
  # shellcheck disable=SC2086
  profile_step leanPassKernel $S --half2
  profile_step waveKernel gpu --metric dtw --kernels cuda.shuffle_dpx --lengths 1024 --pairs 65536
  profile_step bandKernel gpu --metric cdtw --band 16 --kernels cuda.band_dpx --lengths 128 --pairs 1048576
  profile_step softDtwForwardKernel gpu --metric softdtw --gradient --fp32 --lengths 1024 --pairs 1024
  profile_step softDtwBackwardKernel gpu --metric softdtw --gradient --fp32 --lengths 1024 --pairs 1024
}

# ---- workloads ----------------------------------------------------------------------------------
# Pattern discovery at the published scale: one channel of 150,995,456 samples at 256 Hz
# (589,823 epochs of 1024, stride 256), 415 patterns: 244,776,545 cdtw distances, band 16; then
# 415 x 65,536 on the CPU (all cores) and the GPU, rankings compared, and the bundled sample.
patterns_step() {
  local what=${1:-all} o=$OUT/patterns
  mkdir -p "$o"
  device_build warplab-cli
  if [ "$what" = published ] || [ "$what" = all ]; then
    timeout 500 "$CLI" patterns --synthetic published --backend auto --timing --top 20 --progress \
      > "$o/published_gpu.csv" 2> "$o/published_gpu.log" || tail -5 "$o/published_gpu.log"
    log "published, backend auto: $(grep '^timing' "$o/published_gpu.log")"
  fi
  [ "$what" = published ] && return
  # 65,536 epochs of 1024 at stride 256 need (65536-1)*256+1024 = 16,777,984 samples.
  for b in cpu auto; do
    "$CLI" patterns --synthetic 16777984 --backend $b --timing --top 0 > "$o/subset_$b.csv" 2> "$o/subset_$b.log"
    log "subset 415 x 65536, backend $b: $(grep '^timing' "$o/subset_$b.log" || tail -1 "$o/subset_$b.log")"
    # The bundled real sample (CHB-MIT chb01_03, FP1-F7), whose qualities are far from 0 and 1.
    "$CLI" patterns --recording resources/sample/chb01_03_sample.edf --annotation seizure --backend $b --timing \
      > "$o/sample_$b.csv" 2> "$o/sample_$b.log" || tail -3 "$o/sample_$b.log"
  done
  cmp -s "$o/subset_cpu.csv" "$o/subset_auto.csv" && log "subset ranking: GPU == CPU" || log "subset ranking DIFFERS"
  cmp -s "$o/sample_cpu.csv" "$o/sample_auto.csv" && log "sample ranking: GPU == CPU" || log "sample ranking DIFFERS"
}

# The published workload from files: a generated study of 42 EDF+ files (23 channels, 256 Hz,
# 163.9 h, about 6.9 GB, in $WARPLAB_STUDY_DIR, default /tmp/warplab-study, never in $OUT),
# channel FP1-F7: 589,823 epochs, 415 patterns. GPU with device epochs (three runs), with
# host-packed epochs (ranking compared exactly), and the 7 files with seizures on CPU and GPU.
study_step() {
  local what=${1:-all} o=$OUT/study study=${WARPLAB_STUDY_DIR:-/tmp/warplab-study}
  mkdir -p "$o"
  if [ "$what" = test ] || [ "$what" = all ]; then tests_step patterns multi; fi
  [ "$what" = test ] && return
  device_build warplab-cli warplab-make-study
  rm -rf "$study"
  /usr/bin/time -f "make-study: %e s wall, %M KiB peak" "$BUILD/app/tools/warplab-make-study" "$study" > "$o/make_study.log" 2>&1
  log "$(tail -1 "$o/make_study.log"); $(du -sh "$study" | cut -f1)"
  local sum=$study/chb99-summary.txt
  for k in 1 2 3; do
    "$CLI" bench study "$sum" --backend auto --csv "$o/study_gpu_$k.csv" > "$o/study_gpu_$k.log" 2>&1 || tail -3 "$o/study_gpu_$k.log"
    log "study, GPU, device epochs (run $k): $(grep '^timing' "$o/study_gpu_$k.log")"
  done
  "$CLI" bench study "$sum" --backend auto --host-epochs --csv "$o/study_gpu_host.csv" > "$o/study_gpu_host.log" 2>&1
  log "study, GPU, host epochs: $(grep '^timing' "$o/study_gpu_host.log")"
  cmp -s "$o/study_gpu_1.csv" "$o/study_gpu_host.csv" && log "whole study: device epochs == host epochs (exact)" \
    || log "whole study: rankings DIFFER"
  for b in cpu auto; do
    "$CLI" bench study "$sum" --pick 3:6 --backend $b --csv "$o/subset_$b.csv" > "$o/subset_$b.log" 2>&1
    log "files 3,9,...,39, backend $b: $(grep '^timing' "$o/subset_$b.log" || tail -1 "$o/subset_$b.log")"
  done
  # cpu.simd and the GPU both accumulate in fp32, in different orders: order and qualities.
  cmp -s <(cut -d, -f1-3 "$o/subset_cpu.csv") <(cut -d, -f1-3 "$o/subset_auto.csv") \
    && log "subset: GPU ranking == CPU ranking (order and qualities)" || log "subset: rankings DIFFER"
  rm -rf "$study"
}

detect_step() {
  # Leave-one-seizure-out cross-validation of the detector on the 42-file study (the published
  # shape) from disk, wall clock from process start to the last line written, on each --devices
  # list; then a 7-file subset study (one seizure each, 15 min files) on the CPU and the GPU in the
  # same run, whose pooled scores must agree.
  local lists=("$@") o=$OUT/detect study=${WARPLAB_STUDY_DIR:-/tmp/warplab-study} small=/tmp/warplab-study-small dev run be
  [ ${#lists[@]} -gt 0 ] || lists=(0)
  mkdir -p "$o"
  device_build warplab-cli warplab-make-study
  if [ ! -f "$study/chb99-summary.txt" ]; then
    rm -rf "$study"
    /usr/bin/time -f "make-study: %e s wall" "$BUILD/app/tools/warplab-make-study" "$study" > "$o/make_study.log" 2>&1
    log "$(tail -1 "$o/make_study.log"); $(du -sh "$study" | cut -f1)"
  fi
  pooled() { python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["event"]; print("pooled event: " + ", ".join(f"{k} {p[k]}" for k in ("tp","fp","sensitivity","precision","f1","fp_per_day")))' "$1" 2>/dev/null || echo "no JSON"; }
  for run in 1 2; do
    for dev in "${lists[@]}"; do
      /usr/bin/time -f "%e" -o "$o/wall_${dev}_$run" timeout 180 "$CLI" crossval --study "$study/chb99-summary.txt" \
        --channel FP1-F7 --devices "$dev" --json > "$o/crossval_${dev}_$run.json" 2> "$o/crossval_${dev}_$run.log"
      log "crossval, 42-file study, --devices $dev (run $run): wall $(tail -1 "$o/wall_${dev}_$run") s; $(pooled "$o/crossval_${dev}_$run.json")"
    done
  done
  # Both designs in one process on the same study: one discovery per fold (the reference) and one
  # matrix of the whole study; says whether the detectors, distances and scores are identical.
  timeout 300 "$CLI" bench crossval --study "$study/chb99-summary.txt" --channel FP1-F7 --devices "${lists[0]}" \
    > "$o/bench_crossval.txt" 2> "$o/bench_crossval.log"
  log "bench crossval, 42-file study, --devices ${lists[0]}: $(tail -3 "$o/bench_crossval.txt" | tr '\n' ';')"
  rm -rf "$small"
  "$BUILD/app/tools/warplab-make-study" "$small" --files 7 --seconds 900 --last-seconds 900 --channels 2 > /dev/null
  for be in cpu cuda; do
    /usr/bin/time -f "%e" -o "$o/wall_small_$be" timeout 300 "$CLI" crossval --study "$small/chb99-summary.txt" \
      --channel FP1-F7 --backend $be --json > "$o/crossval_small_$be.json" 2> "$o/crossval_small_$be.log"
    log "crossval, 7-file subset (6,300 s), backend $be: wall $(tail -1 "$o/wall_small_$be") s; $(pooled "$o/crossval_small_$be.json")"
  done
  rm -rf "$small"
  # Real EEG: the Bonn sets laid end to end (.bonn-study, carried: 10 recordings of 1,180 s, each
  # with ten of set E's seizure segments between sets A-D's, resampled to 256 Hz for EDF).
  if [ -f .bonn-study/seizures.txt ]; then
    /usr/bin/time -f "%e" -o "$o/wall_bonn" timeout 120 "$CLI" crossval --study .bonn-study \
      --seizures "$(cat .bonn-study/seizures.txt)" --json > "$o/crossval_bonn.json" 2> "$o/crossval_bonn.log"
    log "crossval, Bonn study (10 x 1,180 s, 100 seizures), GPU: wall $(tail -1 "$o/wall_bonn") s; $(pooled "$o/crossval_bonn.json")"
  fi
}

window_step() {
  tests_step window
  device_build warplab-cli
  local eeg=resources/sample/chb01_03_sample.edf
  CLI_TIMEOUT=150 cli_step bench window --walk 1000000000 --top 10 --backend cuda --repeats 3
  CLI_TIMEOUT=30 cli_step bench window --walk 1000000 --top 1 --backend cuda --repeats 3
  for be in cuda cpu; do
    CLI_TIMEOUT=60 cli_step bench window --eeg $eeg --signal 0 --repeat-to 10000000 --top 10 --backend $be --repeats 2
    CLI_TIMEOUT=60 cli_step bench window --noise 10000000 --top 10 --backend $be --repeats 2
    CLI_TIMEOUT=60 cli_step bench window --walk 10000000 --top 10 --backend $be --repeats 2
  done
}

# The time to the answer (docs/PERFORMANCE.md, first table): each user-facing command from process
# start to its last byte (its --timing split line) and to its exit (wall_of), on every device
# list named (e.g. `answer 0 0,1 all`), RUNS rounds (default 2) with the lists and, with BASE_TGZ,
# the earlier tree's warplab-cli alternating; every ranking and matrix compared across them.
# `patterns --study` and the 2-series `dm` also run with WARPLAB_FULL_EXIT=1 (the process's full
# teardown, docs/CLI.md) beside the default exit, alternating ("full"); each line gives the exit
# (wall less the last byte), and a summary per exit follows.
# ANSWER_DM=0 leaves out dm 32,768 x 16,384 (4.3 GB of float64 per file).
answer_step() {
  local lists=("$@") o=$OUT/answer study=${WARPLAB_STUDY_DIR:-/tmp/warplab-study} w=/tmp/answer base=""
  [ ${#lists[@]} -gt 0 ] || lists=(0)
  mkdir -p "$o" $w
  if [ -n "${BASE_TGZ:-}" ]; then
    rm -rf /tmp/answer-base && mkdir -p /tmp/answer-base && tar -xzf "$BASE_TGZ" -C /tmp/answer-base \
      && ln -sfn "$ROOT/.device-debs" /tmp/answer-base/.device-debs
    (cd /tmp/answer-base && BUILD=b device_configure && cmake --build b -j "$JOBS" --target warplab-cli > "$OUT/build-base.log" 2>&1) &
  fi
  device_build warplab-cli warplab-make-study gpu_test_patterns
  wait
  if [ -n "${BASE_TGZ:-}" ]; then
    base=/tmp/answer-base/b/app/cli/warplab-cli
    [ -x "$base" ] && log "built the base tree's warplab-cli" || { tail -20 "$OUT/build-base.log"; base=""; }
  fi
  LIMIT=120 run_gpu_test patterns
  rm -rf "$study"
  /usr/bin/time -f "make-study: %e s wall" "$BUILD/app/tools/warplab-make-study" "$study" > "$o/make_study.log" 2>&1
  log "$(tail -1 "$o/make_study.log"); $(du -sh "$study" | cut -f1)"
  local sum=$study/chb99-summary.txt bins=(tree) exits=(tree full) bin dev run
  [ -n "$base" ] && bins+=(base) && exits+=(base)
  cli_of() {
    case "$1" in
      base) echo "$base" ;;
      full) echo "env WARPLAB_FULL_EXIT=1 $CLI" ;;
      *) echo "env -u WARPLAB_FULL_EXIT $CLI" ;;
    esac
  }
  # What follows the last byte: the wall clock (wall_of) less the split line's last byte.
  exit_of() {
    awk '/^split/ { for (i = 1; i < NF; ++i) if ($i == "byte") last = $(i + 1) }
         /^wall/ { wall = $2 }
         END { if (last != "" && wall != "") printf "exit %.3f s", wall - last }' "$1"
  }
  # "tree: wall 1.98 2.01 s, exit 0.01 0.02 s; full: ..." over the logs of each name in $2...
  exit_summary() {
    local what=$1 b f walls ex line=""
    shift
    for b in "$@"; do
      walls="" ex=""
      for f in $o/${what}_${b}_*.log; do
        [ -f "$f" ] || continue
        walls+=" $(awk '/^wall/ { print $2 }' "$f")"
        ex+=" $(exit_of "$f" | awk '{ print $2 }')"
      done
      line+="$b: wall${walls} s, exit${ex} s; "
    done
    log "$what, default exit (tree) against WARPLAB_FULL_EXIT=1 (full): $line"
  }
  # One untimed run warms the page cache's view of the study and the driver.
  timeout 60 "$CLI" patterns --study "$sum" --channel FP1-F7 --top 0 > /dev/null 2>&1
  "$CLI" bench study "$sum" --backend auto > "$o/bench_study.log" 2>&1
  log "bench study: $(grep '^timing' "$o/bench_study.log")"
  for run in $(seq 1 "${RUNS:-2}"); do
    for dev in "${lists[@]}"; do
      for bin in "${exits[@]}"; do
        timeout 60 bash -c "$(declare -f wall_of); wall_of $(cli_of $bin) patterns --study $sum --channel FP1-F7 --devices $dev --timing" \
          > "$o/pat_${bin}_$dev.csv" 2> "$o/pat_${bin}_${dev}_$run.log"
        log "patterns --study --devices $dev ($bin, run $run): $(grep -E '^split|^wall' "$o/pat_${bin}_${dev}_$run.log" | tr '\n' ' ') $(exit_of "$o/pat_${bin}_${dev}_$run.log")"
        grep -o '\[epochs.*' "$o/pat_${bin}_${dev}_$run.log" | cut -c1-400 | sed 's/^/    /' | tee -a "$OUT/run.log"
      done
    done
  done
  for dev in "${lists[@]}"; do exit_summary "pat" "tree_$dev" "full_$dev"; done
  for f in "$o"/pat_*.csv; do
    cmp -s "$o/pat_tree_${lists[0]}.csv" "$f" || log "patterns ranking DIFFERS: $(basename "$f")"
  done
  log "patterns rankings compared: $(ls "$o"/pat_*.csv | wc -l) files"
  # The generated channel, in process (its --timing line; generation not counted).
  for dev in "${lists[@]}"; do
    for bin in "${bins[@]}"; do
      timeout 60 bash -c "$(declare -f wall_of); wall_of $(cli_of $bin) patterns --synthetic published --timing --top 0 --devices $dev" \
        > /dev/null 2> "$o/syn_${bin}_$dev.log"
      log "patterns --synthetic published --devices $dev ($bin): $(grep -oE 'in [0-9.]+ s: [^[]*|\[epochs[^]]*\]' "$o/syn_${bin}_$dev.log" | tr '\n' ' ')"
    done
  done
  # dm: a 2-series job (start-up alone), then 32,768 x 16,384 cdtw(1024, w16) to .npy.
  "$CLI" bench multi --write-npy $w/two.npy 2 256 7 > /dev/null
  for run in $(seq 1 "${RUNS:-2}"); do
    for bin in "${exits[@]}"; do
      timeout 60 bash -c "$(declare -f wall_of); wall_of $(cli_of $bin) dm --queries $w/two.npy --metric dtw --backend cuda --devices ${lists[0]} $([ $bin != base ] && echo --timing)" \
        > /dev/null 2> "$o/dm_two_${bin}_$run.log"
      log "dm of 2 series, cuda ($bin, run $run): $(grep -E '^split|^wall' "$o/dm_two_${bin}_$run.log" | tr '\n' ' ') $(exit_of "$o/dm_two_${bin}_$run.log")"
    done
  done
  exit_summary "dm_two" tree full
  if [ "${ANSWER_DM:-1}" = 1 ]; then
    "$CLI" bench multi --write-npy $w/dq.npy 32768 1024 1 > /dev/null && "$CLI" bench multi --write-npy $w/dt.npy 16384 1024 2 > /dev/null
    sync
    dd if=/dev/zero of=$w/dd.bin bs=16M count=256 conv=fdatasync 2> "$o/dd.log"; rm -f $w/dd.bin
    log "disk: $(tail -1 "$o/dd.log")"
    for dev in "${lists[@]}"; do
      for variant in "tree float64" "tree float32" "base float64"; do
        set -- $variant
        [ "$1" = base ] && [ -z "$base" ] && continue
        local extra=""
        [ "$1" = tree ] && extra="--timing --dtype $2"
        rm -f $w/m.npy
        timeout 100 bash -c "$(declare -f wall_of); wall_of $(cli_of $1) dm --queries $w/dq.npy --targets $w/dt.npy --metric cdtw --band 16 --devices $dev --out $w/m.npy $extra" \
          > /dev/null 2> "$o/dm_${1}_${2}_$dev.log"
        log "dm 32768 x 16384 --devices $dev ($1, $2): $(grep -E '^split|^wall' "$o/dm_${1}_${2}_$dev.log" | tr '\n' ' ') $(stat -c %s $w/m.npy 2>/dev/null) bytes"
        [ "$2" = float64 ] && [ "$1" = tree ] && [ "$dev" = "${lists[0]}" ] && mv $w/m.npy $w/m64.npy
        [ "$2" = float32 ] && [ "$dev" = "${lists[0]}" ] && mv $w/m.npy $w/m32.npy
        [ "$1" = base ] && [ -f $w/m64.npy ] && { cmp -s $w/m.npy $w/m64.npy && log "dm .npy: base == tree (float64)" || log "dm .npy: base DIFFERS"; }
      done
    done
    python3 - $w/m64.npy $w/m32.npy <<'PY' 2>&1 | tee -a "$OUT/run.log"
import sys
import numpy as np
a = np.load(sys.argv[1], mmap_mode="r"); b = np.load(sys.argv[2], mmap_mode="r")
ok = a.shape == b.shape and b.dtype == np.float32
for r in range(0, a.shape[0], 4096):
    ok = ok and np.array_equal(a[r:r + 4096].astype(np.float32), b[r:r + 4096])
print("dm float32 == float64 rounded to float32:", ok, a.dtype, b.dtype, a.shape)
PY
    rm -f $w/m*.npy
  fi
  # search: one query of 2,000 in 100,000 (subsequence, top 5), and the window search of 8e6.
  "$CLI" bench multi --write-npy $w/ref.npy 1 100000 3 > /dev/null && "$CLI" bench multi --write-npy $w/q.npy 1 2000 5 > /dev/null
  "$CLI" bench multi --write-npy $w/ref8.npy 1 8000000 3 > /dev/null && "$CLI" bench multi --write-npy $w/q256.npy 1 256 5 > /dev/null
  for bin in "${bins[@]}"; do
    local t=""
    [ $bin = tree ] && t=--timing
    timeout 60 bash -c "$(declare -f wall_of); wall_of $(cli_of $bin) search --query $w/q.npy --reference $w/ref.npy --top 5 --backend cuda --devices ${lists[0]} --stats $t" \
      > "$o/sdtw_$bin.csv" 2> "$o/sdtw_$bin.log"
    log "search 2000 in 100000 top 5 ($bin): $(grep -E '^split|^wall|^# search' "$o/sdtw_$bin.log" | tr '\n' ' ')"
    timeout 60 bash -c "$(declare -f wall_of); wall_of $(cli_of $bin) search --query $w/q256.npy --reference $w/ref8.npy --mode window --top 5 --backend cuda --devices ${lists[0]} --stats $t" \
      > "$o/win_$bin.csv" 2> "$o/win_$bin.log"
    log "window search 256 in 8e6 top 5 ($bin): $(grep -E '^split|^wall' "$o/win_$bin.log" | tr '\n' ' ')"
  done
  [ -n "$base" ] && { cmp -s "$o/sdtw_tree.csv" "$o/sdtw_base.csv" && cmp -s "$o/win_tree.csv" "$o/win_base.csv" \
    && log "search matches: base == tree" || log "search matches DIFFER"; }
  # The subsequence search's pass against its whole answer (512 x 2,000 in 100,000, top 5).
  if [ "${ANSWER_SDTW:-1}" = 1 ]; then
    for h in "" --half2; do
      BENCH_TIMEOUT=60 bench_rows "$CLI" "$OUT/run.log" bench gpu --metric sdtw --sdtw-queries 512 --sdtw-length 2000 \
        --sdtw-reference 100000 --top 5 --repeats 5 $h
    done
  fi
  rm -rf "$study" $w
}

# Several GPUs and MPI (nvidia-h100-x2): the multi-GPU tests; dm 65,536 x 65,536 cdtw(1024, w16)
# on 1 GPU and 2; the published patterns on --devices 0 and all (RUNS times, alternating) and
# under mpirun -n 2; the window search of 8e6 samples (one process, mpirun, CPU) and of 64e6 on
# 1 and 2 GPUs; dm 32,768 x 16,384 to .npy in one process and under mpirun. Every pair of
# results compared. SCALE_PATTERNS_ONLY=1: the pattern runs alone.
scale_step() {
  local o=$OUT/scale w=/tmp/scale
  mkdir -p "$o" $w
  with_mpi
  device_build warplab-cli gpu_test_multi gpu_test_patterns gpu_test_window
  if [ "${SCALE_PATTERNS_ONLY:-0}" != 1 ]; then
    for t in multi patterns window; do LIMIT=200 run_gpu_test $t; done
    CLI_TIMEOUT=150 cli_step bench multi 65536 65536 1024 16 0 0,1
  fi
  local P=(patterns --synthetic published --timing --top 0)
  # A first run warms the driver and both GPUs; then 1 GPU and 2 GPUs alternate.
  timeout 100 "$CLI" "${P[@]}" --devices all > /dev/null 2> "$o/pat_warm.log"
  for run in $(seq 1 "${RUNS:-2}"); do
    for dev in 0 all; do
      timeout 100 bash -c "$(declare -f wall_of); wall_of $CLI ${P[*]} --devices $dev" > "$o/pat_$dev.csv" 2> "$o/pat_$dev.log"
      log "patterns published --devices $dev (run $run): $(grep -E '^timing|^wall' "$o/pat_$dev.log" | tr '\n' ' ')"
    done
  done
  cmp -s "$o/pat_0.csv" "$o/pat_all.csv" && log "patterns ranking: 2 GPUs == 1 GPU" || log "patterns ranking DIFFERS"
  [ "${SCALE_PATTERNS_ONLY:-0}" = 1 ] && return
  timeout 100 bash -c "$(declare -f wall_of mpi2 mpin); wall_of mpi2 $CLI ${P[*]}" > "$o/pat_mpi.csv" 2> "$o/pat_mpi.log"
  log "patterns mpirun -n 2: $(grep -E '^timing|^wall' "$o/pat_mpi.log" | tr '\n' ' ')"
  cmp -s "$o/pat_0.csv" "$o/pat_mpi.csv" && log "patterns ranking: mpirun -n 2 == one process" || log "mpirun ranking DIFFERS"

  "$CLI" bench multi --write-npy $w/ref.npy 1 8000000 3 && "$CLI" bench multi --write-npy $w/q.npy 1 256 5
  local S=(search --query "$w/q.npy" --reference "$w/ref.npy" --mode window --top 5 --stats)
  timeout 100 bash -c "$(declare -f wall_of); wall_of $CLI ${S[*]} --backend cuda" > "$o/win_one.csv" 2> "$o/win_one.log"
  timeout 150 bash -c "$(declare -f wall_of); wall_of $CLI ${S[*]} --backend cpu" > "$o/win_cpu.csv" 2> "$o/win_cpu.log"
  timeout 100 bash -c "$(declare -f wall_of mpi2 mpin); wall_of mpi2 $CLI ${S[*]} --backend cuda" > "$o/win_mpi.csv" 2> "$o/win_mpi.log"
  for v in one cpu mpi; do log "window 8e6 ($v): $(grep -E '^wall' "$o/win_$v.log")"; done
  cmp -s "$o/win_one.csv" "$o/win_mpi.csv" && log "window matches: mpirun -n 2 == one process" || log "window matches DIFFER (mpirun)"
  cmp -s "$o/win_one.csv" "$o/win_cpu.csv" && log "window matches: GPU == CPU" || log "window matches DIFFER (cpu)"
  "$CLI" bench multi --write-npy $w/big.npy 1 64000000 4
  for run in 1 2; do
    for dev in 0 all; do
      timeout 100 "$CLI" search --query $w/q.npy --reference $w/big.npy --mode window --top 5 --stats --backend cuda \
        --devices $dev > "$o/win_big_$dev.csv" 2> "$o/win_big_$dev.log"
      log "window 64e6 --devices $dev (run $run): $(grep -E '^# search' "$o/win_big_$dev.log")"
    done
  done
  cmp -s "$o/win_big_0.csv" "$o/win_big_all.csv" && log "window 64e6 matches: 2 GPUs == 1 GPU" || log "window 64e6 matches DIFFER"

  "$CLI" bench multi --write-npy $w/dq.npy 32768 1024 1 && "$CLI" bench multi --write-npy $w/dt.npy 16384 1024 2
  local D=(dm --queries "$w/dq.npy" --targets "$w/dt.npy" --metric cdtw --band 16)
  timeout 100 bash -c "$(declare -f wall_of); wall_of $CLI ${D[*]} --devices all --out $w/one.npy" 2> "$o/dm_one.log"
  timeout 100 bash -c "$(declare -f wall_of mpi2 mpin); wall_of mpi2 $CLI ${D[*]} --out $w/mpi.npy" 2> "$o/dm_mpi.log"
  log "dm 32768 x 16384: one process $(grep '^wall' "$o/dm_one.log"); mpirun -n 2 $(grep '^wall' "$o/dm_mpi.log")"
  cmp -s $w/one.npy $w/mpi.npy && log "dm .npy: mpirun -n 2 == one process" || log "dm .npy DIFFERS"
}

# dm to .npy (output): each run's split line and wall clock, one line each; the files compared
# with the first run's of the same shape and type. mpirun runs one rank per GPU of the list.
output_step() {
  local lists=("$@") o=$OUT/output w=/tmp/output base="" np
  [ ${#lists[@]} -gt 0 ] || lists=(0 0,1 all)
  mkdir -p "$o" $w
  with_mpi
  if [ -n "${BASE_TGZ:-}" ]; then
    rm -rf /tmp/output-base && mkdir -p /tmp/output-base && tar -xzf "$BASE_TGZ" -C /tmp/output-base \
      && ln -sfn "$ROOT/.device-debs" /tmp/output-base/.device-debs && ln -sfn "$ROOT/mpi-debs" /tmp/output-base/mpi-debs
    (cd /tmp/output-base && BUILD=b device_configure -DWARPLAB_MPI=ON -DMPI_CXX_COMPILER="$MPI_CXX_COMPILER" \
      && cmake --build b -j "$JOBS" --target warplab-cli > "$OUT/build-base.log" 2>&1) &
  fi
  device_build warplab-cli
  wait
  [ -n "${BASE_TGZ:-}" ] && { base=/tmp/output-base/b/app/cli/warplab-cli; [ -x "$base" ] || { tail -20 "$OUT/build-base.log"; base=""; }; }
  "$CLI" bench multi --write-npy $w/dq.npy 32768 1024 1 > /dev/null && "$CLI" bench multi --write-npy $w/dt.npy 16384 1024 2 > /dev/null
  "$CLI" bench multi --write-npy $w/d65.npy 65536 1024 3 > /dev/null
  sync
  dd if=/dev/zero of=$w/dd.bin bs=16M count=256 conv=fdatasync 2> "$o/dd.log"; rm -f $w/dd.bin
  log "disk: $(tail -1 "$o/dd.log")"
  # one NAME SHAPE BIN LAUNCH DTYPE [DEVICES]: a run to $w/m.npy, then compared with (or kept as)
  # the reference.
  one() {
    local name=$1 shape=$2 bin=$3 launch=$4 dtype=$5 args ref=$w/ref_$2_$5.npy
    case $shape in
      32k) args="--queries $w/dq.npy --targets $w/dt.npy" ;;
      65k) args="--queries $w/d65.npy" ;;
    esac
    [ -n "${6:-}" ] && args+=" --devices $6"
    rm -f $w/m.npy
    sync
    timeout 200 bash -c "$(declare -f wall_of mpin); wall_of $launch $bin dm $args --metric cdtw --band 16 --out $w/m.npy --dtype $dtype --timing" \
      > /dev/null 2> "$o/$name.log"
    log "dm $shape $name: $(grep -E '^split|^wall' "$o/$name.log" | tr '\n' ' ') $(stat -c %s $w/m.npy 2>/dev/null) bytes"
    if [ -f "$ref" ]; then cmp -s $w/m.npy "$ref" || log "dm $shape $name: bytes DIFFER from the first run's"
    else mv $w/m.npy "$ref"; fi
  }
  local run dev n dtype
  for run in $(seq 1 "${RUNS:-2}"); do
    for dev in "${lists[@]}"; do
      for dtype in float64 float32; do one "tree_${dtype}_$dev" 32k "$CLI" "" $dtype "$dev"; done
      [ -n "$base" ] && one "base_float64_$dev" 32k "$base" "" float64 "$dev"
    done
    for n in ${MPI_RANKS:-2 4}; do
      one "mpi${n}_float64" 32k "$CLI" "mpin $n" float64
      [ -n "$base" ] && [ "$run" = 1 ] && one "base_mpi${n}_float64" 32k "$base" "mpin $n" float64
    done
  done
  if [ "${OUTPUT_65K:-1}" = 1 ]; then
    for dev in 0 all; do one "tree_float64_$dev" 65k "$CLI" "" float64 "$dev"; done
    [ "${MPI65:-1}" = 1 ] && one "mpi4_float64" 65k "$CLI" "mpin 4" float64
    [ -n "$base" ] && one "base_float64_all" 65k "$base" "" float64 all
  fi
  rm -rf $w
}

# The window search of 1e9 samples on each device list: the command from the .npy file, then in process.
window_scale_step() {
  local lists=("$@") o=$OUT/window-scale w=/tmp/window-scale dev run
  [ ${#lists[@]} -gt 0 ] || lists=(0 0,1 all)
  mkdir -p "$o" $w
  device_build warplab-cli
  "$CLI" bench multi --write-npy $w/ref.npy 1 1000000000 4 > /dev/null && "$CLI" bench multi --write-npy $w/q.npy 1 128 5 > /dev/null
  for run in $(seq 1 "${RUNS:-2}"); do
    for dev in "${lists[@]}"; do
      timeout 100 bash -c "$(declare -f wall_of); wall_of $CLI search --query $w/q.npy --reference $w/ref.npy --mode window --top 5 --backend cuda --devices $dev --timing --stats" \
        > "$o/win_$dev.csv" 2> "$o/win_${dev}_$run.log"
      log "window 1e9 from .npy --devices $dev (run $run): $(grep -E '^split|^wall|^# search' "$o/win_${dev}_$run.log" | tr '\n' ' ')"
    done
  done
  for dev in "${lists[@]}"; do cmp -s "$o/win_${lists[0]}.csv" "$o/win_$dev.csv" || log "window 1e9 matches DIFFER: --devices $dev"; done
  log "window 1e9 matches compared over ${#lists[@]} device lists"
  # bench window takes every visible GPU: the list goes through CUDA_VISIBLE_DEVICES.
  [ "${WINDOW_BENCH:-1}" = 1 ] || lists=()
  for dev in "${lists[@]}"; do
    log "bench window 1e9, GPUs $dev:"
    local visible=$dev
    [ "$dev" = all ] && visible=$(nvidia-smi -L | awk -F'[ :]' '{ printf "%s%s", (NR > 1 ? "," : ""), $2 }')
    CUDA_VISIBLE_DEVICES=$visible timeout 120 "$CLI" bench window --walk 1000000000 --top 10 --backend cuda --repeats 3 \
      > "$o/bench_$dev.log" 2>&1
    tail -4 "$o/bench_$dev.log" | cut -c1-200 | tee -a "$OUT/run.log"
  done
  rm -rf $w
}

mpi_step() {
  with_mpi
  device_build warplab-cli warplab-matrix-equal
  for np in 2 3; do
    timeout 300 tests/mpi/mpi_check.sh "$CLI" "$MPIRUN" $np "$ROOT/tests/data/ucr" /tmp/mpi_np$np \
      "$ROOT/$BUILD/tests/mpi/warplab-matrix-equal" > "$OUT/mpi_np$np.log" 2>&1
    log "mpi_check np=$np exit $?"
    grep -E "FAIL|GPU|failed" "$OUT/mpi_np$np.log" | tee -a "$OUT/run.log"
  done
}

# ---- A/B ----------------------------------------------------------------------------------------
# ab VARIANT...: each VARIANT is NAME:FLAGS (-D definitions separated by spaces) or NAME:TREE.tgz
# (an earlier tree, `git archive --format=tar.gz`, carried; it must have `warplab-cli bench gpu`).
# The tree as it is is variant "tree". With FILE=path, FLAGS become #defines at the top of that
# one file (it must default each macro under #ifndef) and one build serves every variant (only
# FILE recompiles); without FILE each variant is a build of its own with FLAGS in the CUDA flags.
# Then ROUNDS (default 2) rounds of every line of BENCHES (';'-separated `warplab-cli` argument
# lists, e.g. "bench gpu --metric dtw --kernels cuda.shuffle_dpx --lengths 1024") on every
# variant in turn; TESTS (GPU test names) on each variant; PROFILE_ARGS (`bench` arguments) under
# Nsight Compute per variant; SASS_KERNELS ("pattern:cells ...") the instruction mix per variant.
#   FILE=compute/gpu/kernels/band/band_cdtw_kernel.h run.sh ab "c11:-DWL_BAND_CHUNK=11" "c16:-DWL_BAND_CHUNK=16"
ab_step() {
  local names=(tree) bins=/tmp/ab-bins v name spec
  mkdir -p $bins
  ab_keep() {  # NAME BUILD_DIR: keep the variant's programs; its SASS mix
    mkdir -p $bins/$1 && cp "$2/app/cli/warplab-cli" $bins/$1/
    for t in ${TESTS:-}; do cp "$2/tests/gpu/gpu_test_$t" $bins/$1/; done
    for k in ${SASS_KERNELS:-}; do
      echo "sass $1 ${k%%:*}:" | tee -a "$OUT/ab.log"
      cuobjdump -sass "$2/compute/gpu/libwarplab_gpu.a" | python3 scripts/device/sass_loop_mix.py "${k%%:*}" "${k#*:}" | tee -a "$OUT/ab.log"
    done
    log "built variant $1"
  }
  local targets
  targets="warplab-cli $(for t in ${TESTS:-}; do echo gpu_test_$t; done)"
  # shellcheck disable=SC2086
  device_build $targets
  ab_keep tree "$BUILD"
  [ -n "${FILE:-}" ] && cp "$FILE" /tmp/ab-file.orig
  for v in "$@"; do
    name=${v%%:*}; spec=${v#*:}
    if [[ $spec == *.tgz ]]; then
      rm -rf /tmp/ab-$name && mkdir -p /tmp/ab-$name && tar -xzf "$spec" -C /tmp/ab-$name && ln -sfn "$ROOT/.device-debs" /tmp/ab-$name/.device-debs
      # shellcheck disable=SC2086
      (cd /tmp/ab-$name && BUILD=b device_configure && cmake --build b -j "$JOBS" --target $targets >> "$OUT/build.log" 2>&1) \
        || { tail -30 "$OUT/build.log"; exit 1; }
      ab_keep "$name" /tmp/ab-$name/b
    elif [ -n "${FILE:-}" ]; then
      { for f in $spec; do d=${f#-D}; echo "#define ${d%%=*} ${d#*=}"; done; cat /tmp/ab-file.orig; } > "$FILE"
      # shellcheck disable=SC2086
      cmake --build "$BUILD" -j "$JOBS" --target $targets >> "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
      ab_keep "$name" "$BUILD"
    else
      # shellcheck disable=SC2086
      (BUILD=build-ab-$name device_configure -DCMAKE_CUDA_FLAGS="$spec" && cmake --build build-ab-$name -j "$JOBS" --target $targets >> "$OUT/build.log" 2>&1) \
        || { tail -30 "$OUT/build.log"; exit 1; }
      ab_keep "$name" build-ab-$name
    fi
    names+=("$name")
  done
  [ -n "${FILE:-}" ] && cp /tmp/ab-file.orig "$FILE"
  local lines args
  IFS=';' read -ra lines <<< "${BENCHES:-}"
  for r in $(seq 1 "${ROUNDS:-2}"); do
    for args in "${lines[@]}"; do
      for n in "${names[@]}"; do
        echo "## round $r, $n: warplab-cli $args" | tee -a "$OUT/ab.log"
        # shellcheck disable=SC2086
        bench_rows $bins/$n/warplab-cli "$OUT/ab.log" $args
      done
    done
  done
  for t in ${TESTS:-}; do
    for n in "${names[@]}"; do
      timeout "${LIMIT:-300}" $bins/$n/gpu_test_$t > "$OUT/test_$t-$n.log" 2>&1
      log "gpu_test_$t ($n) exit $?: $(grep -E 'checks' "$OUT/test_$t-$n.log" | tail -1)"
    done
  done
  if [ -n "${PROFILE_ARGS:-}" ]; then
    for n in "${names[@]}"; do
      echo "### ncu ($n): bench $PROFILE_ARGS" | tee -a "$OUT/ab.log"
      # shellcheck disable=SC2086
      timeout 150 ncu --clock-control none --kernel-name "${PROFILE_KERNELS:-regex:.}" --launch-skip 2 --launch-count 2 \
        --metrics "$NCU_METRICS" $bins/$n/warplab-cli bench $PROFILE_ARGS 2>&1 | grep -vE "^==PROF==|^\s*$" | grep -E "\(.*\)x\(|  [a-z]" \
        | sed -E 's/^ *void [^:]*::([A-Za-z]+<[^>]*>).*\(([0-9]+), 1, 1\)x\(([0-9]+), 1, 1\).*/  \1 grid \2 block \3/' | tee -a "$OUT/ab.log"
    done
  fi
}

# ---- Python ------------------------------------------------------------------------------------
# The package built by this machine's python3 (its pybind11's CMake files where pip installed it),
# tests/python run by pytest with the CTest environment, then scripts/bench/softdtw_torch_peers.py.
python_step() {
  local py pbd first rest
  py=$(command -v python3)
  pbd=$("$py" -m pybind11 --cmakedir 2>/dev/null)
  device_configure -DPython3_EXECUTABLE="$py" ${pbd:+-Dpybind11_DIR=$pbd}
  grep -i "python" "$OUT/configure.log" | head -5
  device_build _warplab warplab-cli
  log "python: $("$py" -c 'import sys, numpy, torch; print(sys.version.split()[0], "numpy", numpy.__version__, "torch", torch.__version__, "cuda", torch.cuda.is_available())' 2>&1)"
  export PYTHONPATH=$ROOT/$BUILD/python WARPLAB_TEST_DATA=$ROOT/tests/data WARPLAB_CLI=$CLI \
    WARPLAB_SAMPLE=$ROOT/resources/sample/chb01_03_sample.edf MPLBACKEND=Agg
  # The GPU files first (the torch loss, the CUDA path, zero-copy input), the benchmark, then the rest.
  first="test_torch_loss.py test_against_cli.py test_zero_copy.py"
  rest=$(cd tests/python && ls test_*.py | grep -vxF -f <(tr ' ' '\n' <<< "$first") | tr '\n' ' ')
  pytest_files() {
    (cd tests/python && timeout "$1" "$py" -m pytest -q -p no:cacheprovider -rs ${PYTEST_K:+-k "$PYTEST_K"} $2 2>&1) \
      | tee -a "$OUT/python_tests.log" | tail -30
    log "pytest $2: $(grep -E "passed|failed|error" "$OUT/python_tests.log" | tail -1)"
  }
  pytest_files "${PYTEST_LIMIT:-200}" "$first"
  if [ -f .peers/soft_dtw_cuda.py ]; then
    timeout "${BENCH_LIMIT:-120}" "$py" scripts/bench/softdtw_torch_peers.py --peer .peers \
      --json "$OUT/softdtw_torch_peers.json" 2>&1 | tee -a "$OUT/run.log"
  else
    log "no .peers/soft_dtw_cuda.py: the loss is not timed against pytorch-softdtw-cuda"
  fi
  pytest_files "${REST_LIMIT:-150}" "$rest"
}

# ---- dispatch -----------------------------------------------------------------------------------
[ $# -gt 0 ] || usage
case $1 in
  prepare) prepare_step ;;
  prepare-mpi) prepare_mpi_step; exit ;;
  -h|--help|help) usage 0 ;;
esac
machine_info
log "run.sh $* on $(nvidia-smi -L 2>/dev/null | head -1 || echo 'no GPU')"
step=()
run_one() {
  local s=$1
  shift
  case $s in
    build) build_step "$@" ;;
    suite) suite_step ;;
    suite-quick) suite_quick_step ;;
    tests) tests_step "$@" ;;
    bench) cli_step bench "$@" ;;
    cli) cli_step "$@" ;;
    figures) figures_step "$@" ;;
    profile) profile_step "$@" ;;
    sass) sass_step "$@" ;;
    limits) limits_step ;;
    patterns) patterns_step "$@" ;;
    study) study_step "$@" ;;
    window) window_step ;;
    detect) detect_step "$@" ;;
    answer) answer_step "$@" ;;
    scale) scale_step ;;
    output) output_step "$@" ;;
    window-scale) window_scale_step "$@" ;;
    mpi) mpi_step ;;
    ab) ab_step "$@" ;;
    python) python_step "$@" ;;
    *) echo "run.sh: no step '$s' (run.sh --help)"; exit 2 ;;
  esac
}
for a in "$@" +; do
  if [ "$a" = + ]; then
    [ ${#step[@]} -gt 0 ] && run_one "${step[@]}"
    step=()
  else
    step+=("$a")
  fi
done
log "done"
