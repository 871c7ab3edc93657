#!/usr/bin/env bash
# Proves the HIP configuration links and behaves without an AMD GPU (CI has none): a HIP-only
# build (-DWARPLAB_CUDA=OFF -DWARPLAB_HIP=ON, no GUI, one offload target to keep it short) of the
# GPU test programs and warplab-cli, then
#   - every gpu.test_gpu_* CTest exits 77 with a "SKIP: ..." line that says why (no HIP device),
#   - `warplab-cli bench` lists the hip.* kernels with that reason,
#   - `warplab-cli bench gpu` refuses to run, exit 1, naming the missing device.
# With an AMD GPU present the suite runs instead and must pass. The main build (CUDA) compiles
# the HIP objects for all of WARPLAB_HIP_ARCHS as a check; given its object folder this build
# links those (no hipcc run at all), else it compiles them for WARPLAB_HIP_ARCHS.
#   [WARPLAB_HIP_OBJECTS_FROM=build/compute/gpu/hip] [WARPLAB_HIP_BUILD_DIR=build-hip-check]
#   [WARPLAB_HIP_ARCHS=gfx90a] scripts/ci/hip-check.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
build=${WARPLAB_HIP_BUILD_DIR:-$root/build-hip-check}
jobs=${WARPLAB_JOBS:-$(nproc)}
archs=${WARPLAB_HIP_ARCHS:-gfx90a}
objects=()
if [ -n "${WARPLAB_HIP_OBJECTS_FROM:-}" ]; then
  [ -d "$WARPLAB_HIP_OBJECTS_FROM" ] || { echo "hip-check: FAILED: no folder $WARPLAB_HIP_OBJECTS_FROM" >&2; exit 1; }
  objects=("-DWARPLAB_HIP_OBJECTS_FROM=$(cd "$WARPLAB_HIP_OBJECTS_FROM" && pwd)")
fi
start=$(date +%s)
fail() { echo "hip-check: FAILED: $*" >&2; exit 1; }

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPLAB_GUI=OFF -DWARPLAB_FUZZ=OFF \
  -DWARPLAB_CUDA=OFF -DWARPLAB_HIP=ON "-DWARPLAB_HIP_ARCHS=$archs" "${objects[@]}" ${WARPLAB_HIP_CMAKE_ARGS:-} >/dev/null
gpu_tests=$(cmake --build "$build" --target help | sed -n 's/^\(gpu_test_[a-z0-9_]*\):.*/\1/p' | sort -u)
[ -n "$gpu_tests" ] || fail "no gpu_test_* targets in the HIP configuration"
cmake --build "$build" -j "$jobs" --target $gpu_tests warplab-cli
echo "hip-check: built after $(( $(date +%s) - start )) s"

# The GPU programs: skipped with a reason here, passed on an AMD machine.
for t in $gpu_tests; do
  set +e
  out=$("$build/tests/gpu/$t" 2>&1)
  rc=$?
  set -e
  if [ $rc -eq 77 ]; then
    echo "$out" | grep -q '^SKIP: .*HIP' || fail "$t exited 77 without a SKIP line naming HIP: $out"
    echo "hip-check: $t: $(echo "$out" | grep -m1 '^SKIP: ')"
  elif [ $rc -ne 0 ]; then
    echo "$out" | tail -30
    fail "$t exited $rc"
  fi
done
ctest --test-dir "$build" -R '^gpu\.' --output-on-failure

# The registry of this build holds the hip.* kernels (and no cuda.* ones).
listing=$("$build/app/cli/warplab-cli" bench --metric dtw --kernels all --lengths 16 --pairs 4 --repeats 1)
echo "$listing"
for k in hip.antidiagonal hip.antidiagonal_fp64 hip.shuffle; do
  echo "$listing" | grep -q "^$k" || fail "warplab-cli bench does not list $k"
done
if echo "$listing" | grep -q '^cuda\.'; then fail "a HIP-only build lists cuda.* kernels"; fi
# `bench gpu` runs on an AMD GPU, and without one says why (exit 1).
set +e
out=$("$build/app/cli/warplab-cli" bench gpu --metric dtw --lengths 16 --pairs 4 --repeats 1 2>&1)
rc=$?
set -e
[ $rc -eq 0 ] || { [ $rc -eq 1 ] && echo "$out" | grep -q 'needs a GPU'; } || fail "bench gpu: exit $rc, $out"
echo "hip-check: passed in $(( $(date +%s) - start )) s"
