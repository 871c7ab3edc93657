#!/usr/bin/env bash
# Issue 13 on the two-GPU machine (nvidia-h200-x2), one call: builds warplab-cli (with Open
# MPI), the multi-GPU test and benchmark; checks mpirun; runs the multi-GPU suite; times
#   1. dm 65,536 x 65,536 cdtw(1024, w16) on 1 GPU and on 2 GPUs (engine, counting sink)
#   2. the published pattern workload with --devices 0 and --devices all
#   3. the same under mpirun -n 2 (one GPU per rank), ranking compared with one process
#   4. the window search of an 8,000,000-sample reference on the GPU: one process vs mpirun -n 2
#      (each rank's GPU candidates merged by rank 0), and against the CPU; then of 64,000,000
#      samples in one process on 1 GPU and on 2 (the starts split between the devices)
#   5. dm 32,768 x 16,384 to .npy: one process --devices all vs mpirun -n 2 (offset writes)
# RUNS=N alternates the 1-GPU and 2-GPU pattern runs N times (default 2); SKIP_DM_BENCH=1 skips 1;
# SCALE_PATTERNS_ONLY=1 runs 2 alone (no tests).
# Carry: the tree, .device-debs (EDFlib, TBB, HDF5, ...) and mpi-debs (Open MPI, Debian 12;
# its activate sets OPAL_PREFIX so the unpacked Open MPI finds itself). Logs under $OUT.
# Here, once, before the device call (Debian's Open MPI and what it links, into mpi-debs/):
#   scripts/device/scale.sh prepare
set -uo pipefail
cd "$(dirname "$0")/../.."
if [ "${1:-}" = prepare ]; then
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
  exit 0
fi
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
log() { echo "[$(date +%T)] $*" | tee -a "$out/summary.txt"; }
source .device-debs/activate
export PATH="$PWD/.device-debs/root/usr/bin${PATH:+:$PATH}"
source mpi-debs/activate
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv; nproc; free -g | head -2; } > "$out/machine.txt" 2>&1
cat "$out/machine.txt"

log "mpirun check"
timeout 60 "$MPIRUN" --oversubscribe -n 2 hostname > "$out/mpirun_check.txt" 2>&1; log "mpirun rc=$? $(tr '\n' ' ' < "$out/mpirun_check.txt" | cut -c1-300)"

build=build-device
cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPLAB_GUI=OFF -DWARPLAB_HIP=OFF \
  -DCMAKE_CUDA_COMPILER="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" -DMPI_CXX_COMPILER="$MPI_CXX_COMPILER" -DWARPLAB_MPI=ON \
  -DCMAKE_EXE_LINKER_FLAGS=-Wl,--allow-shlib-undefined > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
grep -i "mpi" "$out/configure.log" | tee -a "$out/summary.txt"
t0=$(date +%s)
cmake --build $build -j32 --target warplab-cli gpu_test_multi gpu_test_patterns gpu_test_window warplab-gpu-multi-bench > "$out/build.log" 2>&1 \
  || { grep -B2 -A12 -E "error|FAILED" "$out/build.log" | head -60; exit 1; }
log "built in $(( $(date +%s) - t0 )) s"
cli=$PWD/$build/app/cli/warplab-cli
bench=$PWD/$build/tests/gpu/warplab-gpu-multi-bench

log "multi-GPU suite"
if [ "${SCALE_PATTERNS_ONLY:-0}" != 1 ]; then
timeout 120 $build/tests/gpu/gpu_test_multi > "$out/test_gpu_multi.txt" 2>&1; log "gpu_test_multi rc=$?"
cat "$out/test_gpu_multi.txt"
timeout 200 $build/tests/gpu/gpu_test_patterns > "$out/test_gpu_patterns.txt" 2>&1; log "gpu_test_patterns rc=$?"
tail -3 "$out/test_gpu_patterns.txt"
timeout 200 $build/tests/gpu/gpu_test_window > "$out/test_gpu_window.txt" 2>&1; log "gpu_test_window rc=$?"
tail -3 "$out/test_gpu_window.txt"
fi
[ "${SCALE_TESTS_ONLY:-0}" = 1 ] && { log "tests only: done"; exit 0; }

