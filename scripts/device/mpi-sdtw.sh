#!/usr/bin/env bash
# Issue 13, the GPU subsequence search over MPI ranks, one call on the two-GPU kind
# (nvidia-h200-x2): builds warplab-cli with Open MPI; runs the processes test (ranks played by
# threads on one GPU), the sdtw and multi-GPU suites, then tests/mpi/mpi_check.sh with -n 2 and
# -n 3 (its GPU section runs here); then times one query of 256 in a 36.9 M-sample reference
# (40 h at 256 Hz, a random walk in .npy) as a whole command: one process on GPU 0, on both GPUs,
# and mpirun -n 2 with one GPU per rank, alternating, the matches compared.
# Carry .device-debs, .device-data and mpi-debs (scripts/device/scale.sh prepare). Logs in $OUT.
source "$(dirname "$0")/common.sh"
source mpi-debs/activate
{ date -u; nvidia-smi -L; nproc; } | tee "$OUT/run.log"
b=build-device-mpi
cmake -S . -B $b -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPLAB_GUI=OFF -DWARPLAB_HIP=OFF -DWARPLAB_MPI=ON \
  -DCMAKE_CUDA_COMPILER="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" -DMPI_CXX_COMPILER="$MPI_CXX_COMPILER" \
  -DWARPLAB_TEST_DATA="$PWD/.device-data" -DCMAKE_EXE_LINKER_FLAGS=-Wl,--allow-shlib-undefined > "$OUT/cfg.log" 2>&1 \
  || { tail -30 "$OUT/cfg.log"; exit 1; }
cmake --build $b -j32 --target gpu_test_sdtw_processes gpu_test_sdtw gpu_test_multi warplab-cli warplab-matrix-equal \
  > "$OUT/build.log" 2>&1 || { grep -B2 -A12 -E 'error|FAILED' "$OUT/build.log" | head -80; exit 1; }
echo "built after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
[ -n "${TIMING_ONLY:-}" ] && TESTS=none
for t in ${TESTS:-sdtw_processes multi}; do
  [ "$t" = none ] && continue
  timeout "${LIMIT:-240}" $b/tests/gpu/gpu_test_$t "$PWD/.device-data" > "$OUT/$t.log" 2>&1
  echo "gpu_test_$t exit $? ($(( $(date +%s) - T0 )) s)" | tee -a "$OUT/run.log"
  grep -E "FAIL|checks" "$OUT/$t.log" | tail -8 | tee -a "$OUT/run.log"
done
C=$PWD/$b/app/cli/warplab-cli
for np in $([ -n "${TIMING_ONLY:-}" ] || echo 2 3); do
  timeout 300 tests/mpi/mpi_check.sh "$C" "$MPIRUN" $np "$PWD/.device-data/ucr" /tmp/mpi_np$np "$PWD/$b/tests/mpi/warplab-matrix-equal" \
    > "$OUT/mpi_np$np.log" 2>&1
  echo "mpi_check np=$np exit $? ($(( $(date +%s) - T0 )) s)" | tee -a "$OUT/run.log"
  grep -E "FAIL|GPU|failed" "$OUT/mpi_np$np.log" | tee -a "$OUT/run.log"
done
if [ -z "${TIMING_ONLY:-}" ]; then
# Fresh processes (fresh device memory) ten times each: one process on both GPUs and mpirun -n 3
# with both GPUs per rank, against one process on GPU 0 (a seed copied between devices before
# its pass had written it would show here, not with reused memory).
E=(search --query /tmp/mpi_np2/query.txt --reference /tmp/mpi_np2/reference.txt --top 7 --backend cuda)
$C "${E[@]}" --devices 0 > /tmp/fresh_want.csv
bad=0
for i in $(seq 10); do
  $C "${E[@]}" --devices all > /tmp/fresh_both.csv; cmp -s /tmp/fresh_want.csv /tmp/fresh_both.csv || bad=$((bad + 1))
  "$MPIRUN" --oversubscribe -n 3 $C "${E[@]}" > /tmp/fresh_mpi.csv 2> /dev/null; cmp -s /tmp/fresh_want.csv /tmp/fresh_mpi.csv || bad=$((bad + 1))
done
echo "fresh processes: $bad of 20 runs differ from one process on GPU 0" | tee -a "$OUT/run.log"
fi
# One query in 40 h: whole commands (process start, reading 147 MB, contexts, search), on
# SIGNAL=walk (default) or ar.
w=/tmp/mpi_time && mkdir -p $w
python3 - "$w" "${SIGNAL:-walk}" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(5)
n = 36864000
if sys.argv[2] == "ar":  # x = 0.9 x + N(0,1), as warplab-cli bench's reference: stationary, as EEG is
    e = rng.standard_normal(n)
    try:
        from scipy.signal import lfilter
        x = lfilter([1.0], [1.0, -0.9], e)
    except ImportError:  # its impulse response, cut where 0.9^k < 1e-9
        x = np.convolve(e, 0.9 ** np.arange(200))[:n]
    x = x.astype(np.float32)
else:  # a random walk (cumulative sum): it drifts without bound
    x = np.cumsum(rng.standard_normal(n)).astype(np.float32)
np.save(sys.argv[1] + "/ref.npy", x)
np.save(sys.argv[1] + "/query.npy", x[18000000 - 100:18000000 + 156] + rng.standard_normal(256).astype(np.float32) * 0.1)
PY
A=(search --query $w/query.npy --reference $w/ref.npy --znorm --top 5 --backend cuda --stats)
for rep in 1 2; do
  for how in "gpu0" "both" "mpi2"; do
    s=$(date +%s%N)
    case $how in
      gpu0) $C "${A[@]}" --devices 0 > $w/$how.csv 2> $w/$how.err ;;
      both) $C "${A[@]}" --devices all > $w/$how.csv 2> $w/$how.err ;;
      mpi2) "$MPIRUN" --oversubscribe -n 2 bash -c 'CUDA_VISIBLE_DEVICES=$OMPI_COMM_WORLD_LOCAL_RANK exec "$0" "$@"' $C "${A[@]}" \
              > $w/$how.csv 2> $w/$how.err ;;
    esac
    e=$(date +%s%N)
    echo "rep $rep $how: $(( (e - s) / 1000000 )) ms, $(md5sum < $w/$how.csv | cut -c1-8), $(grep '# search' $w/$how.err)" | tee -a "$OUT/run.log"
  done
done
cmp $w/gpu0.csv $w/mpi2.csv && cmp $w/gpu0.csv $w/both.csv && echo "40 h: the same matches from all three" | tee -a "$OUT/run.log"
cp $w/*.csv $w/*.err "$OUT/" 2>/dev/null
echo "done after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
