#!/usr/bin/env bash
# Window search with the files read, timed as the UCR Suite times itself: text files (one number a
# line), a 128-sample query, 1-NN, R = 5 % (band floor(0.05 * 128) = 6), wall clock of the whole
# process (start, reading, search, answer). Six data sets:
#   walk-S   random walks of LENGTH samples (default 1,000,000), one per seed in SEEDS (default
#            "1 2 3"); the query is another walk of the same generator (seed S + 1000)
#   eeg-mmi  EEG: the 64 channels of tests/data/eegmmidb/S001R03.edf one after another (1,280,000
#            samples, uV); query: 128 samples of CHB-MIT FP1-F7 (chb01_03_Seizure.edf, from 20 s)
#   eeg-chb  EEG: the 23 channels of resources/sample/chb01_03_sample.edf one after another
#            (482,816 samples, uV); query: 128 samples of S001R03's first channel (from 10 s)
#   ecg200   ECG: the 100 beats of tests/data/ucr/ECG200 TRAIN one after another (9,600 samples);
#            query: the first 128 samples of the TEST beats
# With UCR_SUITE=path/to/UCR_DTW (built from its public source; not part of WarpLab), that program
# runs on the same files in the same loop, run for run alternating with WarpLab, and the answers
# are compared: the same location, and WarpLab's sqrt(cost) within 1e-4 (relative) of the UCR
# Suite's distance (WarpLab reads samples as float and z-normalises by two passes, the UCR Suite
# keeps doubles and running sums; it prints 6 digits). Per set: the median of RUNS runs of each
# program and their ratio; at the end the median of the per-set ratios.
# EDF files are read with MNE (Debian's /usr/bin/python3, or PYTHON=...) to write the text files.
# DATA_DIR=folder keeps the text files there and reuses them on the next run. BASELINE=dir times
# that build's warplab-cli too (dir/app/cli/warplab-cli, e.g. a build of main) in the same loop.
# Usage: [UCR_SUITE=...] [DATA_DIR=...] [SEEDS="1 2 3"] [LENGTH=1000000] [SETS="walk eeg-mmi eeg-chb ecg200"]
#        scripts/bench/window_search.sh [BUILD_DIR] [RUNS]
# Not a test.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
runs=${2:-5}
seeds=${SEEDS:-1 2 3}
length=${LENGTH:-1000000}
sets=${SETS:-walk eeg-mmi eeg-chb ecg200}
py=${PYTHON:-/usr/bin/python3}
cli="$build/app/cli/warplab-cli"
base=${BASELINE:+$BASELINE/app/cli/warplab-cli}
if [[ -n "$base" && ! -x "$base" ]]; then
  echo "BASELINE=$BASELINE: no $base" >&2
  exit 2
fi
ucr=${UCR_SUITE:-}
if [[ -n "$ucr" && ! -x "$ucr" ]]; then
  echo "UCR_SUITE=$ucr: not an executable file" >&2
  exit 2
fi
if [[ -n "${DATA_DIR:-}" ]]; then  # keep the text files there (and reuse those already made)
  dir=$DATA_DIR
  mkdir -p "$dir"
else
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
fi

names=()
for s in $sets; do
  case $s in
    walk) for seed in $seeds; do names+=("walk-$seed"); done ;;
    eeg-mmi | eeg-chb | ecg200) names+=("$s") ;;
    *) echo "SETS: unknown set $s" >&2; exit 2 ;;
  esac
done
"$py" - "$dir" "$here" "$length" "${names[@]}" <<'PY'
import os, random, sys
d, here, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def write(path, values, fmt):
    with open(path, 'w') as f:
        f.write('\n'.join(fmt % v for v in values) + '\n')
def walk(seed, n):
    random.seed(seed)
    x, out = 0.0, []
    for _ in range(n):
        x += random.gauss(0, 1)
        out.append(x)
    return out
def edf(path):
    import mne
    raw = mne.io.read_raw_edf(path, preload=True, verbose='error')
    return raw.get_data() * 1e6, raw.info['sfreq']  # volts to uV, channels x samples
for name in sys.argv[4:]:
    ref, query = f'{d}/{name}/ref.txt', f'{d}/{name}/query.txt'
    if os.path.exists(query):
        continue
    os.makedirs(f'{d}/{name}', exist_ok=True)
    if name.startswith('walk-'):
        seed = int(name[5:])
        write(ref, walk(seed, n), '%.6f')
        write(query, walk(seed + 1000, 128), '%.6f')
    elif name == 'eeg-mmi':
        x, _ = edf(f'{here}/tests/data/eegmmidb/S001R03.edf')
        write(ref, x.reshape(-1), '%.4f')
        q, rate = edf(f'{here}/tests/data/chbmit/chb01_03_Seizure.edf')
        write(query, q[0, int(20 * rate):int(20 * rate) + 128], '%.4f')
    elif name == 'eeg-chb':
        x, _ = edf(f'{here}/resources/sample/chb01_03_sample.edf')
        write(ref, x.reshape(-1), '%.4f')
        q, rate = edf(f'{here}/tests/data/eegmmidb/S001R03.edf')
        write(query, q[0, int(10 * rate):int(10 * rate) + 128], '%.4f')
    elif name == 'ecg200':
        def beats(path):
            return [float(v) for line in open(path) for v in line.split()[1:]]  # first field: the class
        write(ref, beats(f'{here}/tests/data/ucr/ECG200/ECG200_TRAIN.txt'), '%.7e')
        write(query, beats(f'{here}/tests/data/ucr/ECG200/ECG200_TEST.txt')[:128], '%.7e')
