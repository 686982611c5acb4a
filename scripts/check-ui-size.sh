#!/usr/bin/env bash
# Keeps the GUI's files small enough to read in one sitting: no file under ui/ over 400 lines, and
# no constructor in ui/ (`Class::Class(` at column 0 to the brace that closes its body) over 60
# lines; a longer one builds its rows or parts in helpers. Exits 1 and names each file, line and
# constructor over the limits; prints one OK line otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
max_file=400
max_ctor=60
# Tracked files and new ones not yet added (but not ignored build outputs).
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- ui/ | sort -u)
bad=0
ctors=0
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  lines=$(wc -l <"$f")
  if ((lines > max_file)); then
    echo "check-ui-size: $f: $lines lines (at most $max_file)" >&2
    bad=1
  fi
  [[ $f == *.cpp ]] || continue
  # One line per constructor: "LINE NAME LENGTH". Braces in strings, characters and // comments
  # do not count; a constructor without a body (= default;) is skipped.
  while read -r line name length; do
    ctors=$((ctors + 1))
    if ((length > max_ctor)); then
      echo "check-ui-size: $f:$line: constructor $name is $length lines (at most $max_ctor)" >&2
      bad=1
    fi
  done < <(awk '
    function is_ctor(text,   head, parts, n) {
      if (text !~ /^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)+\(/) return ""
      head = substr(text, 1, index(text, "(") - 1)
      n = split(head, parts, "::")
      return parts[n] == parts[n - 1] ? head : ""
    }
    name == "" { name = is_ctor($0); if (name == "") next; start = FNR; depth = 0; opened = 0 }
    {
      code = $0
      gsub(/"([^"\\]|\\.)*"/, "", code)
      gsub(/'\''([^'\''\\]|\\.)*'\''/, "", code)
      sub(/\/\/.*/, "", code)
      for (i = 1; i <= length(code); i++) {
        c = substr(code, i, 1)
        if (c == "{") { depth++; opened = 1 }
        else if (c == "}") depth--
      }
      if (!opened && code ~ /;[ \t]*$/) { name = ""; next }
      if (opened && depth == 0) { print start, name, FNR - start + 1; name = "" }
    }' "$f")
done
if ((bad)); then
  echo "check-ui-size: FAILED: split the file or move the constructor's parts into helpers" >&2
  exit 1
fi
echo "check-ui-size: OK: ${#files[@]} files under ui/ within $max_file lines, $ctors constructors within $max_ctor lines"