[ "${SCALE_PATTERNS_ONLY:-0}" = 1 ] && SKIP_DM_BENCH=1
log "dm 65536 x 65536 cdtw(1024, w16): 1 GPU vs 2 GPUs"
[ "${SKIP_DM_BENCH:-0}" = 1 ] || { timeout 150 "$bench" 65536 65536 1024 16 0 0,1 > "$out/bench_dm.txt" 2>&1; log "bench rc=$?"; }
cat "$out/bench_dm.txt" 2>/dev/null

wall() { local s=$(date +%s.%N); "$@"; local rc=$?; echo "wall $(awk "BEGIN{print $(date +%s.%N) - $s}") s rc=$rc" >&2; return $rc; }
P=(patterns --synthetic published --timing --top 0)
# A first run warms the driver and both GPUs (a fresh process on a fresh machine pays for
# loading the kernels); then 1 GPU and 2 GPUs alternate, twice each.
timeout 100 $cli "${P[@]}" --devices all > /dev/null 2> "$out/pat_warm.log"; grep -E "^timing" "$out/pat_warm.log" | sed 's/^/warm-up /' | tee -a "$out/summary.txt"
for run in $(seq 1 "${RUNS:-2}"); do
  log "patterns published --devices 0 (run $run)"
  timeout 100 bash -c "$(declare -f wall); wall $cli ${P[*]} --devices 0" > "$out/pat_1gpu.csv" 2> "$out/pat_1gpu.log"; grep -E "^timing|^wall" "$out/pat_1gpu.log" | tee -a "$out/summary.txt"
  log "patterns published --devices all (run $run)"
  timeout 100 bash -c "$(declare -f wall); wall $cli ${P[*]} --devices all" > "$out/pat_2gpu.csv" 2> "$out/pat_2gpu.log"; grep -E "^timing|^wall" "$out/pat_2gpu.log" | tee -a "$out/summary.txt"
done
cmp -s "$out/pat_1gpu.csv" "$out/pat_2gpu.csv" && log "patterns ranking: 2 GPUs == 1 GPU (all $(wc -l < "$out/pat_1gpu.csv") lines)" || log "patterns ranking DIFFERS"
[ "${SCALE_PATTERNS_ONLY:-0}" = 1 ] && { log "patterns only: done"; exit 0; }
log "patterns published mpirun -n 2, one GPU per rank"
s=$(date +%s.%N)
timeout 100 "$MPIRUN" --oversubscribe --bind-to none -n 2 bash -c 'CUDA_VISIBLE_DEVICES=$OMPI_COMM_WORLD_LOCAL_RANK exec "$0" "$@"' \
  $cli "${P[@]}" > "$out/pat_mpi.csv" 2> "$out/pat_mpi.log"; rc=$?
log "mpirun patterns rc=$rc wall $(awk "BEGIN{print $(date +%s.%N) - $s}") s"; grep -E "^timing" "$out/pat_mpi.log" | tee -a "$out/summary.txt"
cmp -s "$out/pat_1gpu.csv" "$out/pat_mpi.csv" && log "patterns ranking: mpirun -n 2 == one process" || { log "mpirun ranking DIFFERS"; tail -5 "$out/pat_mpi.log"; }

