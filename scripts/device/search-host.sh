#!/usr/bin/env bash
# The subsequence search's time to the answer on the GPU, host work included: one query of 256
# in 36.9 M samples (SIGNAL=ar: x = 0.9 x + N(0,1), the default; SIGNAL=walk: a cumulative sum;
# 40 h at 256 Hz, .npy) with `search --stats`, the tree
# against BASE (a `git archive` tarball, carried), alternating; then `bench` of the same shape
# (device time and the call's host-clock time); first the GPU tests named in TESTS. One call on
# nvidia-h100-x1; carry .device-debs, .device-data and ab-base.tgz. Logs in $OUT.
#   git archive --format=tar.gz -o ab-base.tgz <commit>; bash scripts/device/search-host.sh
source "$(dirname "$0")/common.sh"
{ date -u; nvidia-smi -L; nproc; } | tee "$OUT/run.log"
unpack_tree ab-base.tgz /tmp/base
device_configure build-head "$OUT/cfg-head.log"
(cd /tmp/base && device_configure build-base "$OUT/cfg-base.log")
TESTS=${TESTS-sdtw_processes sdtw window kernels}  # TESTS="" runs none
cmake --build build-head -j16 --target warplab-cli $(for t in $TESTS; do echo gpu_test_$t; done) > "$OUT/build-head.log" 2>&1 || { grep -A10 -E 'error|FAILED' "$OUT/build-head.log" | head -40; exit 1; }
cmake --build /tmp/base/build-base -j16 --target warplab-cli > "$OUT/build-base.log" 2>&1 || { grep -A10 -E 'error|FAILED' "$OUT/build-base.log" | head -40; exit 1; }
echo "built after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
for t in $TESTS; do
  timeout 300 build-head/tests/gpu/gpu_test_$t "$PWD/.device-data" > "$OUT/test_$t.log" 2>&1
  echo "gpu_test_$t exit $? ($(( $(date +%s) - T0 )) s)" | tee -a "$OUT/run.log"
  grep -E "FAIL|checks" "$OUT/test_$t.log" | tail -6 | tee -a "$OUT/run.log"
done
w=/tmp/host_time && mkdir -p $w
python3 - "$w" "${SIGNAL:-ar}" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(5)
n = 36864000
e = rng.standard_normal(n)
if sys.argv[2] == "walk":  # a random walk (cumulative sum): it drifts without bound
    x = np.cumsum(e)
else:
    try:
        from scipy.signal import lfilter
        x = lfilter([1.0], [1.0, -0.9], e)
    except ImportError:
        x = np.convolve(e, 0.9 ** np.arange(200))[:n]
x = x.astype(np.float32)
np.save(sys.argv[1] + "/ref.npy", x)
np.save(sys.argv[1] + "/query.npy", x[18000000 - 100:18000000 + 156] + rng.standard_normal(256).astype(np.float32) * 0.1)
PY
A=(search --query $w/query.npy --reference $w/ref.npy --znorm --top 5 --backend cuda --stats)
for rep in 1 2 3; do
  for v in base head; do
    cli=build-head/app/cli/warplab-cli; [ $v = base ] && cli=/tmp/base/build-base/app/cli/warplab-cli
    $cli "${A[@]}" > $w/$v.csv 2> $w/$v.err
    echo "rep $rep $v: $(md5sum < $w/$v.csv | cut -c1-8) $(grep '# search' $w/$v.err)" | tee -a "$OUT/run.log"
  done
done
cat $w/head.csv | tee -a "$OUT/run.log"
for q in 1 16; do
  a="bench --metric sdtw --znorm --lengths 256 --queries $q --reference-length 36864000 --top 5 --repeats 5 --kernels cuda.sdtw"
  echo "\$ warplab-cli $a" | tee -a "$OUT/run.log"
  timeout 200 build-head/app/cli/warplab-cli $a 2>&1 | grep -E "^cuda" | cut -c1-900 | tee -a "$OUT/run.log"
done
echo "done after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
