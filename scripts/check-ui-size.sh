#!/usr/bin/env bash
# Keeps the GUI's files small enough to read in one sitting: no file under ui/ over 400 lines, and
# no constructor in ui/ (`Class::Class(` at column 0 to the brace that closes its body) over 60
# lines; a longer one builds its rows or parts in helpers. And its classes to one job each: no
# class or struct declared in a ui/ header with more than 30 data members, 70 methods or 180
# declaration lines (scripts/check-ui-classes.py counts them); a class over them is split into
# parts that each do one thing, as MainWindow (32 data members) was. Exits 1 and names each file,
# line, constructor and class over the limits; prints one OK line otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
max_file=400
max_ctor=60
max_members=30
max_methods=70
max_class_lines=180
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
# Per class: data members, methods and declaration lines (offenders go to stderr).
headers=()
for f in "${files[@]}"; do [[ -f $f && $f == *.h ]] && headers+=("$f"); done
if class_out=$(python3 scripts/check-ui-classes.py --max-members "$max_members" \
  --max-methods "$max_methods" --max-lines "$max_class_lines" ${headers[@]+"${headers[@]}"}); then
  :
else
  bad=1
fi
classes=$(sed -n 's/^classes //p' <<<"$class_out")
if ((bad)); then
  echo "check-ui-size: FAILED: split the file, move the constructor's parts into helpers, or split" \
    "the class into parts with one job each" >&2
  exit 1
fi
echo "check-ui-size: OK: ${#files[@]} files under ui/ within $max_file lines, $ctors constructors" \
  "within $max_ctor lines, ${classes:-0} classes within $max_members data members, $max_methods" \
  "methods and $max_class_lines declaration lines"
