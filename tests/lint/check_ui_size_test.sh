#!/usr/bin/env bash
# scripts/check-ui-size.sh on small fake trees: passes within its limits, and fails (exit 1, naming
# file, line and limit) on a file, a constructor or a class over them. Each tree is a temporary git
# repository holding a copy of the two scripts, so that the check reads only the fake ui/.
#
# usage: check_ui_size_test.sh SOURCE_DIR
set -euo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# A fresh tree with the scripts and ui/window/ (files come from the caller).
new_tree() {
  rm -rf "$tmp/tree"
  mkdir -p "$tmp/tree/scripts" "$tmp/tree/ui/window"
  cp "$src/scripts/check-ui-size.sh" "$src/scripts/check-ui-classes.py" "$tmp/tree/scripts/"
  git -C "$tmp/tree" init -q
}

# expect NAME RC PATTERN: runs the check, wants exit code RC and PATTERN in its output.
expect() {
  local name=$1 want_rc=$2 pattern=$3 rc=0 out
  out=$(bash "$tmp/tree/scripts/check-ui-size.sh" 2>&1) || rc=$?
  if [[ $rc -ne $want_rc ]] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL $name: exit $rc (wanted $want_rc), output:"
    echo "$out"
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}

# A class of `n` data members of the kinds the count must get right: plain, several declarators on
# one line, brace-initialised and std::function (parentheses inside a template), next to what is
# not a data member (methods declared or defined in the class, a static constant, a nested enum and
# struct, Qt's macros and signal sections).
write_class() {
  local name=$1 n=$2 file=$3
  {
    echo "#pragma once"
    echo "#include <QObject>"
    echo "#include <functional>"
    echo "class $name : public QObject {"
    echo "  Q_OBJECT"
    echo " public:"
    echo "  explicit $name(QObject* parent = nullptr);"
    echo "  int value() const { return a0_; }"
    echo "  void setValue(int v) {"
    echo "    if (v > 0) { a0_ = v; }"
    echo "  }"
    echo "  $name(const $name&) = delete;"
    echo "  $name& operator=(const $name&) = delete;"
    echo "  static constexpr int kLimit = 3;"
    echo "  enum class Kind { A, B };"
    echo "  struct Part {"
    echo "    int x = 0;"
    echo "  };"
    echo " signals:"
    echo "  void changed(int value);  // a comment; with a semicolon"
    echo " private:"
    echo "  std::function<void(int, int)> callback_;"
    echo "  int b1_ = 0, b2_ = 0;"
    echo "  QString label_{\"a;b{\"};"
    local i
    for ((i = 0; i < n - 4; i++)); do echo "  int a${i}_ = 0;"; done
    echo "};"
  } >"$file"
}

new_tree
write_class Small 30 "$tmp/tree/ui/window/small.h"
# Two classes: Small and its nested Part.
expect "a class of 30 data members passes" 0 "OK: 1 files .* 2 classes within 30 data members"

new_tree
write_class Small 30 "$tmp/tree/ui/window/small.h"
write_class Big 31 "$tmp/tree/ui/window/big.h"
expect "a class of 31 data members fails" 1 \
  "ui/window/big.h:4: class Big has 31 data members \(at most 30\)"

new_tree
{
  echo "class Chatty {"
  echo " public:"
  for ((i = 0; i < 71; i++)); do echo "  void m$i();"; done
  echo "};"
} >"$tmp/tree/ui/window/chatty.h"
expect "a class of 71 methods fails" 1 "ui/window/chatty.h:1: class Chatty has 71 methods \(at most 70\)"

new_tree
{
  echo "struct Long {"
  for ((i = 0; i < 180; i++)); do echo "  // line $i"; done
  echo "};"
} >"$tmp/tree/ui/window/long.h"
expect "a declaration of 182 lines fails" 1 \
  "ui/window/long.h:1: class Long has 182 declaration lines \(at most 180\)"

new_tree
{
  echo "Wide::Wide() {"
  for ((i = 0; i < 60; i++)); do echo "  step($i);"; done
  echo "}"
} >"$tmp/tree/ui/window/wide.cpp"
expect "a constructor of 62 lines fails" 1 "ui/window/wide.cpp:1: constructor Wide::Wide is 62 lines"

if ((failures)); then
  echo "$failures case(s) failed"
  exit 1
fi
echo "check-ui-size: every case as expected"
