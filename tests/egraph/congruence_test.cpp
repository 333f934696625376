// The (modulus, remainder) analysis: normal forms, the lattice operations, transfer
// functions checked against concrete values, and its use in the e-graph (with the
// interval, on merge) and in guards.
#include "egraph/congruence.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <random>

#include "egraph/egraph.h"
#include "egraph/guard.h"
#include "ir/evaluate.h"
#include "ir/fold.h"
#include "ir/print.h"

namespace eqsat {
namespace {

Congruence C(Int m, Int r) { return Congruence::of(m, r); }

TEST(Congruence, NormalForms) {
  EXPECT_EQ(C(4, 9), (Congruence{4, 1}));
  EXPECT_EQ(C(-4, -1), (Congruence{4, 3}));
  EXPECT_EQ(C(0, -7), Congruence::constant(-7));
  EXPECT_TRUE(C(1, 5).is_unknown());
  EXPECT_TRUE(Congruence::unknown().contains(12345));
  EXPECT_TRUE(C(4, 1).contains(-3));
  EXPECT_FALSE(C(4, 1).contains(3));
  EXPECT_TRUE(C(kCongruenceLimit * 2, 1).is_unknown());  // too large: given up
  EXPECT_TRUE(Congruence::constant(kCongruenceLimit * 4).is_unknown());
  EXPECT_EQ(C(4, 1).to_string(), "4k+1");
  EXPECT_EQ(C(0, 3).to_string(), "3");
  EXPECT_EQ(Congruence::unknown().to_string(), "any");
}

TEST(Congruence, IntersectKeepsTheFinerOrCombinesByCrt) {
  EXPECT_EQ(C(4, 1).intersect(C(2, 1)), C(4, 1));
  EXPECT_EQ(C(2, 1).intersect(C(4, 3)), C(4, 3));
  EXPECT_EQ(C(4, 1).intersect(C(6, 3)), C(12, 9));
  EXPECT_EQ(C(3, 2).intersect(C(5, 4)), C(15, 14));
  EXPECT_EQ(C(4, 1).intersect(Congruence::constant(9)), Congruence::constant(9));
  EXPECT_EQ(Congruence::unknown().intersect(C(7, 3)), C(7, 3));
  // Contradictions (no integer has both) keep the first.
  EXPECT_EQ(C(4, 1).intersect(C(2, 0)), C(4, 1));
  EXPECT_EQ(C(4, 1).intersect(C(6, 0)), C(4, 1));
  EXPECT_EQ(C(4, 1).intersect(Congruence::constant(2)), C(4, 1));
}

TEST(Congruence, JoinIsTheFinestCommonFact) {
  EXPECT_EQ(C(4, 1).join(C(6, 3)), C(2, 1));
  EXPECT_EQ(Congruence::constant(3).join(Congruence::constant(11)), C(8, 3));
  EXPECT_EQ(Congruence::constant(3).join(Congruence::constant(3)), Congruence::constant(3));
  EXPECT_TRUE(C(4, 1).join(Congruence::unknown()).is_unknown());
}

// Random congruences (constants among them) and random members of them.
struct RandomFacts {
  std::mt19937_64 rng{20240607};
  Congruence congruence() {
    switch (rng() % 4) {
      case 0:
        return Congruence::constant(small(50));
      case 1:
        return Congruence::unknown();
      default:
        return Congruence::of(1 + Int(rng() % 24), small(100));
    }
  }
  Int small(int range) { return Int(int64_t(rng() % (2 * range + 1)) - range); }
  Int member(const Congruence& c) { return c.is_constant() ? c.remainder : c.modulus * small(40) + c.remainder; }
};

// Every transfer function contains every concrete result, on INDEX.
TEST(Congruence, TransferFunctionsAreSound) {
  RandomFacts random;
  const Op ops[] = {Op::Add,      Op::Sub, Op::Mul, Op::Neg, Op::FloorDiv, Op::FloorMod,
                    Op::TruncMod, Op::Min, Op::Max, Op::Shl, Op::Select};
  int checked = 0;
  for (Op op : ops) {
    for (int round = 0; round < 3000; ++round) {
      std::vector<Congruence> args;
      std::vector<Value> values;
      if (op == Op::Select) {
        args.push_back(Congruence::unknown());
        values.push_back(Value::boolean(random.rng() % 2));
      }
      const int arity = op == Op::Neg ? 1 : 2;
      for (int k = 0; k < arity; ++k) {
        Congruence c = random.congruence();
        if (k == 1 && (op == Op::FloorDiv || op == Op::FloorMod || op == Op::TruncMod)) {
          // A constant divisor (what the transfer functions use), sometimes one of m's factors.
          Int d = random.small(12);
          if (args[0].modulus > 1 && random.rng() % 2) d = args[0].modulus / (1 + Int(random.rng() % 3));
          c = Congruence::constant(d == 0 ? 3 : d);
        }
        if (k == 1 && op == Op::Shl) c = random.rng() % 3 ? Congruence::constant(Int(random.rng() % 8)) : c;
        args.push_back(c);
        values.push_back(Value::integer(DType::Index, random.member(c)));
      }
      std::optional<Value> result = fold(op, DType::Index, values);
      if (!result) continue;  // undefined (division by zero, negative shift)
      Congruence got = congruence_of(op, DType::Index, DType::Index, args);
      ASSERT_TRUE(got.contains(result->i))
          << op_info(op).name << " of " << args[0].to_string() << (args.size() > 1 ? ", " + args[1].to_string() : "")
          << " gave " << got.to_string() << " but a concrete result is " << to_string(result->i);
      ++checked;
    }
  }
  EXPECT_GT(checked, 25000);
}

TEST(Congruence, IntersectAndJoinAreSound) {
  RandomFacts random;
  for (int round = 0; round < 20000; ++round) {
    Int x = random.small(1000);
    auto holding = [&] {
      Int m = Int(random.rng() % 30);
      return m == 0 ? Congruence::constant(x) : Congruence::of(m, x);
    };
    Congruence a = holding(), b = holding();
    ASSERT_TRUE(a.intersect(b).contains(x)) << a.to_string() << " & " << b.to_string();
    Congruence other = random.congruence();
    ASSERT_TRUE(a.join(other).contains(x)) << a.to_string() << " | " << other.to_string();
    ASSERT_TRUE(other.join(a).contains(x));
  }
}

TEST(Congruence, ExamplesOfTransferFunctions) {
  auto of = [](Op op, Congruence a, Congruence b) {
    const Congruence args[] = {a, b};
    return congruence_of(op, DType::Index, DType::Index, args);
  };
  const Congruence any = Congruence::unknown();
  const auto k = [](Int c) { return Congruence::constant(c); };
  EXPECT_EQ(of(Op::Mul, any, k(6)), C(6, 0));
  EXPECT_EQ(of(Op::Add, of(Op::Mul, any, k(6)), k(4)), C(6, 4));
  EXPECT_EQ(of(Op::FloorDiv, C(6, 4), k(3)), C(2, 1));        // (6k + 4) // 3 = 2k + 1
  EXPECT_EQ(of(Op::FloorMod, C(6, 4), k(3)), k(1));           // (6k + 4) % 3 = 1
  EXPECT_EQ(of(Op::FloorMod, C(6, 4), k(4)), C(2, 0));        // gcd(6, 4) = 2
  EXPECT_TRUE(of(Op::FloorDiv, C(6, 4), k(4)).is_unknown());  // 4 does not divide 6
  EXPECT_EQ(of(Op::Shl, any, k(3)), C(8, 0));
  EXPECT_EQ(of(Op::Max, C(4, 1), C(6, 3)), C(2, 1));
  EXPECT_EQ(of(Op::Mul, C(4, 1), C(6, 3)), C(6, 3));  // 24jk + 12j + 6k + 3
  // Fixed widths wrap at 2^n: a modulus dividing 2^n survives, others shrink to
  // their common factor with 2^n.
  const Congruence times4[] = {any, k(4)};
  EXPECT_EQ(congruence_of(Op::Mul, DType::Int32, DType::Int32, times4), C(4, 0));
  const Congruence times6[] = {any, k(6)};
  EXPECT_EQ(congruence_of(Op::Mul, DType::UInt8, DType::UInt8, times6), C(2, 0));
  // A signed division knows nothing (INT_MIN // -1 wraps); an unsigned one is exact.
  const Congruence by4[] = {C(8, 4), k(4)};
  EXPECT_TRUE(congruence_of(Op::FloorMod, DType::Int32, DType::Int32, by4).is_unknown());
  EXPECT_EQ(congruence_of(Op::FloorMod, DType::UInt32, DType::UInt32, by4), k(0));
}

Expr var(const char* name, DType dtype = DType::Index) { return Expr::var(name, dtype); }
Expr lit(Int v, DType dtype = DType::Index) { return Expr::constant(Value::integer(dtype, v)); }
Expr bin(Op op, Expr a, Expr b) {
  DType dtype = is_comparison(op) ? DType::Bool : a.dtype();
  return Expr::make(op, dtype, {std::move(a), std::move(b)});
}

TEST(CongruenceInTheEGraph, AModuloTheAnalysisDecidesIsAConstant) {
  EGraph g;
  // (x * 6 + 4) % 3 is 1 whatever x is.
  ClassId mod = g.add_expr(bin(Op::FloorMod, bin(Op::Add, bin(Op::Mul, var("x"), lit(6)), lit(4)), lit(3)));
  g.rebuild();
  ASSERT_TRUE(g.data(mod).constant.has_value());
  EXPECT_EQ(g.data(mod).constant->i, 1);
  EXPECT_EQ(g.check_invariants(), "");
  // The same on INT32 is not decided by congruences (x * 6 wraps), only by folding.
  ClassId wrapped = g.add_expr(
      bin(Op::FloorMod, bin(Op::Add, bin(Op::Mul, var("y", DType::Int32), lit(6, DType::Int32)), lit(4, DType::Int32)),
          lit(3, DType::Int32)));
  g.rebuild();
  EXPECT_FALSE(g.data(wrapped).constant.has_value());
}

TEST(CongruenceInTheEGraph, TheCongruenceTrimsTheInterval) {
  EGraph g;
  g.set_var_interval("i", Interval::range(0, 10));
  ClassId times4 = g.add_expr(bin(Op::Mul, var("i"), lit(4)));
  g.rebuild();
  EXPECT_EQ(g.data(times4).congruence, C(4, 0));
  g.refine_interval(times4, Interval::range(1, 39));
  g.rebuild();
  EXPECT_EQ(g.data(times4).interval, Interval::range(4, 36));
  // A class narrowed to a single value of its congruence is that constant.
  ClassId plus1 = g.add_expr(bin(Op::Add, var("j"), lit(0)));
  g.refine_congruence(g.add_var("j", DType::Index), C(8, 5));
  g.refine_interval(g.add_var("j", DType::Index), Interval::range(6, 20));
  g.rebuild();
  EXPECT_EQ(g.data(g.add_var("j", DType::Index)).constant, Value::integer(DType::Index, 13));
  EXPECT_EQ(g.data(plus1).constant, Value::integer(DType::Index, 13));
  EXPECT_EQ(g.check_invariants(), "");
}

TEST(CongruenceInTheEGraph, MergingCombinesCongruences) {
  EGraph g;
  ClassId a = g.add_expr(bin(Op::Add, bin(Op::Mul, var("x"), lit(4)), lit(1)));  // 4k + 1
  ClassId b = g.add_expr(bin(Op::Add, bin(Op::Mul, var("y"), lit(6)), lit(3)));  // 6k + 3
  ClassId use = g.add_expr(bin(Op::FloorMod, bin(Op::Add, var("x"), lit(0)), lit(2)));
  g.rebuild();
  g.merge(a, b);
  g.rebuild();
  EXPECT_EQ(g.data(a).congruence, C(12, 9));
  (void)use;
  // And parents see it: (a % 12) is 9.
  ClassId mod12 = g.add_expr(bin(Op::FloorMod, bin(Op::Add, bin(Op::Mul, var("x"), lit(4)), lit(1)), lit(12)));
  g.rebuild();
  EXPECT_EQ(g.data(mod12).constant, Value::integer(DType::Index, 9));
  EXPECT_EQ(g.check_invariants(), "");
}

TEST(CongruenceInTheEGraph, RandomTermsStaySoundUnderConcreteEvaluation) {
  // Random INDEX terms over x, y with random constants; for random x and y, every
  // class's value satisfies its congruence and lies in its interval.
  std::mt19937_64 rng(99);
  const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::FloorDiv, Op::FloorMod, Op::Min, Op::Max, Op::Shl};
  for (int round = 0; round < 200; ++round) {
    EGraph g;
    g.set_var_interval("x", Interval::range(-20, 20));
    std::vector<Expr> terms = {var("x"), var("y"), lit(Int(rng() % 9) + 1), lit(Int(rng() % 7) * 2)};
    for (int i = 0; i < 12; ++i) {
      Op op = ops[rng() % std::size(ops)];
      Expr a = terms[rng() % terms.size()];
      Expr b = (op == Op::FloorDiv || op == Op::FloorMod || op == Op::Shl) ? lit(Int(rng() % 5) + 1)
                                                                           : terms[rng() % terms.size()];
      terms.push_back(bin(op, a, b));
    }
    std::vector<ClassId> ids;
    for (const Expr& t : terms) ids.push_back(g.add_expr(t));
    g.rebuild();
    for (int sample = 0; sample < 20; ++sample) {
      std::map<std::string, Int> env{{"x", Int(int64_t(rng() % 41) - 20)}, {"y", Int(int64_t(rng() % 2001) - 1000)}};
      std::function<std::optional<Int>(const Expr&)> eval = [&](const Expr& e) -> std::optional<Int> {
        if (e.op() == Op::Var) return env[e.name()];
        if (e.op() == Op::Const) return e.value().i;
        std::vector<Value> args;
        for (const Expr& a : e.args()) {
          auto v = eval(a);
          if (!v) return std::nullopt;
          args.push_back(Value::integer(DType::Index, *v));
        }
        auto r = fold(e.op(), e.dtype(), args);
        if (!r) return std::nullopt;
        return r->i;
      };
      for (std::size_t t = 0; t < terms.size(); ++t) {
        std::optional<Int> v = eval(terms[t]);
        if (!v) continue;
        const ClassData& d = g.data(ids[t]);
        ASSERT_TRUE(d.congruence.contains(*v))
            << "term " << t << " value " << to_string(*v) << " not in " << d.congruence.to_string();
        ASSERT_TRUE(d.interval.contains(*v));
      }
    }
  }
}

TEST(CongruenceInTheEGraph, FixedWidthsKeepTheModuliThatDivideTheirPeriod) {
  EGraph g;
  // x * 8 on UINT32 is 8k modulo 2^32, still a multiple of 8 after the wrap: x * 8 % 4 is 0.
  ClassId mod = g.add_expr(
      bin(Op::FloorMod, bin(Op::Mul, var("x", DType::UInt32), lit(8, DType::UInt32)), lit(4, DType::UInt32)));
  // A cast keeps the residue modulo 2^32 too: cast(z * 4, UINT32) % 4 is 0.
  ClassId cast = g.add_expr(
      bin(Op::FloorMod, Expr::make(Op::Cast, DType::UInt32, {bin(Op::Mul, var("z"), lit(4))}), lit(4, DType::UInt32)));
  // x * 6 on UINT8 wraps at 256: only its factor 2 survives, so x * 6 % 3 is unknown.
  ClassId six = g.add_expr(bin(Op::Mul, var("u", DType::UInt8), lit(6, DType::UInt8)));
  ClassId by3 =
      g.add_expr(bin(Op::FloorMod, bin(Op::Mul, var("u", DType::UInt8), lit(6, DType::UInt8)), lit(3, DType::UInt8)));
  g.rebuild();
  EXPECT_EQ(g.data(mod).constant, Value::integer(DType::UInt32, 0));
  EXPECT_EQ(g.data(cast).constant, Value::integer(DType::UInt32, 0));
  EXPECT_EQ(g.data(six).congruence, C(2, 0));
  EXPECT_FALSE(g.data(by3).constant.has_value());
  EXPECT_EQ(g.check_invariants(), "");
}

TEST(CongruenceInTheEGraph, RandomFixedWidthTermsStaySoundUnderConcreteEvaluation) {
  // Random UINT8 and INT8 terms (wrapping, with casts from INDEX): for every x, y
  // evaluated by the reference semantics, each class's value satisfies its
  // congruence and lies in its interval.
  std::mt19937_64 rng(7);
  const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::FloorDiv, Op::FloorMod, Op::Min, Op::Max, Op::Shl, Op::Cast};
  for (DType t : {DType::UInt8, DType::Int8}) {
    for (int round = 0; round < 150; ++round) {
      EGraph g;
      auto c = [&](Int v) { return lit(v, t); };
      std::vector<Expr> terms = {var("x", t), var("y", t), c(Int(rng() % 9) + 1), c(Int(rng() % 7) * 4)};
      for (int i = 0; i < 12; ++i) {
        Op op = ops[rng() % std::size(ops)];
        Expr a = terms[rng() % terms.size()];
        if (op == Op::Cast) {  // an INDEX multiple of a small power of two, narrowed
          Expr wide = bin(Op::Mul, bin(Op::Add, var("i"), lit(Int(rng() % 5))), lit(Int(1) << (rng() % 5)));
          terms.push_back(Expr::make(Op::Cast, t, {wide}));
          continue;
        }
        Expr b = (op == Op::FloorDiv || op == Op::FloorMod) ? c(Int(rng() % 8) + 1)
                 : op == Op::Shl                            ? c(Int(rng() % 7))
                                                            : terms[rng() % terms.size()];
        terms.push_back(bin(op, a, b));
      }
      std::vector<ClassId> ids;
      for (const Expr& term : terms) ids.push_back(g.add_expr(term));
      g.rebuild();
      for (int sample = 0; sample < 30; ++sample) {
        const Env env{{"x", Value::integer(t, Int(int64_t(rng() % 256)))},
                      {"y", Value::integer(t, Int(int64_t(rng() % 256)))},
                      {"i", Value::integer(DType::Index, Int(int64_t(rng() % 2001) - 1000))}};
        for (std::size_t k = 0; k < terms.size(); ++k) {
          std::optional<Value> v = evaluate(terms[k], env);
          if (!v) continue;
          const ClassData& d = g.data(ids[k]);
          ASSERT_TRUE(d.congruence.contains(v->i))
              << print(terms[k]) << " = " << to_string(v->i) << " not in " << d.congruence.to_string();
          ASSERT_TRUE(d.interval.contains(v->i)) << print(terms[k]);
        }
      }
    }
  }
}

