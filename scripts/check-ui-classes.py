#!/usr/bin/env python3
"""Counts what each class declared in the given headers holds; fails on a class over the limits.

For every class and struct defined in a header (nested ones too, each counted on its own): its
non-static data members (`int a_, b_;` is two), its methods (declared or defined in the class,
constructors, signals and slots included) and the lines of its declaration (`class X` to the `};`
that closes it). A class that holds too much state or declares too much does more than one job;
scripts/check-ui-size.sh runs this on the headers under ui/. Needs only Python 3.

usage: check-ui-classes.py [--max-members N] [--max-methods N] [--max-lines N] [--top N] FILE...
Prints one line per class over a limit ("FILE:LINE: class NAME has ...") to stderr and exits 1;
otherwise prints "classes N" (how many it counted) and exits 0. --top N prints the N largest
classes by each count first.
"""
import argparse
import re
import sys

HEAD = re.compile(
    r"\b(class|struct)\s+(?:\[\[[^\]]*\]\]\s*)?(?:[A-Z_][A-Z0-9_]*_EXPORT\s+)?([A-Za-z_]\w*)"
    r"\s*(?:final\s*)?(?::(?![:])[^;{}()]*)?\{"
)
ACCESS = re.compile(r"\b(?:public|protected|private|signals|Q_SIGNALS)\s*(?:slots|Q_SLOTS)?\s*:(?!:)")
QT_MACRO = re.compile(r"\bQ_[A-Z_]+\b(?:\s*\([^()]*\))?")
NOT_MEMBER = re.compile(r"^(?:using|typedef|friend|static_assert|template|enum|class|struct|union)\b")
STATIC = re.compile(r"^(?:(?:inline|constexpr|const|mutable|thread_local)\s+)*static\b")
FUNCTION_TAIL = re.compile(
    r"\)\s*(?:const|volatile|noexcept(?:\s*\([^()]*\))?|override|final|&&|&|->\s*[\w:<>,\s*&]+|\s)*$"
)


def blank(match):
    """The matched text as spaces, its newlines kept, so that line numbers stay right."""
    return re.sub(r"[^\n]", " ", match.group(0))


def strip(text):
    """Removes comments, string and character literals, and preprocessor lines (keeping lines)."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", blank, text, flags=re.S)
    text = re.sub(r'R"(\w*)\(.*?\)\1"', blank, text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', blank, text)
    text = re.sub(r"'(?:\\.|[^'\\\n])*'", blank, text)
    return re.sub(r"^[ \t]*#[^\n]*(?:\\\n[^\n]*)*", blank, text, flags=re.M)


def closing(text, i):
    """The index of the brace that closes the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(text) - 1


def top_level(text):
    """`text` with what sits inside (), <> and {} removed (a declaration's outer shape)."""
    out, depth = [], 0
    for c in text:
        if c in "(<{":
            if depth == 0:
                out.append(c)
            depth += 1
        elif c in ")>}":
            depth = max(0, depth - 1)
            if depth == 0:
                out.append(c)
        elif depth == 0:
            out.append(c)
    return "".join(out)


def is_function(stmt):
    """Whether a class-scope declaration (without its body) declares a function."""
    if re.search(r"\boperator\b", stmt):
        return True
    before_init = top_level(stmt).split("=")[0]
    return "(" in before_init


def classify(stmt):
    """("member", count), ("method", 1) or (None, 0) for one class-scope statement."""
    stmt = " ".join(stmt.split())
    if not stmt or NOT_MEMBER.match(stmt):
        return None, 0
    if is_function(stmt):
        return "method", 1
    if STATIC.match(stmt):
        return None, 0
    return "member", top_level(stmt).count(",") + 1


def body_counts(body):
    """Data members and methods declared directly in a class body (nested classes skipped)."""
    members = methods = 0
    stmt = []
    i = 0
    paren = 0
    while i < len(body):
        c = body[i]
        if c == "(":
            paren += 1
        elif c == ")":
            paren -= 1
        if c == "{" and paren == 0:
            head = " ".join("".join(stmt).split())
            end = closing(body, i)
            if re.match(r"^(?:template\s*<.*>\s*)?(?:class|struct|union|enum)\b", head):
                stmt = ["__nested_type__"]  # a declarator after the `}` is still a member
            elif re.search(r"\)\s*:\s*\w", head) and re.search(r"\w\s*$", head):
                # A constructor's initializer list with a brace initializer (`: a_{a}`): its body
                # is the first brace that does not follow a name.
                methods += 1
                stmt = []
                j = end + 1
                while j < len(body):
                    if body[j] == "{":
                        k = j - 1
                        while k >= 0 and body[k].isspace():
                            k -= 1
                        brace_end = closing(body, j)
                        if k < 0 or not (body[k].isalnum() or body[k] == "_"):
                            end = brace_end
                            break
                        j = brace_end
                    j += 1
            elif FUNCTION_TAIL.search(head) or re.search(r"\)\s*:\s*\w", head):
                methods += 1  # a function defined in the class (a constructor's list included)
                stmt = []
            else:
                stmt.append("{}")  # a brace initializer: the statement goes on to its `;`
            i = end + 1
            continue
        if c == ";" and paren == 0:
            text = "".join(stmt)
            if text.startswith("__nested_type__"):
                rest = text[len("__nested_type__") :].strip()
                if rest:
                    members += rest.count(",") + 1
            else:
                kind, n = classify(text)
                if kind == "member":
                    members += n
                elif kind == "method":
                    methods += 1
            stmt = []
        else:
            stmt.append(c)
        i += 1
    return members, methods


def classes(path):
    """Yields (name, line, members, methods, lines) for each class or struct defined in `path`."""
    raw = open(path, encoding="utf-8", errors="replace").read()
    text = strip(raw)
    text = ACCESS.sub(lambda m: " " * len(m.group(0)), text)
    text = QT_MACRO.sub(blank, text)
    for m in HEAD.finditer(text):
        # Not `enum class X {`, and not an elaborated type in a declaration.
        if re.search(r"\benum\s*$", text[max(0, m.start() - 8) : m.start()]):
            continue
        open_brace = m.end() - 1
        end = closing(text, open_brace)
        first = text.count("\n", 0, m.start()) + 1
        last = text.count("\n", 0, end) + 1
        members, methods = body_counts(text[open_brace + 1 : end])
        yield m.group(2), first, members, methods, last - first + 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-members", type=int, default=30)
    ap.add_argument("--max-methods", type=int, default=70)
    ap.add_argument("--max-lines", type=int, default=180)
    ap.add_argument("--top", type=int, default=0)
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    found = []
    for path in args.files:
        for name, line, members, methods, lines in classes(path):
            found.append((path, line, name, members, methods, lines))
    if args.top:
        for label, key in (("data members", 3), ("methods", 4), ("declaration lines", 5)):
            print(f"largest by {label}:")
            for f in sorted(found, key=lambda r: -r[key])[: args.top]:
                print(f"  {f[key]:4d}  {f[2]} ({f[0]}:{f[1]})")
    bad = 0
    for path, line, name, members, methods, lines in found:
        for count, limit, what in (
            (members, args.max_members, "data members"),
            (methods, args.max_methods, "methods"),
            (lines, args.max_lines, "declaration lines"),
        ):
            if count > limit:
                print(f"check-ui-size: {path}:{line}: class {name} has {count} {what} "
                      f"(at most {limit})", file=sys.stderr)
                bad = 1
    print(f"classes {len(found)}")
    return bad


if __name__ == "__main__":
    sys.exit(main())
