#!/usr/bin/env bash
# The fp32 soft-DTW gradient before and after (issue 12): warplab-gpu-bench of two trees, the
# `git archive` tarballs ab-base.tgz (base) and head.tgz (head, which has --grad-shapes), built in
# one call and alternated three times at 1,024 and 16,384 pairs of 128 and 1,024 (head at each of
# HEAD_SHAPES, default the chosen one), after the head's GPU tests named in TESTS. Carry
# .device-debs, .device-data, ab-base.tgz and head.tgz. Logs in $OUT.
#   git archive --format=tar.gz -o ab-base.tgz <old>; git archive --format=tar.gz -o head.tgz <new>
#   bash scripts/device/ab-grad.sh
source scripts/device/common.sh
{ date -u; nvidia-smi -L; } | tee "$OUT/run.log"
for v in base head; do
  tgz=ab-base.tgz; [ $v = head ] && tgz=head.tgz
  unpack_tree $tgz /tmp/$v
  tests=""; [ $v = head ] && for t in ${TESTS:-}; do tests="$tests gpu_test_$t"; done
  (cd /tmp/$v && device_configure b "$OUT/cfg-$v.log" && cmake --build b -j16 --target warplab-gpu-bench $tests > "$OUT/build-$v.log" 2>&1) || { tail -20 "$OUT/build-$v.log"; exit 1; }
done
echo "built after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
for t in ${TESTS:-}; do
  timeout 300 /tmp/head/b/tests/gpu/gpu_test_$t "$PWD/.device-data" > "$OUT/test_$t.log" 2>&1
  echo "head gpu_test_$t exit $? ($(( $(date +%s) - T0 )) s)" | tee -a "$OUT/run.log"
  grep -E "FAIL|checks" "$OUT/test_$t.log" | tail -8 | tee -a "$OUT/run.log"
done
for rep in 1 2 3; do
  for pairs in 1024 16384; do
    a="--metric softdtw --gradient --fp32 --lengths 128,1024 --pairs $pairs --repeats 7"
    /tmp/base/b/tests/gpu/warplab-gpu-bench $a 2>&1 | grep -E "^cuda" | awk -v r=$rep '{print "rep " r " base   " $4, $5, $6, $7}' | tee -a "$OUT/run.log"
    /tmp/head/b/tests/gpu/warplab-gpu-bench $a --grad-shapes ${HEAD_SHAPES:-0x0} 2>&1 | grep -E "^cuda" | awk -v r=$rep '{print "rep " r " head " $2 " " $5, $6, $7, $8}' | tee -a "$OUT/run.log"
  done
done
echo "done after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/run.log"
