#!/usr/bin/env bash
# Renders the user guide's screenshots into docs/images/ with slimpack-explorer --screenshot.
# Usage: scripts/screenshots.sh [BUILD_DIR]   (default: build; the explorer must be built there)
# Runs on the offscreen platform (no display needed); set SCREENSHOT_PLATFORM=xvfb to render
# under xvfb-run instead (real X11 fonts and styles).
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
run() {
  if [[ "${SCREENSHOT_PLATFORM:-offscreen}" == "xvfb" ]]; then
    xvfb-run -a -s "-screen 0 1920x1200x24" "$exe" "$@"
  else
    QT_QPA_PLATFORM=offscreen "$exe" "$@"
  fi
}
run --screenshot "$out/explorer-main.png" --size 1600x1000
run --screenshot "$out/explorer-dark.png" --size 1600x1000 --theme dark
run --screenshot "$out/explorer-compare.png" --size 1600x1000 --view compare
run --screenshot "$out/explorer-file.png" --size 1600x1000 "$root/samples/lengths/chat_sft_lengths.csv"
echo "screenshots written to $out"
