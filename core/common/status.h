#pragma once
// Status values instead of exceptions: core functions return Expected<T>, whose error names the
// file, line or field and the reason. Exceptions stay at I/O boundaries and never cross threads.
#include <cassert>
#include <optional>
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

// What an infeasible result ran into, as values: callers show or compare these numbers instead of
// reading them back out of the message (which says the same in words).
enum class Limit {
  StageMemory,   // a stage's peak bytes over the memory cap (rule L4); needed/cap in bytes
  TokenCap,      // a pack over the token cap (rule L5); needed/cap in tokens
  StaticMemory,  // weights, gradients and optimizer state alone over the cap; bytes
  Solver,        // the solver found no plan within its search (no single number)
};
const char* limit_name(Limit limit);  // "stage memory", "token cap", ...

struct InfeasibleDetail {
  Limit limit = Limit::Solver;
  int stage = -1;        // the pipeline stage, -1 when not about one stage
  int replica = -1;      // the data-parallel replica, -1 when not about one
  double needed = 0.0;   // what the plan needs, in the limit's unit (0 for Solver)
  double cap = 0.0;      // the limit, in the same unit
  std::string sequence;  // the sequence's id when one sequence cannot be placed
  bool operator==(const InfeasibleDetail&) const = default;
};

struct Error {
  ErrorKind kind = ErrorKind::Internal;
  std::string message;
  // BadInput about one setting: its field name as the scenario functions spell it ("memory cap",
  // "parallel.stage_layers") and the reason without that name. Front ends name the setting their
  // own way (core/app/config_options.h) from these, never by reading the message. Empty otherwise.
  std::string field;
  std::string field_reason;
  // Infeasible: the limit that binds, when one does.
  std::optional<InfeasibleDetail> detail;

  Error() = default;
  Error(ErrorKind k, std::string msg) : kind(k), message(std::move(msg)) {}

  static Error bad_input(std::string msg) { return {ErrorKind::BadInput, std::move(msg)}; }
  // "<field>: <reason>", with both kept as values.
  static Error bad_field(std::string field, std::string reason) {
    Error e{ErrorKind::BadInput, field + ": " + reason};
    e.field = std::move(field);
    e.field_reason = std::move(reason);
    return e;
  }
  static Error infeasible(std::string msg) { return {ErrorKind::Infeasible, std::move(msg)}; }
  static Error infeasible(std::string msg, InfeasibleDetail d) {
    Error e{ErrorKind::Infeasible, std::move(msg)};
    e.detail = std::move(d);
    return e;
  }
  static Error cancelled() { return {ErrorKind::Cancelled, "cancelled"}; }
  static Error internal(std::string msg) { return {ErrorKind::Internal, std::move(msg)}; }

  // Returns a copy whose message is prefixed with a context, e.g. a file name: "file.csv: ...".
  // The infeasible detail stays; the field goes, since the message is no longer about the bare
  // setting (a session file's error names its JSON path itself).
  Error with_context(const std::string& ctx) const {
    Error e{kind, ctx + ": " + message};
    e.detail = detail;
    return e;
  }
  // The same error with another message (the kind and the typed parts kept).
  Error reworded(std::string msg) const {
    Error e = *this;
    e.message = std::move(msg);
    return e;
  }
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
