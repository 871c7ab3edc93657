#!/usr/bin/env bash
# Window search benchmark with the file read included, as the UCR Suite is timed:
# a 1,000,000-sample random walk and a 128-sample random-walk query as text files (one number a
# line), 1-NN, R = 5 % (band floor(0.05 * 128) = 6), wall clock of the whole warplab-cli run.
# Usage: scripts/bench/window_search.sh [BUILD_DIR] [RUNS]   (not a test; figures go to
# docs/PERFORMANCE.md with the machine)
set -euo pipefail
build=${1:-build}
runs=${2:-5}
cli="$build/app/cli/warplab-cli"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" <<'PY'
import random, sys
d = sys.argv[1]
random.seed(42)
def walk(n):
    x = 0.0
    out = []
    for _ in range(n):
        x += random.gauss(0, 1)
        out.append('%.6f' % x)
    return out
open(d + '/ref.txt', 'w').write('\n'.join(walk(1000000)) + '\n')
open(d + '/query.txt', 'w').write('\n'.join(walk(128)) + '\n')
PY
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "command: $cli search --query query.txt --reference ref.txt --mode window --band-fraction 0.05 --top 1 --stats"
# Wall clock to the microsecond (bash's EPOCHREALTIME; /usr/bin/time rounds to 10 ms), then
# the runs sorted, and the median: the figure docs/PERFORMANCE.md compares with 0.055 s.
walls=()
for i in $(seq "$runs"); do
  t0=$EPOCHREALTIME
  "$cli" search --query "$dir/query.txt" --reference "$dir/ref.txt" --mode window --band-fraction 0.05 --top 1 --stats
  t1=$EPOCHREALTIME
  w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
  echo "run $i: $w s wall (file read included)"
  walls+=("$w")
done
printf '%s\n' "${walls[@]}" | sort -n | awk '{ v[NR] = $1 } END {
  m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
  printf "%d runs: min %.4f s, median %.4f s, max %.4f s\n", NR, v[1], m, v[NR] }'
