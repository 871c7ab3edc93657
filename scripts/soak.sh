#!/usr/bin/env bash
# Offscreen soak of the desktop application (not part of CI): builds the soak driver
# (tests/widgets/soak_driver.cpp) and runs CYCLES random cycles of opening recordings and
# studies, marking regions, starting and cancelling jobs of every kind, undo and redo. Fails on a
# crash, a job or worker thread left at the end, or resident memory grown by more than
# SOAK_MAX_GROWTH_MB (default 200) between cycle 10 and the end.
#   scripts/soak.sh [CYCLES [SEED]]      (default 500 cycles, seed 1; env BUILD_DIR, JOBS)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cycles="${1:-500}"
seed="${2:-1}"
build="${BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPLAB_GUI=ON >/dev/null
cmake --build "$build" -j"${JOBS:-2}" --target warplab-soak
export QT_QPA_PLATFORM=offscreen
# The driver keeps its settings and data (recent files, layout, recovery files) apart from the user's.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data"
"$build/tests/widgets/warplab-soak" "$cycles" "$seed"
