#pragma once
// Shared by the libFuzzer targets: the input as text, and a check that turns a broken invariant
// (a round trip that changes the value, an error without a message) into a crash the fuzzer keeps.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace slimpack::fuzz {

inline std::string as_text(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

inline void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
  std::abort();
}

// Every error the readers return must say something (file, line or path and a reason).
template <class E>
void require_message(const E& expected_or_status, const char* what) {
  if (!expected_or_status.ok()) require(!expected_or_status.error().message.empty(), what);
}

}  // namespace slimpack::fuzz
