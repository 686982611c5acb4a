#pragma once
// Status values instead of exceptions: core functions return Expected<T>, whose error names the
// file, line or field and the reason. Exceptions stay at I/O boundaries and never cross threads.
#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace slimpack {

enum class ErrorKind {
  BadInput,    // user input is malformed or out of range (CLI exit 2)
  Infeasible,  // the request cannot be satisfied (e.g. a sequence fits no stage memory)
  Cancelled,   // the cancel token fired: an ordinary outcome
  Internal,    // a bug or an unexpected condition (CLI exit 1)
};

struct Error {
  ErrorKind kind = ErrorKind::Internal;
  std::string message;

  static Error bad_input(std::string msg) { return {ErrorKind::BadInput, std::move(msg)}; }
  static Error infeasible(std::string msg) { return {ErrorKind::Infeasible, std::move(msg)}; }
  static Error cancelled() { return {ErrorKind::Cancelled, "cancelled"}; }
  static Error internal(std::string msg) { return {ErrorKind::Internal, std::move(msg)}; }

  // Returns a copy whose message is prefixed with a context, e.g. a file name: "file.csv: ...".
  Error with_context(const std::string& ctx) const { return {kind, ctx + ": " + message}; }
};

// A minimal std::expected stand-in (C++23 is not available with GCC 12).
template <class T>
class Expected {
 public:
  Expected(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Expected(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & {
    assert(ok());
    return std::get<0>(v_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<0>(v_);
  }
  T&& value() && {
    assert(ok());
    return std::get<0>(std::move(v_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const {
    assert(!ok());
    return std::get<1>(v_);
  }

 private:
  std::variant<T, Error> v_;
};

// Expected<void> equivalent.
class Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT
  static Status success() { return {}; }
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const {
    assert(!ok_);
    return error_;
  }

 private:
  Error error_;
  bool ok_ = true;
};

}  // namespace slimpack
