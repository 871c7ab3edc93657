#!/usr/bin/env bash
# warplab-cli on the GPU machine (one call of the `device` tool): builds warplab-cli, then holds
# `dm` on every CUDA kernel to `dm --kernel cpu.reference` on ECG200 (all metrics), checks the
# streamed .npy path, GPU `search` against the CPU, and times one large all-pairs matrix on the
# GPU and on all CPU cores. Carry .device-debs and .device-data. Logs: $OUT/cli-device.log.
#   tests/app/device_cli_check.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/warplab-out}
mkdir -p "$OUT"
source .device-debs/activate
build=build-device-cli
{ nvidia-smi -L; nproc; } 2>&1
cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPLAB_GUI=OFF -DWARPLAB_HIP=OFF -DWARPLAB_TESTS=OFF \
  -DCMAKE_CUDA_COMPILER="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" \
  -DCMAKE_EXE_LINKER_FLAGS=-Wl,--allow-shlib-undefined >"$OUT/cli-build.log" 2>&1 || { tail -30 "$OUT/cli-build.log"; exit 1; }
cmake --build $build -j16 --target warplab-cli >>"$OUT/cli-build.log" 2>&1 || { grep -A12 -E "error|FAILED" "$OUT/cli-build.log" | head -60; exit 1; }
C=$build/app/cli/warplab-cli
T=.device-data/ucr/ECG200/ECG200_TRAIN.txt
E=.device-data/ucr/ECG200/ECG200_TEST.txt
W=$(mktemp -d)
TIMEFORMAT="%R s wall"
# max relative difference of two CSV matrices (no numpy needed)
relerr() { python3 - "$1" "$2" <<'PY'
import sys
a = [[float(v) for v in l.split(',')] for l in open(sys.argv[1]) if l.strip()]
b = [[float(v) for v in l.split(',')] for l in open(sys.argv[2]) if l.strip()]
assert len(a) == len(b) and all(len(x) == len(y) for x, y in zip(a, b)), "shape"
print("max_rel_err %.3g" % max(abs(x - y) / max(1.0, abs(y)) for ra, rb in zip(a, b) for x, y in zip(ra, rb)))
PY
}
{
for m in "dtw" "cdtw --band 10" "euclidean" "softdtw --gamma 0.5" "twed --nu 0.01" "sdtw" "dtw --znorm --sqrt"; do
  $C dm --metric $m --label-column --queries $T --targets $E --kernel cpu.reference >"$W/ref.csv" || continue
  for k in cuda.antidiagonal cuda.antidiagonal_fp64 cuda.shuffle backend:cuda; do
    if [ "$k" = backend:cuda ]; then sel="--backend cuda"; else sel="--kernel $k"; fi
    if $C dm --metric $m --label-column --queries $T --targets $E $sel >"$W/k.csv" 2>"$W/err"; then
      echo "dm $m $sel: $(relerr "$W/k.csv" "$W/ref.csv")"
    else
      echo "dm $m $sel: exit $? $(head -c 200 "$W/err")"
    fi
  done
done
echo "== all-pairs streamed (.npy, tiny memory budget) vs in memory, cuda"
$C dm --metric cdtw --band 5 --label-column --queries $T --backend cuda --out "$W/a.npy" && \
$C dm --metric cdtw --band 5 --label-column --queries $T --backend cuda --out "$W/b.npy" --max-memory 1e-9
python3 - "$W/a.npy" "$W/b.npy" <<'PY'
import sys
a, b = (open(f, 'rb').read() for f in sys.argv[1:])
print("streamed npy identical:", a == b, len(a), "bytes")
PY
echo "== search on the GPU vs the CPU (random walk reference 200000, query planted at 123456)"
python3 - "$W" <<'PY'
import random, sys
random.seed(7); w = sys.argv[1]
ref = [0.0]
for _ in range(199999): ref.append(ref[-1] + random.gauss(0, 1))
q = [round(10 * random.gauss(0, 1), 3) for _ in range(300)]
ref[123456:123756] = q
open(w + "/ref.txt", "w").write("\n".join("%.6g" % v for v in ref) + "\n")
open(w + "/q.txt", "w").write(" ".join("%.6g" % v for v in q) + "\n")
PY
for b in cuda cpu; do echo "-- $b"; time $C search --query "$W/q.txt" --reference "$W/ref.txt" --top 3 --backend $b; done
echo "== time: all pairs of 1000 random series of length 512, dtw (1000*999/2 pairs, 512*512 cells each)"
python3 - "$W" <<'PY'
import random, sys
random.seed(3)
with open(sys.argv[1] + "/big.txt", "w") as f:
    for _ in range(1000): f.write(" ".join("%.5g" % random.gauss(0, 1) for _ in range(512)) + "\n")
PY
for b in cuda cpu; do echo "-- $b"; time $C dm --metric dtw --queries "$W/big.txt" --backend $b --out "$W/big-$b.npy"; done
python3 - "$W/big-cuda.npy" "$W/big-cpu.npy" <<'PY'
import struct, sys
def load(p):
    d = open(p, 'rb').read(); hl = struct.unpack('<H', d[8:10])[0]
    return struct.unpack('<%dd' % ((len(d) - 10 - hl) // 8), d[10 + hl:])
a, b = load(sys.argv[1]), load(sys.argv[2])
print("cuda vs cpu max_rel_err %.3g over %d cells" % (max(abs(x - y) / max(1.0, abs(y)) for x, y in zip(a, b)), len(a)))
PY
} 2>&1 | tee "$OUT/cli-device.log"
