#include "verify/guard_terms.h"

#include <algorithm>
#include <map>

#include "verify/pattern_terms.h"

namespace eqsat::verify {

namespace {

// The guard's integers are exact. They are Z3 Ints when the guard reads only INDEX
// (as Int) values; when it reads bit-vector values (INTn, UINTn, or INDEX in the
// fallback) they are bit-vectors wide enough for every value the guard can read
// (2n + 2 bits; an INDEX bound is only limited by the analysis, which keeps it below
// 2^100, so then at least 104), because Z3 mixes Int and bit-vectors (bv2int) very slowly. An
// operation that overflows that width becomes a fresh value: the runtime would have
// overflowed 128 bits or not, and by monotonicity (see guard_terms.h) any value
// covers what it does.
class GuardTranslator {
 public:
  GuardTranslator(const Semantics& semantics, const Guard& guard, const std::vector<PatternVar>& vars,
                  std::span<const z3::expr> var_terms)
      : sem_(semantics),
        ctx_(semantics.ctx()),
        guard_(guard),
        vars_(vars),
        var_terms_(var_terms),
        bounds_(ctx_.bool_val(true)) {
    bits_ = choose_width();
  }

  GuardTerms run() {
    z3::expr holds = eval(guard_.root);
    return {holds && bounds_, named_};
  }

 private:
  bool is_bv(DType t) const { return sem_.is_bv(t); }

  unsigned choose_width() const {
    unsigned widest = 0;
    bool reads_int = false, reads_index = false;
    for (const GuardNode& node : guard_.nodes) {
      const bool reads = node.kind == GuardNode::Kind::ValueOf || node.kind == GuardNode::Kind::Lower ||
                         node.kind == GuardNode::Kind::Upper || node.kind == GuardNode::Kind::Modulus ||
                         node.kind == GuardNode::Kind::Remainder;
      if (!reads) continue;
      const DType t = vars_[node.var].dtype;
      if (t == DType::Index && !is_bv(t)) reads_int = true;
      if (t == DType::Index) reads_index = true;
      if (is_bv(t)) widest = std::max(widest, t == DType::Index ? sem_.index_bits() : unsigned(bit_width(t)));
    }
    if (reads_int || widest == 0) return 0;  // Int
    const unsigned bits = reads_index ? std::max(2 * widest + 2, 104u) : 2 * widest + 2;
    const Int half = Int(1) << (std::min(bits, 127u) - 1);
    for (const GuardNode& node : guard_.nodes) {
      if (node.kind == GuardNode::Kind::Literal && (node.literal >= half || node.literal < -half)) return 0;
    }
    return bits;
  }

  z3::expr literal(Int v) const {
    if (bits_ == 0) return ctx_.int_val(to_string(v).c_str());
    return z3::int2bv(bits_, ctx_.int_val(to_string(v).c_str())).simplify();
  }

  // The integer value of variable `var` in the guard's domain, if it has one.
  std::optional<z3::expr> value_of(uint32_t var) const {
    const DType t = vars_[var].dtype;
    const z3::expr& term = var_terms_[var];
    if (bits_ == 0) return sem_.integer_value(term, t);
    if (is_float(t)) return std::nullopt;
    if (t == DType::Bool) return z3::ite(term, literal(1), literal(0));
    const unsigned n = term.get_sort().bv_size();
    const bool is_signed = t == DType::Index || is_signed_int(t);
    return is_signed ? z3::sext(term, bits_ - n) : z3::zext(term, bits_ - n);
  }

  z3::sort int_sort() const { return bits_ == 0 ? ctx_.int_sort() : ctx_.bv_sort(bits_); }

  // A fresh named term, created once per name.
  z3::expr fresh(const std::string& name, const z3::sort& sort) {
    auto it = fresh_.find(name);
    if (it != fresh_.end()) return it->second;
    z3::expr term = ctx_.constant(("guard!" + name).c_str(), sort);
    fresh_.emplace(name, term);
    named_.emplace_back(name, term);
    return term;
  }

