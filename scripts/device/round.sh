#!/usr/bin/env bash
# One device call: build, the whole GPU suite, then the benchmark sets named in $SETS (in order,
# each in $OUT/<set>/) while time remains. Usage on the device: SETS="shuffle sdtw" scripts/device/round.sh [seconds]
set -uo pipefail
cd "$(dirname "$0")/../.."
budget=${1:-560}
start=$(date +%s)
OUT=${OUT:-/tmp/warplab-out}
left() { echo $(( budget - ($(date +%s) - start) )); }
if [ -z "${NO_TESTS:-}" ]; then
  OUT=$OUT/tests SKIP_CLI=1 timeout $(left) scripts/device/gpu.sh tests >"$OUT/tests.out" 2>&1
  grep -E "^(FAIL|###|exit code)|checks,|tests passed|Failed|SKIP|build FAILED|error" "$OUT/tests.out" | head -80
fi
for s in ${SETS:-}; do
  l=$(left); [ "$l" -gt 20 ] || { echo "no time left for $s"; break; }
  mkdir -p "$OUT/$s"
  OUT=$OUT/$s BENCH_SET=$s SKIP_CLI=1 timeout $l scripts/device/gpu.sh ${WHAT:-bench} >"$OUT/$s.out" 2>&1
  echo "== $s ($(left) s left)"; grep -E "^\\\$|cells|^  |device:" "$OUT/$s/bench.log" 2>/dev/null | cut -c1-220 | head -40
done
