#!/usr/bin/env bash
# Compile-time variants of ONE source file against the tree, in one device call, one build:
# builds warplab-gpu-bench, then for each variant puts its #defines at the top of FILE (the
# device's copy of the tree), rebuilds (only FILE recompiles) and keeps the binary. Then ROUNDS
# rounds of every line of BENCHES (';'-separated argument lists) on every binary in turn, and,
# unless NO_PROFILE, one Nsight Compute pass of each binary on PROFILE_ARGS; the GPU test programs
# of EXTRA_TARGETS are built too and run on TEST_NAMES (default: every binary). Carry .device-debs
# and .device-data. SASS_OBJ / SASS_KERNELS: see build() below.
# A variant is name:flags, its flags -D definitions separated by spaces; the file must default
# each macro under #ifndef (as band_cdtw_kernel.h does WL_BAND_CHUNK and WL_BAND_BLOCK):
#   FILE=compute/gpu/kernels/band/band_cdtw_kernel.h \
#   VARIANTS="c11:-DWL_BAND_CHUNK=11;c16b128:-DWL_BAND_CHUNK=16 -DWL_BAND_BLOCK=128" \
#   BENCHES="--metric cdtw --band 16 --kernels cuda.band_dpx --lengths 128 --pairs 1048576" bash scripts/device/ab-variants.sh
source "$(dirname "$0")/common.sh"
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader; } | tee "$OUT/ab.log"
b=build-variants
# Logs that only matter on failure stay in /tmp: a call brings back at most 8 files.
device_configure $b /tmp/cfg.log -DWARPLAB_TEST_DATA="$PWD/.device-data"
build() {
  cmake --build $b -j16 --target warplab-gpu-bench ${EXTRA_TARGETS:-} > /tmp/build-$1.log 2>&1 \
    || { grep -B2 -A12 -E 'error|FAILED' /tmp/build-$1.log | head -60; exit 1; }
  mkdir -p /tmp/bins/$1 && cp $b/tests/gpu/warplab-gpu-bench /tmp/bins/$1/
  for t in ${EXTRA_TARGETS:-}; do cp $b/tests/gpu/$t /tmp/bins/$1/; done
  # SASS_OBJ (an object under the build folder) and SASS_KERNELS ("pattern:cells ..."): each
  # kernel's instruction mix, its spill traffic, and (variant SASS_DUMP, default tree) its SASS in $OUT.
  if [ -n "${SASS_OBJ:-}" ]; then
    cuobjdump -sass $b/$SASS_OBJ > /tmp/sass-$1.txt
    for k in ${SASS_KERNELS:-}; do
      dump=""; [ "$1" = "${SASS_DUMP:-tree}" ] && dump="$OUT/sass-$1-${k%%:*}.txt"
      echo "sass $1 ${k%%:*}:" | tee -a "$OUT/ab.log"
      python3 scripts/device/sass_loop_mix.py "${k%%:*}" "${k#*:}" $dump < /tmp/sass-$1.txt | tee -a "$OUT/ab.log"
    done
  fi
  echo "built $1 after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/ab.log"
}
build tree
names=(tree)
cp "$FILE" /tmp/variant-file.orig
IFS=';' read -ra variants <<< "${VARIANTS:-}"
for v in "${variants[@]}"; do
  name=${v%%:*}; flags=${v#*:}
  { for f in $flags; do d=${f#-D}; echo "#define ${d%%=*} ${d#*=}"; done; cat /tmp/variant-file.orig; } > "$FILE"
  echo "$name: $(head -c 300 "$FILE" | grep '^#define' | tr '\n' ' ')" | tee -a "$OUT/ab.log"
  build "$name"
  names+=("$name")
done
cp /tmp/variant-file.orig "$FILE"
IFS=';' read -ra lines <<< "${BENCHES:-}"
for r in $(seq 1 "${ROUNDS:-2}"); do
  for args in "${lines[@]}"; do
    for n in "${names[@]}"; do
      echo "## round $r, $n: warplab-gpu-bench $args" | tee -a "$OUT/ab.log"
      bench_rows /tmp/bins/$n/warplab-gpu-bench "$OUT/ab.log" $args
    done
  done
done
for t in ${EXTRA_TARGETS:-}; do
  for n in ${TEST_NAMES:-${names[@]}}; do
    timeout ${TEST_TIMEOUT:-300} /tmp/bins/$n/$t "$PWD/.device-data" > "$OUT/$t-$n.log" 2>&1
    echo "$t ($n) exit $?: $(grep -E 'checks' "$OUT/$t-$n.log" | tail -1)" | tee -a "$OUT/ab.log"
    grep -E "FAIL" "$OUT/$t-$n.log" | head -5 | tee -a "$OUT/ab.log"
  done
done
if [ -z "${NO_PROFILE:-}" ] && [ -n "${PROFILE_ARGS:-}" ]; then
  M=$NCU_METRICS
  for n in "${names[@]}"; do
    echo "### ncu ($n): $PROFILE_ARGS" | tee -a "$OUT/ab.log"
    timeout 150 ncu --clock-control none --kernel-name "${PROFILE_KERNELS:-regex:.}" --launch-skip 2 --launch-count 2 --metrics "$M" \
      /tmp/bins/$n/warplab-gpu-bench $PROFILE_ARGS 2>&1 | grep -vE "^==PROF==|^\s*$" | grep -E "\(.*\)x\(|  [a-z]" \
      | sed -E 's/^ *void [^:]*::([A-Za-z]+<[^>]*>).*\(([0-9]+), 1, 1\)x\(([0-9]+), 1, 1\).*/  \1 grid \2 block \3/' | tee -a "$OUT/ab.log"
  done
fi
echo "done after $(( $(date +%s) - T0 )) s" | tee -a "$OUT/ab.log"
