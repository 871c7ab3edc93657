#!/usr/bin/env bash
# Builds oneTBB with ThreadSanitizer from Debian's own source package (the version of the
# libtbb the project links, with Debian's patches), so that `sanitize.sh tsan` sees the
# hand-overs inside oneTBB's parallel loops: with Debian's uninstrumented libtbb, data written
# before a parallel_for and read in its body is reported as a race (docs/ERRORS.md).
#   scripts/ci/tsan-tbb.sh            then: TSAN_TBB_DIR=<printed folder> scripts/ci/sanitize.sh tsan ...
# Needs a deb-src line for Debian's main archive (apt-get source) and network access to it.
# Builds into build-tbb-tsan/ (git-ignored): libtbb only, no tests, no tbbmalloc.
# env: JOBS (default 2).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$root/build-tbb-tsan"
jobs="${JOBS:-2}"
version="$(dpkg-query -W -f='${source:Version}' libtbb-dev)"
upstream="${version%%-*}"
mkdir -p "$work"
cd "$work"
if [[ ! -d "oneTBB-$upstream" ]]; then
  apt-get source --download-only "onetbb=$version"
  tar xf "onetbb_$upstream.orig.tar.xz"
  tar xf onetbb_"$version".debian.tar.xz -C "oneTBB-$upstream"
  (cd "oneTBB-$upstream" && for p in $(grep -v '^#' debian/patches/series); do patch -p1 -s < "debian/patches/$p"; done)
fi
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# oneTBB's own TBB_SANITIZE option compiles and links it with -fsanitize=thread. -O1 as sanitize.sh.
cmake -S "oneTBB-$upstream" -B "oneTBB-$upstream/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" "${launcher[@]}" -DTBB_SANITIZE=thread -DTBB_TEST=OFF \
  -DTBBMALLOC_BUILD=OFF -DTBB_STRICT=OFF -DTBB_EXAMPLES=OFF -DCMAKE_INSTALL_PREFIX="$work/install" >/dev/null
cmake --build "oneTBB-$upstream/build" -j"$jobs"
cmake --install "oneTBB-$upstream/build" >/dev/null
# The check that TSan now sees through it: no report without a race, one with.
g++ -std=c++20 -O1 -g -fsanitize=thread -I"$work/install/include" "$root/scripts/ci/sanitizers/tbb_handover_probe.cpp" \
  -o "$work/probe" -L"$work/install/lib" -ltbb -Wl,-rpath,"$work/install/lib"
TSAN_OPTIONS=halt_on_error=1 "$work/probe" >/dev/null || { echo "tsan-tbb: a race-free parallel_for is reported" >&2; exit 1; }
if TSAN_OPTIONS=halt_on_error=1 "$work/probe" racy >/dev/null 2>&1; then
  echo "tsan-tbb: a real race inside parallel_for is not reported" >&2; exit 1
fi
echo "TSAN_TBB_DIR=$work/install/lib/cmake/TBB"
