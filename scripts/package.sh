#!/usr/bin/env bash
# Builds the Debian package: dist/slimpack-explorer_<version>_<arch>.deb (CPack's DEB generator; the
# package's Depends are computed by dpkg-shlibdeps). Reuses the quick start's Release build in build/.
# Install it with: sudo apt-get install ./dist/slimpack-explorer_*.deb
# Usage: scripts/package.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
bash scripts/deps.sh
# Installed under /usr. No CUDA: slimpack-profile would depend on a CUDA toolkit that Debian does not
# ship, so the package holds the programs every Debian machine can run.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSLIMPACK_BUILD_TESTS=OFF \
  -DCMAKE_INSTALL_PREFIX=/usr -DSLIMPACK_ENABLE_CUDA=OFF >/dev/null
cmake --build "$build" -j"$(nproc)"
rm -f dist/slimpack-explorer_*.deb
(cd "$build" && cpack -G DEB)
deb=$(ls dist/slimpack-explorer_*.deb)
echo
dpkg-deb --field "$deb" Package Version Architecture Section Depends
echo "package: wrote $deb"