// modulus(x) % c == 0 and remainder(x) == c2, built by hand (x: variable 0, c: 1, c2: 2).
Guard congruence_guard() {
  Guard guard;
  guard.nodes.push_back({GuardNode::Kind::Modulus, Op::Add, 0, 0, {}});         // 0
  guard.nodes.push_back({GuardNode::Kind::ValueOf, Op::Add, 0, 1, {}});         // 1
  guard.nodes.push_back({GuardNode::Kind::Apply, Op::FloorMod, 0, 0, {0, 1}});  // 2
  guard.nodes.push_back({GuardNode::Kind::Literal, Op::Add, 0, 0, {}});         // 3: 0
  guard.nodes.push_back({GuardNode::Kind::Apply, Op::Eq, 0, 0, {2, 3}});        // 4
  guard.nodes.push_back({GuardNode::Kind::Remainder, Op::Add, 0, 0, {}});       // 5
  guard.nodes.push_back({GuardNode::Kind::ValueOf, Op::Add, 0, 2, {}});         // 6
  guard.nodes.push_back({GuardNode::Kind::Apply, Op::Eq, 0, 0, {5, 6}});        // 7
  guard.nodes.push_back({GuardNode::Kind::Apply, Op::And, 0, 0, {4, 7}});       // 8
  guard.root = 8;
  guard.text = "modulus(x) % c == 0 and remainder(x) == c2";
  return guard;
}

