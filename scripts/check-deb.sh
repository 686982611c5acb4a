#!/usr/bin/env bash
# Installs the Debian package with apt and checks it as a user would: both programs run from PATH,
# the explorer renders offscreen and finds its installed samples, the desktop entry, icons and man
# pages are in place. Meant for a brand-new Debian 12 root (CI runs it in one, see .ci/run).
# Usage: scripts/check-deb.sh dist/slimpack-explorer_<version>_<arch>.deb
set -euo pipefail
deb=$(realpath "${1:?usage: scripts/check-deb.sh PACKAGE.deb}")
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$deb" >/dev/null
work=$(mktemp -d)
cd "$work"
fail() { echo "check-deb: $*" >&2; exit 1; }

command -v slimpack >/dev/null || fail "slimpack is not on PATH"
command -v slimpack-explorer >/dev/null || fail "slimpack-explorer is not on PATH"
slimpack --version
slimpack simulate --preset chat-sft --png g.png --quiet
[ -s g.png ] || fail "slimpack simulate --png wrote no picture"
slimpack simulate --plan /usr/share/slimpack-explorer/samples/plans/analytic-1f1b.json --json - \
  | grep -q '"makespan"' || fail "the installed sample plan did not simulate"
# The exact MILP solver: CBC is a module of the package loaded on the first MILP solve.
slimpack solve --preset chat-sft --batch-tokens 65536 --strategy slimpack --exact --time-limit 1 \
  --json exact.json >/dev/null
grep -q 'exact: 1 replica(s) by MILP' exact.json || fail "slimpack solve --exact did not solve a MILP"
# The runtime: on PATH, running its installed package. Without a supported PyTorch it names the
# script that installs one (exit 2); then that script, as a user would run it, creates the
# environment (PyTorch from PyPI) and a schedule of the installed tiny model runs and checks.
command -v slimpack-run >/dev/null || fail "slimpack-run is not on PATH"
slimpack-run --version | tee run-version.txt
grep -q /usr/share/slimpack-explorer/python run-version.txt || fail "slimpack-run does not run its installed package"
python3 -c "import slimpack_runtime" || fail "import slimpack_runtime fails for /usr/bin/python3"
samples=/usr/share/slimpack-explorer/samples
slimpack solve --lengths $samples/lengths/tiny_batch.json --costs $samples/models/tiny-8x256.json \
  --tp 1 --pp 2 --slice 32 --no-dp-merge --schedule-out sched.json >/dev/null
[ -s sched.json ] || fail "slimpack solve --schedule-out wrote no schedule"
if ! python3 -c "import torch" 2>/dev/null; then
  rc=0
  slimpack-run sched.json >run.out 2>&1 || rc=$?
  [ "$rc" -eq 2 ] && grep -q "runtime-env.sh" run.out || fail "slimpack-run without torch (exit $rc): $(cat run.out)"
fi
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
/usr/share/slimpack-explorer/runtime-env.sh
slimpack-run --version | tee run-version.txt
grep -q "torch 2\." run-version.txt || fail "slimpack-run does not find the environment runtime-env.sh made"
slimpack-run sched.json --check --json run.json | tee run.txt
grep -q '"ok": true' run.json || fail "the installed runtime's --check failed"
QT_QPA_PLATFORM=offscreen slimpack-explorer --screenshot s.png
[ -s s.png ] || fail "slimpack-explorer --screenshot wrote no picture"
QT_QPA_PLATFORM=offscreen slimpack-explorer --data-dirs | tee dirs.txt
grep -qx 'samples: /usr/share/slimpack-explorer/samples' dirs.txt || fail "explorer does not find its samples"
for f in /usr/share/applications/slimpack-explorer.desktop \
  /usr/share/icons/hicolor/scalable/apps/slimpack-explorer.svg \
  /usr/share/icons/hicolor/48x48/apps/slimpack-explorer.png \
  /usr/share/man/man1/slimpack.1 /usr/share/man/man1/slimpack-explorer.1 \
  /usr/share/doc/slimpack-explorer/user-guide.md; do
  [ -f "$f" ] || fail "not installed: $f"
done
dpkg-query -W -f='${Package} ${Version} ${Section}\nDepends: ${Depends}\n' slimpack-explorer
echo "check-deb: $(basename "$deb") installs and runs"