log "window search on the GPU: one process vs mpirun -n 2 (one GPU per rank)"
w=/tmp/scale-win; mkdir -p $w
"$bench" --write-npy $w/ref.npy 1 8000000 3 && "$bench" --write-npy $w/q.npy 1 256 5
S=(search --query $w/q.npy --reference $w/ref.npy --mode window --top 5 --stats)
s=$(date +%s.%N); timeout 100 $cli "${S[@]}" --backend cuda > "$out/win_one.csv" 2> "$out/win_one.log"; rc=$?
log "window search, one process, cuda: rc=$rc wall $(awk "BEGIN{print $(date +%s.%N) - $s}") s"
s=$(date +%s.%N); timeout 150 $cli "${S[@]}" --backend cpu > "$out/win_cpu.csv" 2> "$out/win_cpu.log"; rc=$?
log "window search, one process, cpu: rc=$rc wall $(awk "BEGIN{print $(date +%s.%N) - $s}") s"
s=$(date +%s.%N)
timeout 100 "$MPIRUN" --oversubscribe --bind-to none -n 2 bash -c 'CUDA_VISIBLE_DEVICES=$OMPI_COMM_WORLD_LOCAL_RANK exec "$0" "$@"' \
  $cli "${S[@]}" --backend cuda > "$out/win_mpi.csv" 2> "$out/win_mpi.log"; rc=$?
log "window search, mpirun -n 2, cuda: rc=$rc wall $(awk "BEGIN{print $(date +%s.%N) - $s}") s"
head -7 "$out/win_one.csv" | tee -a "$out/summary.txt"; grep -v "^$" "$out/win_mpi.log" | head -5 | tee -a "$out/summary.txt"
cmp -s "$out/win_one.csv" "$out/win_mpi.csv" && log "window matches: mpirun -n 2 (GPUs) == one process (GPU)" || log "window matches DIFFER (mpirun)"
cmp -s "$out/win_one.csv" "$out/win_cpu.csv" && log "window matches: GPU == CPU" || log "window matches DIFFER (cpu)"
log "window search of 64,000,000 samples in one process: 1 GPU vs 2 GPUs (starts split between the devices)"
"$bench" --write-npy $w/big.npy 1 64000000 4
B=(search --query $w/q.npy --reference $w/big.npy --mode window --top 5 --stats --backend cuda)
for run in 1 2; do
  for dev in 0 all; do
    timeout 100 $cli "${B[@]}" --devices $dev > "$out/win_big_$dev.csv" 2> "$out/win_big_$dev.log"; rc=$?
    log "window 64M --devices $dev (run $run): rc=$rc $(grep -E '^# search' "$out/win_big_$dev.log")"
  done
done
cmp -s "$out/win_big_0.csv" "$out/win_big_all.csv" && log "window 64M matches: 2 GPUs == 1 GPU" || log "window 64M matches DIFFER"
head -3 "$out/win_big_all.csv" | tee -a "$out/summary.txt"

log "dm 32768 x 16384 to .npy: --devices all vs mpirun -n 2"
d=/tmp/scale-dm; mkdir -p $d
"$bench" --write-npy $d/q.npy 32768 1024 1 && "$bench" --write-npy $d/t.npy 16384 1024 2
D=(dm --queries $d/q.npy --targets $d/t.npy --metric cdtw --band 16)
s=$(date +%s.%N); timeout 100 $cli "${D[@]}" --devices all --out $d/one.npy 2> "$out/dm_one.log"; rc=$?
log "one process, 2 GPUs: rc=$rc wall $(awk "BEGIN{print $(date +%s.%N) - $s}") s"
s=$(date +%s.%N)
timeout 100 "$MPIRUN" --oversubscribe --bind-to none -n 2 bash -c 'CUDA_VISIBLE_DEVICES=$OMPI_COMM_WORLD_LOCAL_RANK exec "$0" "$@"' \
  $cli "${D[@]}" --out $d/mpi.npy 2> "$out/dm_mpi.log"; rc=$?
log "mpirun -n 2: rc=$rc wall $(awk "BEGIN{print $(date +%s.%N) - $s}") s"
cmp $d/one.npy $d/mpi.npy && log "dm .npy: mpirun -n 2 == one process ($(stat -c %s $d/one.npy) bytes)" || { log "dm .npy DIFFERS"; tail -5 "$out/dm_mpi.log"; }
log "done"
