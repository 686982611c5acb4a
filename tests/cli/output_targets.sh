#!/usr/bin/env bash
# The output-file rule seen from the command line (`slimpack simulate --json /dev/null`
# as root replaced /dev/null with a regular file). Each case writes slimpack's outputs to one kind of
# target made under a temporary folder (never the machine's own /dev/null) and checks that the
# target is the same kind of file afterwards and got the bytes.
#   output_targets.sh SLIMPACK CASE      CASE: fifo | char-device | fd | dash | symlink | man-page
# Exit 0 = pass, 77 = skipped (CTest SKIP_RETURN_CODE), anything else = fail.
# SLIMPACK_NO_IMAGES=1 (a build without QtGui) leaves out --png/--svg/--pdf.
set -euo pipefail
cli=$1
case_name=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL ($case_name): $*" >&2
  exit 1
}
small=(--preset chat-sft --batch-tokens 65536)
images=1
[ "${SLIMPACK_NO_IMAGES:-0}" = 1 ] && images=0

case "$case_name" in
  fifo)
    # A FIFO with a reader: every output option writes into it in turn; it stays a FIFO.
    mkfifo "$tmp/pipe"
    for opt in --json --trace --out --ops-csv; do
      cat "$tmp/pipe" >"$tmp/got" &
      reader=$!
      "$cli" simulate "${small[@]}" --quiet "$opt" "$tmp/pipe"
      wait "$reader"
      [ -p "$tmp/pipe" ] || fail "$opt replaced the FIFO"
      [ -s "$tmp/got" ] || fail "$opt wrote nothing into the FIFO"
    done
    cat "$tmp/pipe" >"$tmp/got" &
    reader=$!
    "$cli" simulate "${small[@]}" --json "$tmp/pipe"
    wait "$reader"
    grep -q '"iteration_time"' "$tmp/got" || fail "the JSON did not arrive through the FIFO"
    if [ "$images" = 1 ]; then
      cat "$tmp/pipe" >"$tmp/img" &
      reader=$!
      "$cli" simulate "${small[@]}" --quiet --png "$tmp/pipe"
      wait "$reader"
      [ "$(head -c 4 "$tmp/img" | od -An -c | tr -d ' ')" = '211PNG' ] || fail "no PNG through the FIFO"
      [ -p "$tmp/pipe" ] || fail "--png replaced the FIFO"
    fi
    ;;
  char-device)
    if [ "$(id -u)" != 0 ]; then
      echo "SKIP: making a character device with mknod needs root"
      exit 77
    fi
    if ! mknod "$tmp/null" c 1 3 2>"$tmp/err"; then
      echo "SKIP: mknod refused here: $(cat "$tmp/err")"
      exit 77
    fi
    pictures=()
    [ "$images" = 1 ] && pictures=(--png "$tmp/null" --svg "$tmp/null" --pdf "$tmp/null")
    "$cli" simulate "${small[@]}" --json "$tmp/null" --trace "$tmp/null" --out "$tmp/null" \
      --ops-csv "$tmp/null" "${pictures[@]}" >"$tmp/summary"
    "$cli" solve "${small[@]}" --out "$tmp/null" --json "$tmp/null" >"$tmp/summary"
    "$cli" compare "${small[@]}" --strategies fixed,slimpack --json "$tmp/null" \
      --markdown "$tmp/null" >"$tmp/summary"
    "$cli" info --preset chat-sft --json "$tmp/null" >"$tmp/summary"
    "$cli" fit-costs samples/costs/h100-llama-3-8b-layer.csv --out "$tmp/null" >"$tmp/summary"
    [ -c "$tmp/null" ] || fail "the character device was replaced: $(ls -l "$tmp/null")"
    [ "$(stat -c %t,%T "$tmp/null")" = "1,3" ] || fail "the device numbers changed"
    [ "$(ls -A "$tmp" | sort | tr '\n' ' ')" = "err null summary " ] || fail "left files: $(ls -A "$tmp")"
    ;;
  fd)
    # /dev/fd/N of a pipe (what `--json >(jq .)` passes) and /dev/stdout into a pipe.
    "$cli" info --preset chat-sft --json /dev/fd/3 3>&1 1>"$tmp/summary" | cat >"$tmp/got"
    grep -q '"total_tokens"' "$tmp/got" || fail "nothing arrived through /dev/fd/3"
    grep -q 'chat-sft' "$tmp/summary" || fail "the summary went missing"
    "$cli" info --preset chat-sft --json /dev/stdout | cat >"$tmp/got"
    grep -q '"total_tokens"' "$tmp/got" || fail "nothing arrived through /dev/stdout"
    # A redirected stdout that is a regular file is written at its offset, not replaced.
    "$cli" info --preset chat-sft --json /dev/stdout >"$tmp/redirected"
    grep -q '"total_tokens"' "$tmp/redirected" || fail "/dev/stdout into a file lost the JSON"
    grep -q 'chat-sft' "$tmp/redirected" || fail "/dev/stdout into a file lost the summary"
    ;;
  dash)
    # '-' is stdout for every output, pictures included; two on '-' are refused.
    if [ "$images" = 1 ]; then
      "$cli" simulate "${small[@]}" --png - | cat >"$tmp/png"
      [ "$(head -c 4 "$tmp/png" | od -An -c | tr -d ' ')" = '211PNG' ] || fail "--png - wrote no PNG"
    fi
    "$cli" simulate "${small[@]}" --trace - | cat >"$tmp/trace"
    grep -q '"traceEvents"' "$tmp/trace" || fail "--trace - wrote no trace"
    head -c 1 "$tmp/trace" | grep -q '{' || fail "--trace - printed a summary before the trace"
    [ ! -e ./- ] || fail "a file named '-' was made"
    if "$cli" simulate "${small[@]}" --json - --out - >"$tmp/out" 2>"$tmp/err"; then
      fail "--json - --out - was accepted"
    else
      rc=$?
      [ "$rc" = 2 ] || fail "exit $rc instead of 2"
    fi
    grep -q "cannot both be '-'" "$tmp/err" || fail "unexpected message: $(cat "$tmp/err")"
    ;;
  symlink)
    # A link to a regular file keeps pointing there; the target gets the new content.
    mkdir "$tmp/real"
    echo old >"$tmp/real/result.json"
    ln -s real/result.json "$tmp/link.json"
    "$cli" info --preset chat-sft --json "$tmp/link.json" >"$tmp/summary"
    [ -L "$tmp/link.json" ] || fail "the link was replaced by a file"
    [ "$(readlink "$tmp/link.json")" = real/result.json ] || fail "the link points elsewhere"
    grep -q '"total_tokens"' "$tmp/real/result.json" || fail "the target did not get the JSON"
    [ "$(ls -A "$tmp/real")" = result.json ] || fail "left files: $(ls -A "$tmp/real")"
    ;;
  man-page)
    # The man page generator restates the rule in CMake: a FIFO is written in place.
    mkfifo "$tmp/page"
    cat "$tmp/page" >"$tmp/got" &
    reader=$!
    "${CMAKE:-cmake}" -DSLIMPACK="$cli" -DVERSION=0 -DOUT="$tmp/page" -DDATA_DIR=/d -DDOC_DIR=/doc \
      -P cmake/GenerateManPage.cmake
    wait "$reader"
    [ -p "$tmp/page" ] || fail "the man page replaced the FIFO"
    grep -q '^\.TH SLIMPACK 1' "$tmp/got" || fail "no man page came through the FIFO"
    "${CMAKE:-cmake}" -DSLIMPACK="$cli" -DVERSION=0 -DOUT="$tmp/slimpack.1" -DDATA_DIR=/d -DDOC_DIR=/doc \
      -P cmake/GenerateManPage.cmake
    [ "$(ls -A "$tmp" | sort | tr '\n' ' ')" = "got page slimpack.1 " ] || fail "left: $(ls -A "$tmp")"
    ;;
  *)
    fail "unknown case"
    ;;
esac
echo "ok: $case_name"
