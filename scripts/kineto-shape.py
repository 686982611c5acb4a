#!/usr/bin/python3
"""Prints the shape of a Chrome / Kineto trace, plain or gzipped, so that the traces of
scripts/make-kineto-trace.py can be held against real ones (docs/performance.md): the share of
events by "ph" and by "cat", bytes of JSON text per event, args per event, name lengths, the
categories of flow events, how timestamps are written and how the text is laid out.

The parser's cost follows these numbers (bytes and fields per event, how numbers look), which is
why a benchmark trace must match them rather than just the event count.

Usage:
  kineto-shape.py TRACE [TRACE ...]          one block of statistics per file
  kineto-shape.py --row LABEL TRACE          one Markdown row for the table in docs/performance.md
"""
import collections
import gzip
import json
import re
import sys

# A timestamp as written in the text: integer microseconds (older Kineto) or a float with a
# fractional part (Kineto since 2023 writes "%.3f"). Counted in the raw text because json.loads
# turns "12.000" into 12.0 and hides the difference the parser sees.
TS_RE = re.compile(rb'"ts":\s*(-?\d+)(\.\d+)?')


def read_text(path):
    """The trace's JSON text as bytes, inflating .gz files (by magic, not by name)."""
    with open(path, "rb") as f:
        head = f.read(2)
    opener = gzip.open if head == b"\x1f\x8b" else open
    with opener(path, "rb") as f:
        return f.read()


def events_of(doc):
    """The event list, whether the file is {"traceEvents": [...]} or a bare array."""
    return doc.get("traceEvents", []) if isinstance(doc, dict) else doc


def share(counter, total, top=None):
    """"key pct%" pairs, largest first, as a compact string."""
    items = counter.most_common(top)
    return ", ".join("%s %.1f%%" % (k, 100.0 * v / total) for k, v in items)


def ts_format(text):
    """Counts of integer and fractional timestamps, and the digits after the point."""
    ints = floats = 0
    decimals = collections.Counter()
    for m in TS_RE.finditer(text):
        if m.group(2):
            floats += 1
            decimals[len(m.group(2)) - 1] += 1
        else:
            ints += 1
    return ints, floats, decimals


def layout(text, n_events):
    """Lines per event: about 1 for one event a line, 5-10 for Kineto's pretty-printing."""
    return text.count(b"\n") / max(n_events, 1)


def shape(path):
    """All the statistics of one file, as a dict (printed by report() or row())."""
    text = read_text(path)
    events = events_of(json.loads(text))
    n = len(events)
    ph = collections.Counter(str(e.get("ph")) for e in events)
    cat = collections.Counter(str(e.get("cat", "(none)")) for e in events)
    flows = collections.Counter(str(e.get("cat", "(none)")) for e in events
                                if e.get("ph") in ("s", "t", "f"))
    with_args = [e["args"] for e in events if isinstance(e.get("args"), dict)]
    names = [len(str(e.get("name", ""))) for e in events]
    kernels = [len(str(e.get("name", ""))) for e in events if e.get("cat") == "kernel"]
    ints, floats, decimals = ts_format(text)
    return {
        "path": path, "bytes": len(text), "events": n, "ph": ph, "cat": cat, "flows": flows,
        "bytes_per_event": len(text) / max(n, 1),
        "args_per_event": sum(len(a) for a in with_args) / max(n, 1),
        "with_args": len(with_args) / max(n, 1),
        "name_mean": sum(names) / max(n, 1),
        "kernel_name_mean": sum(kernels) / len(kernels) if kernels else 0.0,
        "ts_int": ints, "ts_float": floats, "decimals": decimals,
        "lines_per_event": layout(text, n),
    }


def ts_summary(s):
    total = s["ts_int"] + s["ts_float"]
    if not total:
        return "none"
    if not s["ts_float"]:
        return "integer"
    digits = "/".join(str(d) for d, _ in s["decimals"].most_common(2))
    if not s["ts_int"]:
        return "float (%s decimals)" % digits
    return "%.0f%% integer, float (%s decimals)" % (100.0 * s["ts_int"] / total, digits)


def report(s):
    n = max(s["events"], 1)
    print("%s" % s["path"])
    print("  %.1f MB of JSON text, %d events, %.0f bytes/event, %.1f lines/event"
          % (s["bytes"] / 1e6, s["events"], s["bytes_per_event"], s["lines_per_event"]))
    print("  ph:    %s" % share(s["ph"], n))
    print("  cat:   %s" % share(s["cat"], n, 12))
    print("  flows: %s" % (", ".join("%s %d" % kv for kv in s["flows"].most_common()) or "none"))
    print("  args:  %.2f keys/event (%.0f%% of events have args)"
          % (s["args_per_event"], 100.0 * s["with_args"]))
    print("  names: %.0f chars mean, kernel names %.0f chars mean"
          % (s["name_mean"], s["kernel_name_mean"]))
    print("  ts:    %s" % ts_summary(s))


def pct(counter, key, n):
    return 100.0 * counter.get(key, 0) / max(n, 1)


def row(label, s):
    """One row of the shape table: the columns docs/performance.md compares."""
    n = s["events"]
    c = s["cat"]
    print("| %s | %.1f | %d | %.0f | %.0f / %.0f / %.0f / %.0f | %.0f / %.0f / %.0f / %.0f / %.0f "
          "| %.1f | %.0f / %.0f | %s | %s | %.1f |" % (
              label, s["bytes"] / 1e6, n, s["bytes_per_event"],
              pct(s["ph"], "X", n), pct(s["ph"], "i", n) + pct(s["ph"], "I", n),
              pct(s["ph"], "s", n) + pct(s["ph"], "f", n), pct(s["ph"], "M", n),
              pct(c, "cpu_op", n), pct(c, "python_function", n), pct(c, "cuda_runtime", n)
              + pct(c, "cuda_driver", n), pct(c, "kernel", n), pct(c, "cpu_instant_event", n),
              s["args_per_event"], s["name_mean"], s["kernel_name_mean"],
              ", ".join(s["flows"]) or "none", ts_summary(s), s["lines_per_event"]))


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    if args[0] == "--row":
        if len(args) != 3:
            sys.exit(__doc__)
        row(args[1], shape(args[2]))
        return
    for path in args:
        report(shape(path))


if __name__ == "__main__":
    main()
