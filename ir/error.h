// Expected failures at the edges (bad input text, ill-typed expressions) are values,
// not exceptions: a `Result<T>` holds either the value or an `Error` with a position.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace eqsat {

struct Error {
  std::string message;  // the reason, for a person ("expected ')'", "unknown name 'foo'")
  int column = 0;       // 1-based column in the input line; 0 when no position applies
  int line = 0;         // 1-based line for multi-line inputs; 0 when not applicable

  // "column 7: expected ')'" (or "line 3, column 7: ..."), the form every tool prints.
  std::string describe() const {
    std::string where;
    if (line > 0) where = "line " + std::to_string(line) + (column > 0 ? ", " : ": ");
    if (column > 0) where += "column " + std::to_string(column) + ": ";
    return where + message;
  }
};

template <class T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}
  Result(Error error) : state_(std::move(error)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  const T& value() const& {
    assert(ok() && "value() of a failed Result");
    return std::get<0>(state_);
  }
  T&& value() && {
    assert(ok() && "value() of a failed Result");
    return std::get<0>(std::move(state_));
  }
  const Error& error() const {
    assert(!ok() && "error() of a successful Result");
    return std::get<1>(state_);
  }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Error> state_;
};

}  // namespace eqsat
