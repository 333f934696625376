#include "verify/random_case.h"

#include <array>
#include <cctype>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace eqsat::verify {

namespace {

// SplitMix64 (Steele, Lea, Flood 2014): tiny, and the same stream everywhere.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) (the modulo bias is irrelevant for n this small).
  uint64_t below(uint64_t n) { return next() % n; }
  int64_t between(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(below(static_cast<uint64_t>(hi - lo + 1)));
  }
  bool chance(int percent) { return below(100) < static_cast<uint64_t>(percent); }
  template <typename T, std::size_t N>
  const T& pick(const std::array<T, N>& items) {
    return items[below(N)];
  }

 private:
  uint64_t state_;
};

// The dtypes a case is about; INDEX most often, since it is what index arithmetic uses.
constexpr std::array kFixedWidth = {DType::Int8,  DType::Int16,  DType::Int32,  DType::Int64,
                                    DType::UInt8, DType::UInt16, DType::UInt32, DType::UInt64};
constexpr std::array kFloats = {DType::FP16, DType::BF16, DType::FP32, DType::FP64};

class Generator {
 public:
  Generator(Rng& rng, const RandomCaseOptions& options) : rng_(rng), options_(options) {}

  RandomCase make() {
    const uint64_t family = rng_.below(100);
    DType root;
    if (family < 45) {
      root = DType::Index;
    } else if (family < 75) {
      root = rng_.pick(kFixedWidth);
    } else if (family < 90) {
      root = DType::Bool;
      integer_ = rng_.chance(60) ? DType::Index : rng_.pick(kFixedWidth);
    } else {
      root = rng_.pick(kFloats);
    }
    if (root != DType::Bool) integer_ = is_integer(root) ? root : DType::Index;
    float_ = is_float(root) ? root : DType::FP32;

    RandomCase result;
    result.input = expr(root, options_.max_depth);
    add_bounds(result.facts);
    add_assumptions(result.facts);
    for (const auto& [name, dtype] : declared_) {
      if (dtype != DType::Index) result.facts.var_dtypes[name] = dtype;
    }
    return result;
  }

 private:
  // Variables: three per dtype, so that subterms share variables and can cancel. The
  // case's own integer and float dtypes get the short names; another dtype (the operand
  // of a cast) gets a suffix, so that a name never has two dtypes.
  Expr var(DType dtype) {
    static constexpr std::array kIndexNames = {"x", "y", "z"};
    static constexpr std::array kIntNames = {"a", "b", "c"};
    static constexpr std::array kFloatNames = {"f", "g", "h"};
    static constexpr std::array kBoolNames = {"p", "q", "r"};
    std::string name;
    if (dtype == DType::Index) {
      name = rng_.pick(kIndexNames);
    } else if (dtype == DType::Bool) {
      name = rng_.pick(kBoolNames);
    } else if (is_float(dtype)) {
      name = rng_.pick(kFloatNames);
    } else {
      name = rng_.pick(kIntNames);
    }
    if (dtype != DType::Index && dtype != DType::Bool && dtype != integer_ && dtype != float_) {
      name += "_";
      for (char ch : dtype_name(dtype)) name += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    declared_.emplace_back(name, dtype);
    return Expr::var(name, dtype);
  }

  Value integer_constant(DType dtype) {
    if (dtype == DType::Index) {
      static constexpr std::array<int64_t, 12> kCommon = {0, 1, -1, 2, 3, 4, 7, 8, 16, -4, 64, 1024};
      return Value::integer(dtype, rng_.chance(60) ? rng_.pick(kCommon) : rng_.between(-40, 40));
    }
    // The edges of the dtype are where wrap-around shows.
    switch (rng_.below(5)) {
      case 0:
        return Value::integer(dtype, dtype_max(dtype));
      case 1:
        return Value::integer(dtype, dtype_min(dtype));
      case 2:
        return Value::integer(dtype, Int(1) << (bit_width(dtype) - 1));
      default:
        return Value::integer(dtype, rng_.between(-9, 9));
    }
  }

  Value float_constant(DType dtype) {
    static constexpr std::array<double, 9> kValues = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -2.5, 1e30};
    if (rng_.chance(8)) return Value::floating(dtype, std::numeric_limits<double>::infinity());
    if (rng_.chance(5)) return Value::floating(dtype, std::numeric_limits<double>::quiet_NaN());
    return Value::floating(dtype, rng_.pick(kValues));
  }