TEST(CongruenceInGuards, ModulusAndRemainderReadTheAnalysis) {
  EGraph g;
  ClassId x = g.add_expr(bin(Op::Add, bin(Op::Mul, var("i"), lit(8)), lit(3)));  // 8k + 3
  ClassId y = g.add_var("j", DType::Index);                                      // nothing known
  ClassId k = g.add_constant(Value::integer(DType::Index, 11));                  // a constant
  ClassId four = g.add_constant(Value::integer(DType::Index, 4));
  ClassId three = g.add_constant(Value::integer(DType::Index, 3));
  ClassId zero = g.add_constant(Value::integer(DType::Index, 0));
  ClassId one = g.add_constant(Value::integer(DType::Index, 1));
  g.rebuild();
  const Guard guard = congruence_guard();
  EXPECT_EQ(evaluate_guard(g, guard, {x, four, three}), Truth::True);
  EXPECT_EQ(evaluate_guard(g, guard, {x, three, three}), Truth::False);  // 8 % 3 != 0
  EXPECT_EQ(evaluate_guard(g, guard, {y, one, zero}), Truth::True);      // 1 and 0: nothing known
  EXPECT_EQ(evaluate_guard(g, guard, {y, four, zero}), Truth::False);
  EXPECT_EQ(evaluate_guard(g, guard, {k, one, zero}), Truth::Unknown);  // a constant: unknown
}

}  // namespace
}  // namespace eqsat
