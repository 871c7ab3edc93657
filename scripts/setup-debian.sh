#!/usr/bin/env bash
# Installs the Debian 12 packages WarpLab builds and tests with, only those missing.
# Idempotent: a second run installs nothing. Runs apt as root (or through sudo).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libgl-dev
  libedf-dev libcli11-dev nlohmann-json3-dev libfast-float-dev libhdf5-dev libtbb-dev libfftw3-dev
  hipcc libamdhip64-dev
  clang libclang-rt-14-dev
  xvfb xauth x11-apps imagemagick xdotool
  libopenmpi-dev openmpi-bin
  python3-dev pybind11-dev python3-numpy python3-pytest python3-mne python3-sklearn python3-matplotlib
  python3-pip python3-venv python3-setuptools python3-h5py python3-scipy
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
