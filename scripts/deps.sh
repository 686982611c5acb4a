#!/usr/bin/env bash
# Installs the Debian 12 packages SlimPack Explorer needs to build, test and package (file and
# dpkg-dev: CPack computes the .deb's Depends with dpkg-shlibdeps; python3-venv: the runtime's
# virtual environment, whose PyTorch and pytest come from PyPI by scripts/runtime-env.sh),
# skipping what is already there.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config git
  qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-svg-dev libgl1-mesa-dev
  nlohmann-json3-dev libeigen3-dev coinor-libcbc-dev libsimdjson-dev libdeflate-dev zlib1g-dev
  libgtest-dev libgmock-dev libbenchmark-dev xvfb xauth fonts-dejavu-core
  file dpkg-dev
  python3-venv)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "deps: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "deps: all present"
