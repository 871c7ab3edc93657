#!/usr/bin/env bash
# Here (a Debian 12 machine with apt), once before device calls: downloads the named Debian
# packages (no dependency closure: name what is needed) into .device-debs/, which git ignores,
# and writes .device-debs/activate. The GPU machine has a compiler, CMake and CUDA but no apt;
# common.sh sources activate there, which unpacks the packages under .device-debs/root and points
# CMake, the compiler and the loader at them. Carry `.device-debs` in each device call.
#   scripts/device/fetch-debs.sh PACKAGE...
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -gt 0 ] || { echo "usage: $0 PACKAGE..." >&2; exit 2; }
mkdir -p .device-debs
(cd .device-debs && rm -f ./*.deb && apt-get download "$@")
cat > .device-debs/activate <<'ACT'
_root="$PWD/.device-debs/root"
for _d in "$PWD"/.device-debs/*.deb; do dpkg -x "$_d" "$_root"; done
export CMAKE_PREFIX_PATH="$_root/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
export CPATH="$_root/usr/include${CPATH:+:$CPATH}"
export LIBRARY_PATH="$_root/usr/lib/x86_64-linux-gnu${LIBRARY_PATH:+:$LIBRARY_PATH}"
export LD_LIBRARY_PATH="$_root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ACT
ls -1 .device-debs
