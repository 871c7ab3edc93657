#!/usr/bin/env bash
# Window search with the files read, timed as the UCR Suite times itself: a random walk of
# LENGTH samples (default 1,000,000) and a 128-sample random-walk query as text files (one
# number a line), 1-NN, R = 5 % (band floor(0.05 * 128) = 6), wall clock of the whole process.
# With UCR_SUITE=path/to/UCR_DTW (built from its public source; not part of WarpLab), that
# program runs on the same two files in the same loop, so the two figures share their input.
# Usage: [UCR_SUITE=...] [SEED=42] [LENGTH=1000000] scripts/bench/window_search.sh [BUILD_DIR] [RUNS]
# Not a test.
set -euo pipefail
build=${1:-build}
runs=${2:-5}
seed=${SEED:-42}
length=${LENGTH:-1000000}
cli="$build/app/cli/warplab-cli"
ucr=${UCR_SUITE:-}
if [[ -n "$ucr" && ! -x "$ucr" ]]; then
  echo "UCR_SUITE=$ucr: not an executable file" >&2
  exit 2
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" "$seed" "$length" <<'PY'
import random, sys
d, seed, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
random.seed(seed)
def walk(n):
    x = 0.0
    out = []
    for _ in range(n):
        x += random.gauss(0, 1)
        out.append('%.6f' % x)
    return out
open(d + '/ref.txt', 'w').write('\n'.join(walk(n)) + '\n')
open(d + '/query.txt', 'w').write('\n'.join(walk(128)) + '\n')
PY
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "input: random walk of $length samples and a 128-sample query, seed $seed"
echo "warplab: $cli search --query query.txt --reference ref.txt --mode window --band-fraction 0.05 --top 1 --stats"
if [[ -n "$ucr" ]]; then
  echo "UCR Suite: $ucr ref.txt query.txt 128 0.05"
else
  echo "UCR Suite: not run (set UCR_SUITE to its UCR_DTW program to time it on the same files)"
fi

# Wall clock of one run to the microsecond (bash's EPOCHREALTIME; /usr/bin/time rounds to 10 ms).
wall() {
  local t0=$EPOCHREALTIME
  "$@" >&2  # the programs' own output to stderr: stdout is the time
  local t1=$EPOCHREALTIME
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }'
}
summary() {  # NAME then the runs: min, median, max
  local name=$1
  shift
  printf '%s\n' "$@" | sort -n | awk -v name="$name" '{ v[NR] = $1 } END {
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%s: %d runs, min %.4f s, median %.4f s, max %.4f s\n", name, NR, v[1], m, v[NR] }'
}
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

ours=()
theirs=()
for i in $(seq "$runs"); do
  w=$(wall "$cli" search --query "$dir/query.txt" --reference "$dir/ref.txt" --mode window --band-fraction 0.05 --top 1 --stats)
  echo "run $i: warplab $w s"
  ours+=("$w")
  if [[ -n "$ucr" ]]; then
    w=$(wall "$ucr" "$dir/ref.txt" "$dir/query.txt" 128 0.05)
    echo "run $i: UCR Suite $w s"
    theirs+=("$w")
  fi
done
summary warplab "${ours[@]}"
if [[ -n "$ucr" ]]; then
  summary "UCR Suite" "${theirs[@]}"
  awk -v a="$(median "${theirs[@]}")" -v b="$(median "${ours[@]}")" \
    'BEGIN { printf "median ratio (UCR Suite / warplab): %.2fx\n", a / b }'
fi
