#include "verify/common_subterms.h"

#include <algorithm>
#include <map>
#include <set>

#include "ir/definedness.h"
#include "ir/print.h"

namespace eqsat::verify {

namespace {

// A subterm in normal form, with its key (the normal form spelled out with dtypes) and
// the same for its operands: built once per side.
struct Normalized {
  Expr expr;
  std::string key;
  bool total = true;
  std::vector<Normalized> args;
};

Normalized normalize(const Expr& e, FastMath flags) {
  Normalized n;
  if (e.args().empty()) {
    n.expr = e;
    n.key = print(e) + ":" + std::string(dtype_name(e.dtype()));
    n.total = !leaf_may_be_undefined(e, flags);
    return n;
  }
  for (const Expr& arg : e.args()) n.args.push_back(normalize(arg, flags));
  // `and`/`or` commute only when both operands are always defined (the lazy reading
  // reads the second one only when the first does not decide).
  const bool swappable =
      commutes_in_every_reading(e.op(), e.dtype()) ||
      (is_commutative(e.op(), e.dtype()) && n.args.size() == 2 && n.args[0].total && n.args[1].total);
  if (swappable && n.args.size() == 2 && n.args[1].key < n.args[0].key) {
    std::swap(n.args[0], n.args[1]);
  }
  std::vector<Expr> arg_exprs;
  n.key = std::string(op_info(e.op()).name) + ":" + std::string(dtype_name(e.dtype())) + "(";
  n.total = !is_partial(e.op(), e.dtype(), e.arg(0).dtype(), flags);
  for (const Normalized& arg : n.args) {
    arg_exprs.push_back(arg.expr);
    n.key += arg.key + ",";
    n.total = n.total && arg.total;
  }
  n.key += ")";
  n.expr = Expr::make(e.op(), e.dtype(), std::move(arg_exprs));
  return n;
}

void collect_keys(const Normalized& n, std::set<std::string>& keys) {
  keys.insert(n.key);
  for (const Normalized& arg : n.args) collect_keys(arg, keys);
}

void collect_names(const Expr& e, std::set<std::string>& names) {
  if (e.op() == Op::Var) names.insert(e.name());
  for (const Expr& arg : e.args()) collect_names(arg, names);
}

class Abstractor {
 public:
  Abstractor(std::set<std::string> common, std::set<std::string> taken)
      : common_(std::move(common)), taken_(std::move(taken)) {}

  // Top-down: the largest shared subterms are replaced first.
  Expr rewrite(const Normalized& n) {
    if (n.args.empty()) return n.expr;
    if (n.total && common_.count(n.key) > 0) return fresh_for(n);
    std::vector<Expr> args;
    for (const Normalized& arg : n.args) args.push_back(rewrite(arg));
    return Expr::make(n.expr.op(), n.expr.dtype(), std::move(args));
  }

  std::vector<std::pair<std::string, Expr>> abstracted() const { return abstracted_; }

 private:
  Expr fresh_for(const Normalized& n) {
    auto it = fresh_.find(n.key);
    if (it == fresh_.end()) {
      std::string name;
      do {
        name = "_t" + std::to_string(counter_++);
      } while (taken_.count(name) > 0);
      it = fresh_.emplace(n.key, Expr::var(name, n.expr.dtype())).first;
      abstracted_.emplace_back(name, n.expr);
    }
    return it->second;
  }

  std::set<std::string> common_;
  std::set<std::string> taken_;
  std::map<std::string, Expr> fresh_;
  std::vector<std::pair<std::string, Expr>> abstracted_;
  int counter_ = 0;
};

}  // namespace

AbstractedPair abstract_common_subterms(const Expr& input, const Expr& output, FastMath flags) {
  AbstractedPair result;
  const Normalized in = normalize(input, flags);
  const Normalized out = normalize(output, flags);
  if (in.key == out.key) {
    result.input = in.expr;
    result.output = out.expr;
    result.identical = true;
    return result;
  }
  std::set<std::string> in_keys, out_keys, common, taken;
  collect_keys(in, in_keys);
  collect_keys(out, out_keys);
  std::set_intersection(in_keys.begin(), in_keys.end(), out_keys.begin(), out_keys.end(),
                        std::inserter(common, common.begin()));
  // The roots differ (checked above), so neither side becomes a single fresh variable
  // unless its root occurs inside the other side.
  collect_names(input, taken);
  collect_names(output, taken);
  Abstractor abstractor(std::move(common), std::move(taken));
  result.input = abstractor.rewrite(in);
  result.output = abstractor.rewrite(out);
  result.abstracted = abstractor.abstracted();
  return result;
}

}  // namespace eqsat::verify
