#!/usr/bin/env bash
# Renders the user guide's screenshots into docs/images/ with slimpack-explorer --screenshot.
# Usage: scripts/screenshots.sh [BUILD_DIR]   (default: build; the explorer must be built there)
# Runs as a user sees it: under Xvfb with a window manager (openbox), so real X11 fonts, styles
# and repaints (offscreen rendering once hid a missing repaint). Without xvfb-run or openbox
# (apt-get install xvfb xauth openbox) it says so and renders offscreen; SCREENSHOT_PLATFORM=offscreen
# asks for that.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
exe="$build/app/explorer/slimpack-explorer"
out="$root/docs/images"
if [[ ! -x "$exe" ]]; then
  echo "screenshots.sh: $exe not found; build the slimpack-explorer target first" >&2
  exit 2
fi
mkdir -p "$out"
platform=${SCREENSHOT_PLATFORM:-xvfb}
if [[ $platform == xvfb ]] && ! { command -v xvfb-run >/dev/null && command -v openbox >/dev/null; }; then
  echo "screenshots.sh: xvfb-run or openbox missing; rendering offscreen instead" >&2
  platform=offscreen
fi
run() {
  if [[ $platform == xvfb ]]; then
    # One X server and window manager per picture: each window opens as on a fresh desktop.
    xvfb-run -a -s "-screen 0 2800x1800x24" bash -c \
      'openbox >/dev/null 2>&1 & sleep 0.5; "$@"; rc=$?; kill %1 2>/dev/null; exit $rc' _ "$exe" "$@"
  else
    QT_QPA_PLATFORM=offscreen "$exe" "$@"
  fi
}
# The states a user meets, one picture each (docs/user-guide.md and user-guide-traces.md show them).
run --screenshot "$out/explorer-main.png" --size 1600x1000
run --screenshot "$out/explorer-dark.png" --size 1600x1000 --theme dark
run --screenshot "$out/explorer-compare.png" --size 1600x1000 --view compare
run --screenshot "$out/explorer-search.png" --size 1600x1000 --view search
run --screenshot "$out/explorer-dataset.png" --size 1600x1000 --view dataset
run --screenshot "$out/explorer-file.png" --size 1600x1000 "$root/samples/lengths/longalign_mix.csv"
run --screenshot "$out/explorer-infeasible.png" --size 1600x1000 --view infeasible
run --screenshot "$out/explorer-zoomed.png" --size 1600x1000 --view zoomed
run --screenshot "$out/explorer-presentation.png" --view presentation
run --screenshot "$out/explorer-plan.png" --size 1600x1000 "$root/samples/plans/asymmetric-example.json"
# Laptop screens, and a HiDPI screen at scale 2 (the same 1366x768 logical pixels).
run --screenshot "$out/explorer-laptop-1280x720.png" --size 1280x720
run --screenshot "$out/explorer-laptop-1366x768.png" --size 1366x768
QT_SCALE_FACTOR=2 run --screenshot "$out/explorer-hidpi-x2.png" --size 1366x768
run --screenshot "$out/explorer-guide.png" --size 1600x1000 --view guide
echo "screenshots written to $out ($platform)"