  z3::expr overflow_value() {
    return ctx_.constant(("guard!overflow" + std::to_string(overflows_++)).c_str(), int_sort());
  }

  z3::expr le(const z3::expr& a, const z3::expr& b) const { return bits_ == 0 ? a <= b : z3::sle(a, b); }
  z3::expr lt(const z3::expr& a, const z3::expr& b) const { return bits_ == 0 ? a < b : z3::slt(a, b); }

  z3::expr bound(bool is_lower, uint32_t var) {
    const PatternVar& v = vars_[var];
    const std::string name = std::string(is_lower ? "lower(" : "upper(") + v.name + ")";
    const bool first = !fresh_.count(name);
    z3::expr b = fresh(name, int_sort());
    if (first) {
      if (std::optional<z3::expr> value = value_of(var)) {
        bounds_ = bounds_ && (is_lower ? le(b, *value) : le(*value, b));
        // The analysis keeps a fixed-width class's interval within its dtype.
        if (is_fixed_width_int(v.dtype) || v.dtype == DType::Bool) {
          bounds_ = bounds_ && (is_lower ? le(literal(dtype_min(v.dtype)), b) : le(b, literal(dtype_max(v.dtype))));
        }
      }
    }
    return b;
  }

  // modulus(x), remainder(x): fresh m and r with m >= 1, 0 <= r < m and x ≡ r (mod m),
  // one pair per variable (egraph/congruence.h; the runtime's "nothing known" is 1, 0).
  z3::expr congruence(bool is_modulus, uint32_t var) {
    const PatternVar& v = vars_[var];
    const std::string m_name = "modulus(" + v.name + ")", r_name = "remainder(" + v.name + ")";
    const bool first = !fresh_.count(m_name);
    z3::expr m = fresh(m_name, int_sort());
    z3::expr r = fresh(r_name, int_sort());
    if (first) {
      bounds_ = bounds_ && le(literal(1), m) && le(literal(0), r) && lt(r, m);
      if (std::optional<z3::expr> value = value_of(var)) {
        if (bits_ == 0) {
          bounds_ = bounds_ && z3::mod(*value - r, m) == 0;
        } else {  // one bit wider: x - r cannot overflow
          bounds_ = bounds_ && z3::smod(z3::sext(*value, 1) - z3::sext(r, 1), z3::sext(m, 1)) ==
                                   z3::int2bv(bits_ + 1, ctx_.int_val(0)).simplify();
        }
      }
    }
    return is_modulus ? m : r;
  }

  z3::expr checked(const z3::expr& value, const z3::expr& ok) { return z3::ite(ok, value, overflow_value()); }

  z3::expr fits(const z3::expr& wide) const {
    return z3::sext(wide.extract(bits_ - 1, 0), wide.get_sort().bv_size() - bits_) == wide;
  }

  z3::expr arith(Op op, const z3::expr& a, const z3::expr& b) {
    if (bits_ == 0) {
      switch (op) {
        case Op::Add:
          return a + b;
        case Op::Sub:
          return a - b;
        case Op::Mul:
          return a * b;
        default:
          break;
      }
    } else {
      switch (op) {
        case Op::Add:
          return checked(a + b, fits(z3::sext(a, 1) + z3::sext(b, 1)));
        case Op::Sub:
          return checked(a - b, fits(z3::sext(a, 1) - z3::sext(b, 1)));
        case Op::Mul:
          return checked(a * b, fits(z3::sext(a, bits_) * z3::sext(b, bits_)));
        default:
          break;
      }
    }
    switch (op) {
      case Op::Min:
        return z3::ite(le(a, b), a, b);
      case Op::Max:
        return z3::ite(le(b, a), a, b);
      case Op::FloorDiv:
      case Op::FloorMod: {
        // Python's floor division, as the guard evaluator computes it; a zero divisor
        // is unknown there, so whatever Z3 gives covers it.
        Conditions ignored(ctx_);
        const IndexModel model = bits_ == 0 ? IndexModel::Integer : IndexModel::BitVector;
        Semantics integers(ctx_, model, bits_ == 0 ? 64 : bits_);
        // The rule's own Semantics when it also reads INDEX as Int: its definitions
        // (asserted by the caller) then relate the guard's divisions to the rule's.
        const bool shared = bits_ == 0 && sem_.index_model() == IndexModel::Integer;
        const Semantics& s = shared ? sem_ : integers;
        const z3::expr args[] = {a, b};
        const DType types[] = {DType::Index, DType::Index};
        const z3::expr q = s.apply(op, DType::Index, args, types, ignored);
        if (!shared) bounds_ = bounds_ && integers.definitions();  // defines its fresh terms, if any
        return bits_ == 0 ? q : checked(q, ignored.fits);
      }
      case Op::BitAnd: {
        if (bits_ != 0) return a & b;
        return z3::bv2int(z3::int2bv(128, a) & z3::int2bv(128, b), true);  // 128-bit two's complement
      }
      default:
        throw std::logic_error("operation not allowed in a guard");
    }
  }

