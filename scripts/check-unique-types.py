#!/usr/bin/env python3
"""Fails when two files define a class or struct of the same qualified name.

Two definitions of one name with external linkage break C++'s one-definition rule; the linker keeps
one and silently uses its members for both (ASan found `slimpack::TraceText` and
`slimpack::TraceSource` that way: a destructor of one type run on the other). Types in anonymous
namespaces, nested types and template specialisations are local or scoped and are skipped.

usage: check-unique-types.py [ROOT]   (default: the repository root)
"""
import re
import sys
from collections import defaultdict
from pathlib import Path

DIRS = ("core", "ui", "app", "tests", "bench", "fuzz")
TYPE = re.compile(r"\b(?:class|struct)\s+(?:\[\[[^\]]*\]\]\s*)?([A-Za-z_]\w*)\s*(?:final\s*)?(?::[^;{]*)?\{")
NAMESPACE = re.compile(r"\bnamespace\s*([A-Za-z_][\w:]*)?\s*\{")


def strip(text):
    """Removes comments, string and character literals, and preprocessor lines."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r'R"(\w*)\(.*?\)\1"', '""', text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(?:\\.|[^'\\\n])*'", "''", text)
    return re.sub(r"^\s*#[^\n]*", " ", text, flags=re.M)


def definitions(text):
    """Yields the qualified names of class and struct definitions at named-namespace scope."""
    text = strip(text)
    scopes = []  # one entry per open brace: a namespace name, "" for anonymous, None for other
    i = 0
    while i < len(text):
        c = text[i]
        if c == "}":
            if scopes:
                scopes.pop()
            i += 1
            continue
        if c != "{":
            i += 1
            continue
        head = text[max(0, text.rfind(";", 0, i), text.rfind("}", 0, i), text.rfind("{", 0, i)) : i + 1]
        ns = NAMESPACE.search(head)
        ty = TYPE.search(head)
        at_namespace_scope = all(s is not None for s in scopes)
        anonymous = any(s == "" for s in scopes)
        if ns and ns.end() == len(head):
            scopes.append(ns.group(1) or "")
        else:
            if ty and ty.end() == len(head) and at_namespace_scope and not anonymous:
                if "template" not in head and not re.search(r"\benum\b", head):
                    yield "::".join(scopes + [ty.group(1)])
            scopes.append(None)
        i += 1


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    where = defaultdict(set)
    for d in DIRS:
        for path in sorted((root / d).rglob("*")):
            if path.suffix in (".h", ".hpp", ".cpp", ".cc", ".cu") and path.is_file():
                for name in definitions(path.read_text(errors="replace")):
                    where[name].add(str(path.relative_to(root)))
    clashes = {n: f for n, f in where.items() if len(f) > 1}
    for name, files in sorted(clashes.items()):
        print(f"{name} is defined in more than one file: {', '.join(sorted(files))}")
    if clashes:
        print("rename one, or move a file-local type into an anonymous namespace")
        return 1
    print(f"{len(where)} class and struct names, each defined once")
    return 0


if __name__ == "__main__":
    sys.exit(main())