  Expr constant(DType dtype) {
    if (dtype == DType::Bool) return Expr::constant(Value::boolean(rng_.chance(50)));
    if (is_float(dtype)) return Expr::constant(float_constant(dtype));
    return Expr::constant(integer_constant(dtype));
  }

  Expr leaf(DType dtype) { return rng_.chance(70) ? var(dtype) : constant(dtype); }

  // A divisor or shift amount: a constant most of the time, as in index arithmetic.
  Expr small_operand(DType dtype, int depth, int64_t lo, int64_t hi) {
    if (rng_.chance(80)) return Expr::constant(Value::integer(dtype, rng_.between(lo, hi)));
    return expr(dtype, depth - 1);
  }

  Expr expr(DType dtype, int depth) {
    if (depth <= 0 || rng_.chance(25)) return leaf(dtype);
    if (dtype == DType::Bool) return boolean(depth);
    if (is_float(dtype)) return floating(dtype, depth);
    return integer(dtype, depth);
  }

  Expr binary(Op op, DType dtype, Expr a, Expr b) { return Expr::make(op, dtype, {std::move(a), std::move(b)}); }

  Expr integer(DType dtype, int depth) {
    auto sub = [&] { return expr(dtype, depth - 1); };
    const int width = dtype == DType::Index ? 64 : bit_width(dtype);
    switch (rng_.below(dtype == DType::Index ? 15 : 21)) {
      case 0:
      case 1:
        return binary(Op::Add, dtype, sub(), sub());
      case 2:
        return binary(Op::Sub, dtype, sub(), sub());
      case 3:
        // Products with a constant factor, as index arithmetic has; sometimes two terms.
        return binary(Op::Mul, dtype, sub(), rng_.chance(75) ? constant(dtype) : sub());
      case 4:
        return Expr::make(Op::Neg, dtype, {sub()});
      case 5:
        return binary(Op::FloorDiv, dtype, sub(), small_operand(dtype, depth, -8, 16));
      case 6:
        return binary(Op::FloorMod, dtype, sub(), small_operand(dtype, depth, -8, 16));
      case 7:
        return binary(rng_.chance(50) ? Op::TruncDiv : Op::TruncMod, dtype, sub(), small_operand(dtype, depth, -8, 16));
      case 8:
        return binary(Op::Min, dtype, sub(), sub());
      case 9:
        return binary(Op::Max, dtype, sub(), sub());
      case 10:
        return Expr::make(Op::Abs, dtype, {sub()});
      case 11:
      case 12:
        return Expr::make(Op::Select, dtype, {expr(DType::Bool, depth - 1), sub(), sub()});
      case 13:
        return binary(Op::Add, dtype, sub(), constant(dtype));
      case 14: {
        // A cast from another integer dtype (or from INDEX), which may narrow or wrap.
        const DType from = rng_.chance(30) ? DType::Index : rng_.pick(kFixedWidth);
        if (from == dtype) return sub();
        return Expr::make(Op::Cast, dtype, {expr(from, depth - 1)});
      }
      case 15:
        return binary(Op::BitAnd, dtype, sub(), rng_.chance(60) ? constant(dtype) : sub());
      case 16:
        return binary(rng_.chance(50) ? Op::BitOr : Op::BitXor, dtype, sub(), sub());
      case 17:
        return Expr::make(Op::BitNot, dtype, {sub()});
      case 18:
        return binary(Op::Shl, dtype, sub(), small_operand(dtype, depth, 0, width));
      case 19:
        return binary(Op::Shr, dtype, sub(), small_operand(dtype, depth, 0, width));
      default:
        return binary(Op::Sub, dtype, sub(), constant(dtype));
    }
  }

  Expr floating(DType dtype, int depth) {
    auto sub = [&] { return expr(dtype, depth - 1); };
    switch (rng_.below(9)) {
      case 0:
        return binary(Op::Add, dtype, sub(), sub());
      case 1:
        return binary(Op::Sub, dtype, sub(), sub());
      case 2:
        return binary(Op::Mul, dtype, sub(), sub());
      case 3:
        return binary(Op::Div, dtype, sub(), sub());
      case 4:
        return Expr::make(Op::Neg, dtype, {sub()});
      case 5:
        return binary(rng_.chance(50) ? Op::Min : Op::Max, dtype, sub(), sub());
      case 6:
        return Expr::make(Op::Abs, dtype, {sub()});
      case 7:
        return Expr::make(Op::Select, dtype, {expr(DType::Bool, depth - 1), sub(), sub()});
      default:
        return binary(Op::Add, dtype, sub(), constant(dtype));
    }
  }