  z3::expr eval(uint32_t index) {
    const GuardNode& node = guard_.nodes[index];
    switch (node.kind) {
      case GuardNode::Kind::Literal:
        return literal(node.literal);
      case GuardNode::Kind::ValueOf:
        if (std::optional<z3::expr> value = value_of(node.var)) return *value;
        return fresh(vars_[node.var].name, int_sort());  // a float constant: unknown at runtime
      case GuardNode::Kind::Lower:
        return bound(true, node.var);
      case GuardNode::Kind::Upper:
        return bound(false, node.var);
      case GuardNode::Kind::Modulus:
        return congruence(true, node.var);
      case GuardNode::Kind::Remainder:
        return congruence(false, node.var);
      case GuardNode::Kind::IsConst:
        return fresh("is_const(" + vars_[node.var].name + ")", ctx_.bool_sort());
      case GuardNode::Kind::Total: {
        // What the analysis knows implies that x is defined here; not knowing it
        // says nothing.
        z3::expr known = fresh("total(" + vars_[node.var].name + ")", ctx_.bool_sort());
        bounds_ = bounds_ && z3::implies(known, variable_defined(ctx_, vars_[node.var].name));
        return known;
      }
      case GuardNode::Kind::Apply:
        break;
    }
    std::vector<z3::expr> a;
    for (uint32_t child : node.children) a.push_back(eval(child));
    const z3::expr zero = literal(0);
    switch (node.op) {
      case Op::Not:
        return !a[0];
      case Op::And:
        return a[0] && a[1];
      case Op::Or:
        return a[0] || a[1];
      case Op::Neg:
        return arith(Op::Sub, zero, a[0]);
      case Op::Abs:
        return z3::ite(lt(a[0], zero), arith(Op::Sub, zero, a[0]), a[0]);
      case Op::Eq:
        return a[0] == a[1];
      case Op::Ne:
        return a[0] != a[1];
      case Op::Lt:
        return lt(a[0], a[1]);
      case Op::Le:
        return le(a[0], a[1]);
      case Op::Gt:
        return lt(a[1], a[0]);
      case Op::Ge:
        return le(a[1], a[0]);
      default:
        return arith(node.op, a[0], a[1]);
    }
  }

  const Semantics& sem_;
  z3::context& ctx_;
  const Guard& guard_;
  const std::vector<PatternVar>& vars_;
  std::span<const z3::expr> var_terms_;
  unsigned bits_ = 0;  // 0: Z3 Int
  z3::expr bounds_;
  std::map<std::string, z3::expr> fresh_;
  std::vector<std::pair<std::string, z3::expr>> named_;
  int overflows_ = 0;
};

}  // namespace

GuardTerms translate_guard(const Semantics& semantics, const Guard& guard, const std::vector<PatternVar>& vars,
                           std::span<const z3::expr> var_terms) {
  return GuardTranslator(semantics, guard, vars, var_terms).run();
}

}  // namespace eqsat::verify
