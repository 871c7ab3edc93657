#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine:
#   scripts/warplab.sh run    install what is missing, build, start the GUI on the sample recording
#   scripts/warplab.sh test   install what is missing, build, run every test through CTest
#   scripts/warplab.sh build  install and build only
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${WARPLAB_BUILD_DIR:-$root/build}
jobs=${WARPLAB_JOBS:-$(nproc)}

scripts/setup-debian.sh

if [ -z "${CUDACXX:-}" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi

configure_and_build() {
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${WARPLAB_CMAKE_ARGS:-}
  cmake --build "$build" -j "$jobs"
}

case "${1:-}" in
  build)
    configure_and_build ;;
  run)
    configure_and_build
    exec "$build/app/gui/warplab" "$build/share/warplab/sample/chb01_03_sample.edf" ;;
  test)
    configure_and_build
    # GUI tests run offscreen; the Xvfb screenshot test starts its own server.
    QT_QPA_PLATFORM=offscreen ctest --test-dir "$build" --output-on-failure -j "$jobs" ;;
  *)
    echo "usage: $0 run|test|build" >&2; exit 2 ;;
esac
