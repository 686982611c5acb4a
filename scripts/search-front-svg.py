#!/usr/bin/env python3
"""Draws the front of a `slimpack search --json` result as an SVG with two panels: tokens/s per GPU
against GPU count, and against peak memory. Solved configurations are grey dots; in each panel the
front of that plane ("front_gpus", "front_memory") is dark blue, and the rest of the front of all
three ("front": throughput, GPUs and memory together) light blue.

usage: scripts/search-front-svg.py SEARCH.json OUT.svg [--title TEXT]
"""
import json
import math
import sys


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    result = json.load(open(argv[1]))
    title = argv[argv.index("--title") + 1] if "--title" in argv else "slimpack search: Pareto front"
    configs = result["configs"]
    front = set(result["front"])
    planes = {"gpus": set(result["front_gpus"]), "peak_memory_bytes": set(result["front_memory"])}
    solved = [i for i, c in enumerate(configs) if c["status"] == "solved"]
    if not solved:
        print("no solved configuration to draw", file=sys.stderr)
        return 1
    tps = [configs[i]["tokens_per_second_per_gpu"] for i in solved]
    ymax = max(tps) * 1.08
    w, h, pad = 460, 340, 56
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * w}" height="{h + 30}" '
           f'font-family="DejaVu Sans, sans-serif" font-size="12">',
           f'<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{w}" y="18" text-anchor="middle" font-size="14">{title}</text>']

    def panel(x0, xs, xlabel, log2, fmt):
        lo, hi = min(xs), max(xs)
        if log2:
            lo, hi = math.log2(lo), math.log2(hi)
        if hi == lo:
            hi = lo + 1
        span = hi - lo
        lo, hi = lo - 0.05 * span, hi + 0.05 * span

        def px(v):
            v = math.log2(v) if log2 else v
            return x0 + pad + (v - lo) / (hi - lo) * (w - 1.5 * pad)

        def py(v):
            return 30 + (h - pad) * (1 - v / ymax)

        out = [f'<line x1="{x0 + pad}" y1="{py(0)}" x2="{x0 + w - pad / 2}" y2="{py(0)}" stroke="black"/>',
               f'<line x1="{x0 + pad}" y1="{py(0)}" x2="{x0 + pad}" y2="30" stroke="black"/>',
               f'<text x="{x0 + pad + (w - 1.5 * pad) / 2}" y="{h + 18}" text-anchor="middle">{xlabel}</text>',
               f'<text x="{x0 + 14}" y="{30 + (h - pad) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 {x0 + 14} {30 + (h - pad) / 2})">tokens/s per GPU</text>']
        for k in range(5):
            v = ymax * k / 4
            out.append(f'<text x="{x0 + pad - 4}" y="{py(v) + 4}" text-anchor="end">{v / 1000:.1f}k</text>')
        ticks = sorted(set(xs)) if log2 else [min(xs) + (max(xs) - min(xs)) * k / 4 for k in range(5)]
        for t in ticks:
            out.append(f'<text x="{px(t)}" y="{py(0) + 16}" text-anchor="middle">{fmt(t)}</text>')
        return out, px, py

    for side, (key, label, log2, fmt) in enumerate([
            ("gpus", "GPUs", True, lambda v: f"{int(v)}"),
            ("peak_memory_bytes", "peak memory per GPU (GB)", False, lambda v: f"{v / 1e9:.0f}")]):
        xs = [configs[i][key] for i in solved]
        out, px, py = panel(side * w, xs, label, log2, fmt)
        svg += out
        for i in solved:
            c = configs[i]
            if i in front:
                continue
            svg.append(f'<circle cx="{px(c[key]):.1f}" cy="{py(c["tokens_per_second_per_gpu"]):.1f}" r="2.5" fill="#bbb"/>')
        plane = planes[key]
        for i in sorted(front, key=lambda i: i in plane):
            c = configs[i]
            x, y = px(c[key]), py(c["tokens_per_second_per_gpu"])
            tip = f'p={c["p"]} t={c["t"]} c={c["c"]} d={c["d"]} {c["recompute"]} {c["strategy"]}'
            colour, r = ("#1f4fb0", 4.5) if i in plane else ("#9cc3f0", 3.5)
            svg.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{colour}"><title>{tip}</title></circle>')
    svg.append("</svg>")
    open(argv[2], "w").write("\n".join(svg) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