  Expr boolean(int depth) {
    static constexpr std::array kComparisons = {Op::Eq, Op::Ne, Op::Lt, Op::Le, Op::Gt, Op::Ge};
    auto sub = [&] { return expr(DType::Bool, depth - 1); };
    switch (rng_.below(8)) {
      case 0:
        return binary(Op::And, DType::Bool, sub(), sub());
      case 1:
        return binary(Op::Or, DType::Bool, sub(), sub());
      case 2:
        return Expr::make(Op::Not, DType::Bool, {sub()});
      case 3: {
        // Floats compare too; NaN makes every order comparison false.
        const DType operand = rng_.chance(15) ? float_ : integer_;
        return binary(rng_.pick(kComparisons), DType::Bool, expr(operand, depth - 1), expr(operand, depth - 1));
      }
      default:
        return binary(rng_.pick(kComparisons), DType::Bool, expr(integer_, depth - 1),
                      rng_.chance(50) ? constant(integer_) : expr(integer_, depth - 1));
    }
  }

  // Bounds on some integer variables, so that signs and ranges are established (or,
  // with one open side, only half established).
  void add_bounds(Facts& facts) {
    for (const auto& [name, dtype] : declared_) {
      if (!is_integer(dtype) || facts.bounds.count(name) > 0 || !rng_.chance(55)) continue;
      const Int lo = std::max<Int>(rng_.between(-12, 12), dtype_min_or(dtype, -12));
      const Int hi = lo + rng_.between(0, 24);
      Interval bound;
      if (!rng_.chance(15)) bound.lo = lo;
      if (!rng_.chance(15)) bound.hi = std::min<Int>(hi, dtype_max_or(dtype, hi));
      facts.bounds[name] = bound;
    }
  }

  static Int dtype_min_or(DType dtype, Int index_value) {
    return dtype == DType::Index ? index_value : dtype_min(dtype);
  }
  static Int dtype_max_or(DType dtype, Int index_value) {
    return dtype == DType::Index ? index_value : dtype_max(dtype);
  }

  // Assumptions as a compiler has them: an order between two variables, a residue, a
  // branch condition.
  void add_assumptions(Facts& facts) {
    std::vector<std::pair<std::string, DType>> integers;
    for (const auto& declared : declared_) {
      if (is_integer(declared.second)) integers.push_back(declared);
    }
    if (integers.empty() || !rng_.chance(35)) return;
    const int count = static_cast<int>(rng_.between(1, 2));
    for (int i = 0; i < count; ++i) {
      const auto& [name, dtype] = integers[rng_.below(integers.size())];
      const Expr subject = Expr::var(name, dtype);
      const auto& [other_name, other_dtype] = integers[rng_.below(integers.size())];
      switch (rng_.below(4)) {
        case 0:
          if (other_dtype == dtype && other_name != name) {
            facts.assumptions.push_back(
                binary(rng_.chance(50) ? Op::Lt : Op::Le, DType::Bool, subject, Expr::var(other_name, other_dtype)));
            break;
          }
          [[fallthrough]];
        case 1:
          if (dtype == DType::Index) {
            const int64_t modulus = rng_.between(2, 8);
            facts.assumptions.push_back(
                binary(Op::Eq, DType::Bool,
                       binary(Op::FloorMod, dtype, subject, Expr::constant(Value::integer(dtype, modulus))),
                       Expr::constant(Value::integer(dtype, rng_.between(0, modulus - 1)))));
            break;
          }
          [[fallthrough]];
        case 2:
          facts.assumptions.push_back(
              binary(Op::Ne, DType::Bool, subject, Expr::constant(Value::integer(dtype, rng_.between(-2, 2)))));
          break;
        default:
          facts.assumptions.push_back(binary(rng_.chance(50) ? Op::Ge : Op::Lt, DType::Bool, subject, constant(dtype)));
          break;
      }
    }
  }

  Rng& rng_;
  const RandomCaseOptions& options_;
  DType integer_ = DType::Index;  // the integer dtype of the case's comparisons
  DType float_ = DType::FP32;
  std::vector<std::pair<std::string, DType>> declared_;
};

}  // namespace

RandomCase random_case(uint64_t seed, uint64_t index, const RandomCaseOptions& options) {
  // Each case has a stream of its own, so a run can be split across threads, and case
  // N reproduced without generating the N - 1 before it.
  Rng seeder(seed ^ (index * 0xd1b54a32d192ed03ULL));
  Rng rng(seeder.next());
  Generator generator(rng, options);
  return generator.make();
}

}  // namespace eqsat::verify
