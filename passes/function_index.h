// One walk over a function that answers, in O(log N) each, the questions the Simplify
// pass asks about names and places (so that the pass stays within O(N log N)):
//
//   - is a name defined more than once (a parameter, an assignment, a loop variable, a
//     loop-carried or result variable each count)? Such a name is never bound: a value
//     known at one definition is stale after the next.
//   - is a name defined inside a statement (a branch condition on a name the branch then
//     redefines is no fact about the later uses)?
//   - are all uses of a name inside a range of statements (does a folded `if`'s result
//     escape the region its substitution is scoped to)?
//
// Statements are numbered in pre-order; a statement owns the ids [begin, end) of its
// subtree. Statements the index has not seen (made by the pass) get conservative
// answers from the caller.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/stmt.h"

namespace eqsat {

struct StmtSpan {
  int begin = 0;  // the statement's own id
  int end = 0;    // one past the last id of its subtree
};

class FunctionIndex {
 public:
  explicit FunctionIndex(const Function& function);

  bool multi_assigned(const std::string& name) const;
  std::optional<StmtSpan> span(const Stmt& s) const;
  // Whether a definition of `name` lies in the ids [begin, end).
  bool defined_within(const std::string& name, StmtSpan span) const;
  // Whether every use of `name` lies in the ids [begin, end) (true when unused).
  bool used_only_within(const std::string& name, int begin, int end) const;

 private:
  void walk(const Block& block);

  int next_ = 0;
  std::unordered_map<const Stmt*, StmtSpan> spans_;
  std::unordered_map<std::string, int> def_count_;
  std::unordered_map<std::string, std::vector<int>> defs_;
  std::unordered_map<std::string, std::pair<int, int>> uses_;  // smallest and largest id
};

}  // namespace eqsat
