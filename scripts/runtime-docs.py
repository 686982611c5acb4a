#!/usr/bin/env python3
"""Regenerates (or, with --check, verifies) the commands and printed outputs of docs/runtime.md.

Every block of the page between `<!-- run-doc NAME -->` and `<!-- /run-doc -->` holds a shell
block of `$ COMMAND` lines and a text block with what they printed. This script runs the commands
of every block in a scratch folder (where `samples/` is the source tree's), with `slimpack` (this
build's, $SLIMPACK_BIN or build*/app/cli/slimpack) and `slimpack-run` (the source tree's launcher)
first on PATH, and writes the outputs back. With --check it changes nothing and fails (exit 1)
when an output differs from the page's, after masking what differs from run to run: durations,
tiny rounding errors (any number in e-notation), the digits of long numbers past the third
decimal and where the checkout and the interpreter are. A block named
`training` also redraws docs/images/runtime-loss.svg from the run's losses.

    scripts/runtime-docs.py [--check] [--only NAME]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir))
PAGE = os.path.join(ROOT, "docs", "runtime.md")
BLOCK = re.compile(r"(<!-- run-doc (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- /run-doc -->)", re.S)
COMMANDS = re.compile(r"```sh\n(?P<cmds>.*?)```", re.S)


def _slimpack() -> str:
    env = os.environ.get("SLIMPACK_BIN")
    if env:
        return env
    for build in ("build", "build-test", "build-ci-nogui", "build-dev"):
        path = os.path.join(ROOT, build, "app", "cli", "slimpack")
        if os.access(path, os.X_OK):
            return path
    sys.exit("runtime-docs: no slimpack program: set SLIMPACK_BIN or build build/app/cli/slimpack")


def mask(text: str) -> str:
    # PyTorch's C++ warnings ("[W1128 19:18:37.58 ProcessGroupGloo.cpp:528] Warning: ..."),
    # which depend on the machine (a host name that does not resolve), are not the page's.
    text = "\n".join(ln for ln in text.splitlines() if not re.match(r"\[W\d{4} ", ln))
    text = re.sub(r"\b\d+\.\d+ s\b", "# s", text)  # durations
    text = re.sub(r"-?\d+(\.\d+)?e[-+]\d+", "#e", text)  # rounding errors, tiny numbers
    # Long numbers to three decimals: a float32 training run's losses may round differently on
    # another CPU's kernels.
    text = re.sub(r"(\d+\.\d{3})\d+", r"\1", text)
    text = re.sub(r"/tmp/[\w./-]+", "/tmp/#", text)
    text = re.sub(r"package in [^;]+;", "package in #;", text)  # where the checkout is
    text = re.sub(r" at /[^)]+\)", " at #)", text)
    return text


def run_block(cmds: list[str], work: str, env: dict[str, str]) -> str:
    out = []
    for c in cmds:
        proc = subprocess.run(["bash", "-c", c], cwd=work, env=env, capture_output=True,
                              text=True, timeout=1800)
        out.append((proc.stdout + proc.stderr).rstrip("\n"))
        if proc.returncode != 0:
            raise SystemExit(f"runtime-docs: `{c}` failed (exit {proc.returncode}):\n{out[-1]}")
    return "\n".join(x for x in out if x)


def loss_svg(losses: list[float], path: str) -> None:
    """A small line chart of the loss per iteration (no plotting library needed)."""
    w, h, m = 560, 260, 48
    lo, hi = min(losses), max(losses)
    hi = hi if hi > lo else lo + 1
    xs = [m + i * (w - 2 * m) / max(len(losses) - 1, 1) for i in range(len(losses))]
    ys = [h - m - (v - lo) / (hi - lo) * (h - 2 * m) for v in losses]
    pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys))
    ticks = "".join(
        f'<text x="{m - 6}" y="{h - m - f * (h - 2 * m) + 4:.1f}" text-anchor="end">'
        f"{lo + f * (hi - lo):.2f}</text>" for f in (0, 0.5, 1))
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="DejaVu Sans, sans-serif" font-size="12">'
           f'<rect width="{w}" height="{h}" fill="white"/>'
           f'<line x1="{m}" y1="{h - m}" x2="{w - m}" y2="{h - m}" stroke="#444"/>'
           f'<line x1="{m}" y1="{m}" x2="{m}" y2="{h - m}" stroke="#444"/>{ticks}'
           f'<text x="{w / 2}" y="{h - 12}" text-anchor="middle">iteration (1 to {len(losses)})'
           f'</text><text x="14" y="{h / 2}" transform="rotate(-90 14 {h / 2})" '
           f'text-anchor="middle">loss</text>'
           f'<text x="{w / 2}" y="24" text-anchor="middle">slimpack-run --optimizer adamw on '
           f'/usr/share/common-licenses (bytes)</text>'
           f'<polyline points="{pts}" fill="none" stroke="#1f77b4" stroke-width="2"/></svg>\n')
    with open(path, "w", encoding="utf-8") as f:
        f.write(svg)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--only")
    args = ap.parse_args()
    with open(PAGE, encoding="utf-8") as f:
        page = f.read()
    bin_dir = tempfile.mkdtemp(prefix="runtime-docs-bin-")
    work = tempfile.mkdtemp(prefix="runtime-docs-")
    try:
        os.symlink(_slimpack(), os.path.join(bin_dir, "slimpack"))
        os.symlink(os.path.join(ROOT, "app", "runtime", "slimpack-run"),
                   os.path.join(bin_dir, "slimpack-run"))
        os.symlink(os.path.join(ROOT, "samples"), os.path.join(work, "samples"))
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
        env.setdefault("SLIMPACK_PYTHON", sys.executable)
        failures = []

        def redo(m: re.Match) -> str:
            name, body = m.group("name"), m.group("body")
            if args.only and name != args.only:
                return m.group(0)
            cm = COMMANDS.search(body)
            assert cm, f"run-doc {name}: no ```sh block"
            cmds = [ln[2:] for ln in cm.group("cmds").splitlines() if ln.startswith("$ ")]
            printed = run_block(cmds, work, env)
            old = re.search(r"```text\n(.*?)```", body, re.S)
            if args.check:
                if old is None or mask(old.group(1).rstrip("\n")) != mask(printed):
                    failures.append((name, old.group(1) if old else "", printed))
                return m.group(0)
            if name == "training":
                with open(os.path.join(work, "train.json"), encoding="utf-8") as f:
                    losses = [it["loss"] for it in json.load(f)["iterations"]]
                loss_svg(losses, os.path.join(ROOT, "docs", "images", "runtime-loss.svg"))
            new_body = body[:cm.end()] + f"\n\n```text\n{printed}\n```\n\n"
            return m.group(1) + new_body + m.group(4)

        page2 = BLOCK.sub(redo, page)
        if failures:
            for name, old, new in failures:
                sys.stderr.write(f"runtime-docs: block '{name}' of docs/runtime.md differs from "
                                 f"what its commands print now:\n--- page\n{old}\n--- now\n{new}\n")
            sys.stderr.write("runtime-docs: run scripts/runtime-docs.py to update the page\n")
            return 1
        if not args.check and page2 != page:
            with open(PAGE, "w", encoding="utf-8") as f:
                f.write(page2)
        print(f"runtime-docs: {'checked' if args.check else 'regenerated'} "
              f"{len(BLOCK.findall(page))} blocks of docs/runtime.md")
        return 0
    finally:
        shutil.rmtree(bin_dir, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