PY

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load at start:$(uptime | sed 's/.*load average://')"
echo "warplab: $cli search --query query.txt --reference ref.txt --mode window --band-fraction 0.05 --top 1"
if [[ -n "$ucr" ]]; then
  echo "UCR Suite: $ucr ref.txt query.txt 128 0.05"
else
  echo "UCR Suite: not run (set UCR_SUITE to its UCR_DTW program to time it on the same files)"
fi

# Wall clock of one run to the microsecond (bash's EPOCHREALTIME; /usr/bin/time rounds to 10 ms);
# the program's output goes to the file $2.
wall() {
  local out=$1
  shift
  local t0=$EPOCHREALTIME
  "$@" >"$out" 2>&1
  local t1=$EPOCHREALTIME
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }'
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

ratios=()
bratios=()
failed=0
printf '%-9s %9s %10s %10s %8s  %s\n' set samples warplab_s ucr_s ratio "answers${base:+ (baseline: its time and ratio)}"
for name in "${names[@]}"; do
  ref="$dir/$name/ref.txt"
  query="$dir/$name/query.txt"
  samples=$(wc -l <"$ref")
  ours=()
  theirs=()
  based=()
  for i in $(seq "$runs"); do
    ours+=("$(wall "$dir/ours.out" "$cli" search --query "$query" --reference "$ref" --mode window --band-fraction 0.05 --top 1)")
    if [[ -n "$base" ]]; then
      based+=("$(wall "$dir/base.out" "$base" search --query "$query" --reference "$ref" --mode window --band-fraction 0.05 --top 1)")
      cmp -s "$dir/ours.out" "$dir/base.out" || { echo "$name: the baseline's answer differs" >&2; failed=1; }
    fi
    if [[ -n "$ucr" ]]; then
      theirs+=("$(wall "$dir/theirs.out" "$ucr" "$ref" "$query" 128 0.05)")
    fi
  done
  # The answers of the last runs: WarpLab's rank 1 (cost = squared DTW), the UCR Suite's
  # Location and Distance (its square root).
  read -r cost start < <(awk -F, '$1 == "1" { print $2, $3 }' "$dir/ours.out")
  a=$(median "${ours[@]}")
  if [[ -n "$ucr" ]]; then
    loc=$(awk '/^Location/ { print $3 }' "$dir/theirs.out")
    dist=$(awk '/^Distance/ { print $3 }' "$dir/theirs.out")
    b=$(median "${theirs[@]}")
    verdict=$(awk -v c="$cost" -v s="$start" -v l="$loc" -v d="$dist" 'BEGIN {
      e = sqrt(c) - d; if (e < 0) e = -e; m = d > 1 ? d : 1
      if (s == l && e <= 1e-4 * m) printf "same (start %d, distance %.6g vs %.6g)", s, sqrt(c), d
      else printf "DIFFERENT (warplab start %d distance %.6g; UCR Suite location %d distance %.6g)", s, sqrt(c), l, d }')
    [[ $verdict == same* ]] || failed=1
    ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b / a }')
    ratios+=("$ratio")
    if [[ -n "$base" ]]; then
      c=$(median "${based[@]}")
      bratio=$(awk -v a="$c" -v b="$b" 'BEGIN { printf "%.2f", b / a }')
      bratios+=("$bratio")
      verdict+=" (baseline $(printf '%.4f' "$c") s, ${bratio}x)"
    fi
    printf '%-9s %9d %10.4f %10.4f %7.2fx  %s\n' "$name" "$samples" "$a" "$b" "$ratio" "$verdict"
  else
    printf '%-9s %9d %10.4f %10s %8s  warplab start %d distance %.6g\n' "$name" "$samples" "$a" - - "$start" \
      "$(awk -v c="$cost" 'BEGIN { print sqrt(c) }')"
  fi
done
echo "each figure: the median of $runs runs; load at end:$(uptime | sed 's/.*load average://')"
if [[ -n "$ucr" ]]; then
  echo "median ratio (UCR Suite / warplab) over ${#ratios[@]} sets: $(median "${ratios[@]}")x"
  [[ -z "$base" ]] || echo "baseline's median ratio: $(median "${bratios[@]}")x"
  [[ $failed == 0 ]] || { echo "answers differ on some set" >&2; exit 1; }
fi
