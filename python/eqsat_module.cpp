// The Python module `eqsat._eqsat` (pybind11): expressions built from Python values and
// operators or parsed from text, simplification under bounds, assumptions and a cost
// profile, the Simplify pass on IR text, translation validation and rule verification.
// python/eqsat/__init__.py re-exports it with documentation; __init__.pyi types it.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "extract/cost.h"
#include "ir/build.h"
#include "ir/expr.h"
#include "ir/int128.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/stmt_parse.h"
#include "ir/stmt_print.h"
#include "passes/pass_manager.h"
#include "passes/simplify_expr.h"
#include "rules/rule.h"
#include "tools/engine.h"
#include "verify/equivalence.h"
#include "verify/verify_rules.h"

namespace py = pybind11;

namespace eqsat::python {

namespace {

// eqsat.Error (a ValueError) carries the position of what was wrong.
struct EqsatError {
  Error error;
};

[[noreturn]] void raise(Error error) { throw EqsatError{std::move(error)}; }

DType dtype_of(const std::string& name) {
  std::optional<DType> dtype = parse_dtype(name);
  if (!dtype) raise(Error{"unknown dtype '" + name + "'"});
  return *dtype;
}

std::string dtype_text(DType dtype) { return std::string(dtype_name(dtype)); }

// A Python value as a constant of `like`'s dtype (so `x + 1` works for any integer x).
Expr constant_like(const py::handle& value, DType like) {
  if (py::isinstance<py::bool_>(value)) {
    if (like != DType::Bool) raise(Error{"a bool operand needs a BOOL expression, got " + dtype_text(like)});
    return Expr::constant(Value::boolean(value.cast<bool>()));
  }
  if (py::isinstance<py::int_>(value)) {
    if (is_float(like)) return Expr::constant(Value::floating(like, value.cast<double>()));
    if (!is_integer(like)) raise(Error{"an int operand needs an integer or float expression, got " + dtype_text(like)});
    // Python ints are unbounded; go through text to reach the 128-bit range exactly.
    std::optional<Int> v = parse_int(py::str(value).cast<std::string>());
    if (!v) raise(Error{"integer " + py::str(value).cast<std::string>() + " does not fit in 128 bits"});
    if (!is_fixed_width_int(like) || (*v >= dtype_min(like) && *v <= dtype_max(like)) ||
        (is_unsigned(like) && *v >= -(Int(1) << (bit_width(like) - 1)))) {
      return Expr::constant(Value::integer(like, *v));
    }
    raise(Error{py::str(value).cast<std::string>() + " is out of range for " + dtype_text(like)});
  }
  if (py::isinstance<py::float_>(value)) {
    if (!is_float(like)) raise(Error{"a float operand needs a float expression, got " + dtype_text(like)});
    return Expr::constant(Value::floating(like, value.cast<double>()));
  }
  throw py::type_error("expected an eqsat.Expr, int, float or bool, got " +
                       py::str(py::type::of(value)).cast<std::string>());
}

Expr operand(const py::handle& value, DType like) {
  if (py::isinstance<Expr>(value)) return value.cast<Expr>();
  return constant_like(value, like);
}

// The same dtype checks as the parser and the C++ builder (ir/build.h).
Expr build(Op op, std::vector<Expr> args) {
  Result<Expr> made = make_typed(op, std::move(args));
  if (!made) {
    Error error = made.error();
    if (error.message.find("different dtypes") != std::string::npos) error.message += "; cast one with eqsat.cast";
    raise(error);
  }
  return *made;
}

// Binary operators of Expr: `x + 1`, and reflected `1 + x`.
Expr binary(Op op, const Expr& self, const py::object& other, bool reflected) {
  Expr o = operand(other, self.dtype());
  return reflected ? build(op, {o, self}) : build(op, {self, o});
}

Facts make_facts(const std::map<std::string, std::string>& vars,
                 const std::map<std::string, std::pair<std::optional<py::int_>, std::optional<py::int_>>>& bounds,
                 const std::vector<py::object>& assume) {
  Facts facts;
  for (const auto& [name, dtype] : vars) facts.var_dtypes[name] = dtype_of(dtype);
  for (const auto& [name, range] : bounds) {
    auto side = [&](const std::optional<py::int_>& v) -> std::optional<Int> {
      if (!v) return std::nullopt;
      std::optional<Int> parsed = parse_int(py::str(py::handle(*v)).cast<std::string>());
      if (!parsed) raise(Error{"bounds: '" + name + "' is out of range"});
      return parsed;
    };
    Interval interval = Interval::range(side(range.first), side(range.second));
    if (interval.lo && interval.hi && *interval.lo > *interval.hi)
      raise(Error{"bounds: '" + name + "' has an empty range"});
    facts.bounds[name] = interval;
  }
  for (const py::object& condition : assume) {
    Expr e;
    if (py::isinstance<Expr>(condition)) {
      e = condition.cast<Expr>();
    } else {
      Result<Expr> parsed = parse_expr(condition.cast<std::string>(), facts.var_typer());
      if (!parsed) raise(parsed.error());
      e = *parsed;
    }
    if (e.dtype() != DType::Bool) raise(Error{"assume: expected a BOOL condition, got " + dtype_text(e.dtype())});
    facts.assumptions.push_back(e);
  }
  return facts;
}

Expr to_expr(const py::object& value, const Facts& facts) {
  if (py::isinstance<Expr>(value)) return value.cast<Expr>();
  Result<Expr> parsed = parse_expr(value.cast<std::string>(), facts.var_typer());
  if (!parsed) raise(parsed.error());
  return *parsed;
}

// The built-in catalogue's rewrites, loaded on the first call (the catalogue's own
// array, not a copy: rules/rule_instances.h).
const std::vector<Rewrite>& builtin_rewrites() {
  static const std::shared_ptr<const std::vector<Rewrite>> rewrites = builtin_rules().shared_rewrites();
  return *rewrites;
}

py::object value_of(const Expr& e) {
  const Value& v = e.value();
  if (e.dtype() == DType::Bool) return py::bool_(v.i != 0);
  if (is_float(e.dtype())) return py::float_(v.f);
  // Through text: Python ints are unbounded, and INDEX constants may not fit 64 bits.
  return py::module_::import("builtins").attr("int")(py::str(to_string(v.i)));
}

}  // namespace

PYBIND11_MODULE(_eqsat, m) {
  m.doc() = "eqsat: equality-saturation simplifier for tensor-compiler index arithmetic";
  static py::exception<EqsatError> error_type(m, "Error", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const EqsatError& e) {
      py::object instance = py::reinterpret_borrow<py::object>(error_type)(e.error.describe());
      instance.attr("message") = e.error.message;
      instance.attr("line") = e.error.line;
      instance.attr("column") = e.error.column;
      PyErr_SetObject(error_type.ptr(), instance.ptr());
    }
  });

  py::class_<Expr> expr(m, "Expr");
  expr.def_property_readonly("dtype", [](const Expr& e) { return dtype_text(e.dtype()); })
      .def_property_readonly("op", [](const Expr& e) { return std::string(op_info(e.op()).name); })
      .def_property_readonly("args", [](const Expr& e) { return e.args(); })
      .def_property_readonly(
          "name",
          [](const Expr& e) -> py::object { return e.op() == Op::Var ? py::object(py::str(e.name())) : py::none(); })
      .def_property_readonly("value",
                             [](const Expr& e) -> py::object { return e.is_const() ? value_of(e) : py::none(); })
      .def("tree_size", &Expr::tree_size)
      .def("same_as", [](const Expr& a, const Expr& b) { return a == b; })
      .def("__str__", [](const Expr& e) { return print(e); })
      .def("__repr__", [](const Expr& e) { return "Expr('" + print(e) + "', " + dtype_text(e.dtype()) + ")"; })
      .def("__hash__", [](const Expr& e) { return py::hash(py::str(print(e) + dtype_text(e.dtype()))); })
      .def("__bool__",
           [](const Expr&) -> bool {
             throw py::type_error("an eqsat.Expr has no truth value; use same_as() to compare trees");
           })
      .def("__neg__", [](const Expr& a) { return build(Op::Neg, {a}); })
      .def("__invert__", [](const Expr& a) { return build(a.dtype() == DType::Bool ? Op::Not : Op::BitNot, {a}); })
      .def("__abs__", [](const Expr& a) { return build(Op::Abs, {a}); });
  struct Binary {
    const char* name;
    const char* reflected;
    Op op;
  };
  for (const Binary& b : {Binary{"__add__", "__radd__", Op::Add}, Binary{"__sub__", "__rsub__", Op::Sub},
                          Binary{"__mul__", "__rmul__", Op::Mul}, Binary{"__floordiv__", "__rfloordiv__", Op::FloorDiv},
                          Binary{"__mod__", "__rmod__", Op::FloorMod}, Binary{"__truediv__", "__rtruediv__", Op::Div},
                          Binary{"__and__", "__rand__", Op::BitAnd}, Binary{"__or__", "__ror__", Op::BitOr},
                          Binary{"__xor__", "__rxor__", Op::BitXor}, Binary{"__lshift__", "__rlshift__", Op::Shl},
                          Binary{"__rshift__", "__rrshift__", Op::Shr}}) {
    const Op op = b.op;
    // `&` and `|` on BOOL are logic, as in numpy and z3py.
    auto pick = [op](const Expr& self) {
      if (self.dtype() != DType::Bool) return op;
      return op == Op::BitAnd ? Op::And : op == Op::BitOr ? Op::Or : op;
    };
    expr.def(b.name,
             [op, pick](const Expr& self, const py::object& other) { return binary(pick(self), self, other, false); });
    expr.def(b.reflected,
             [op, pick](const Expr& self, const py::object& other) { return binary(pick(self), self, other, true); });
  }
  for (const auto& [name, op] : std::vector<std::pair<const char*, Op>>{{"__lt__", Op::Lt},
                                                                        {"__le__", Op::Le},
                                                                        {"__gt__", Op::Gt},
                                                                        {"__ge__", Op::Ge},
                                                                        {"__eq__", Op::Eq},
                                                                        {"__ne__", Op::Ne}}) {
    const Op o = op;
    expr.def(name, [o](const Expr& self, const py::object& other) { return binary(o, self, other, false); });
  }

  m.def(
      "var", [](const std::string& name, const std::string& dtype) { return Expr::var(name, dtype_of(dtype)); },
      py::arg("name"), py::arg("dtype") = "INDEX");
  m.def(
      "const", [](const py::object& value, const std::string& dtype) { return constant_like(value, dtype_of(dtype)); },
      py::arg("value"), py::arg("dtype") = "INDEX");
  m.def(
      "parse",
      [](const std::string& text, const std::map<std::string, std::string>& vars) {
        return to_expr(py::str(text), make_facts(vars, {}, {}));
      },
      py::arg("text"), py::arg("vars") = std::map<std::string, std::string>{});
  m.def("_build", [](const std::string& op_name, const std::vector<py::object>& args) {
    std::optional<Op> op;
    for (int i = 0; i < kNumOps; ++i) {
      if (op_info(static_cast<Op>(i)).name == op_name) op = static_cast<Op>(i);
    }
    if (!op) raise(Error{"unknown operation '" + op_name + "'"});
    // Python numbers take the dtype of the last Expr operand.
    DType like = DType::Index;
    for (const py::object& a : args) {
      if (py::isinstance<Expr>(a)) like = a.cast<Expr>().dtype();
    }
    std::vector<Expr> exprs;
    for (std::size_t i = 0; i < args.size(); ++i) {
      const bool condition = *op == Op::Select && i == 0;
      exprs.push_back(operand(args[i], condition ? DType::Bool : like));
    }
    return build(*op, std::move(exprs));
  });
  m.def(
      "cast", [](const Expr& e, const std::string& dtype) { return Expr::make(Op::Cast, dtype_of(dtype), {e}); },
      py::arg("expr"), py::arg("dtype"));

  py::class_<SimplifyResult>(m, "SimplifyResult")
      .def_readonly("output", &SimplifyResult::output)
      .def_property_readonly("cost", [](const SimplifyResult& r) { return r.cost.value(); })
      .def_property_readonly(
          "report",
          [](const SimplifyResult& r) { return py::module_::import("json").attr("loads")(r.report.to_json()); })
      .def("__repr__", [](const SimplifyResult& r) {
        return "SimplifyResult(output='" + print(r.output) + "', cost=" + std::to_string(r.cost.value()) + ")";
      });

  m.def("_simplify",
        [](const py::object& input, const std::map<std::string, std::string>& vars,
           const std::map<std::string, std::pair<std::optional<py::int_>, std::optional<py::int_>>>& bounds,
           const std::vector<py::object>& assume, const std::optional<std::string>& costs,
           const std::optional<std::vector<std::string>>& rule_files, const std::vector<std::string>& rule_locks,
           bool allow_unproved, std::size_t iter_limit, std::size_t node_limit, double time_limit) {
          const Facts facts = make_facts(vars, bounds, assume);
          const Expr e = to_expr(input, facts);
          const RunLimits limits{iter_limit, node_limit, time_limit};
          if (rule_files) {
            // Rule files (read on every call) go through the command line's loader: the
            // same lock check, the same errors, the same algebra (no linear forms).
            cli::EngineFlags flags;
            flags.rule_files = *rule_files;
            flags.rule_lock_files = rule_locks;
            flags.allow_unproved_rules = allow_unproved;
            flags.costs_file = costs.value_or("");
            flags.limits = limits;
            Result<cli::Simplifier> simplifier = cli::Simplifier::from_flags(flags);
            if (!simplifier) raise(simplifier.error());
            py::gil_scoped_release release;
            return simplifier->run(e, facts);
          }
          std::optional<CostProfile> profile;
          if (costs) {
            Result<CostProfile> loaded = CostProfile::from_file(*costs);
            if (!loaded) raise(loaded.error());
            profile = *loaded;
          }
          SimplifyOptions options;
          options.limits = limits;
          options.costs = profile ? &*profile : nullptr;
          py::gil_scoped_release release;
          return simplify_expr(e, facts, builtin_rewrites(), options);
        });

  m.def(
      "simplify_program",
      [](const std::string& text, const std::string& pipeline, const std::optional<std::string>& costs) {
        Result<Program> program = parse_program(text);
        if (!program) raise(program.error());
        Result<std::vector<const PassInfo*>> passes = parse_pipeline(pipeline);
        if (!passes) raise(passes.error());
        std::optional<CostProfile> profile;
        if (costs) {
          Result<CostProfile> loaded = CostProfile::from_file(*costs);
          if (!loaded) raise(loaded.error());
          profile = *loaded;
        }
        const std::vector<Rewrite>& rules = builtin_rewrites();
        SimplifyOptions options;
        options.costs = profile ? &*profile : nullptr;
        std::vector<PassReport> reports;
        Program result = run_pipeline(*program, *passes, PassContext{rules, options, {}}, reports);
        return print_program(result);
      },
      py::arg("text"), py::arg("pipeline") = std::string(kDefaultPipeline), py::arg("costs") = py::none());

  m.def("_verify_equal",
        [](const py::object& input, const py::object& output, const std::map<std::string, std::string>& vars,
           const std::map<std::string, std::pair<std::optional<py::int_>, std::optional<py::int_>>>& bounds,
           const std::vector<py::object>& assume, double timeout) {
          const Facts facts = make_facts(vars, bounds, assume);
          const Expr in = to_expr(input, facts);
          const Expr out = to_expr(output, facts);
          verify::ProverOptions options;
          options.timeout_ms = static_cast<unsigned>(timeout * 1000);
          verify::EquivalenceResult result;
          {
            py::gil_scoped_release release;
            result = verify::verify_equivalent(in, out, facts, options);
          }
          const char* status = result.status == verify::EquivalenceResult::Status::Equal            ? "equal"
                               : result.status == verify::EquivalenceResult::Status::Counterexample ? "counterexample"
                                                                                                    : "unknown";
          return std::make_pair(std::string(status), result.detail);
        });

  m.def("_verify_rules", [](const std::vector<std::string>& files, double timeout, unsigned threads) {
    Result<RuleSet> set = load_rule_files(files);
    if (!set) raise(set.error());
    verify::ProverOptions options;
    options.timeout_ms = static_cast<unsigned>(timeout * 1000);
    std::vector<verify::InstanceResult> results;
    {
      py::gil_scoped_release release;
      results = verify::verify_rule_set(*set, options, threads);
    }
    std::vector<std::tuple<std::string, std::string, std::string, std::string>> out;
    for (const verify::InstanceResult& r : results) {
      const char* verdict = r.outcome.verdict == verify::Verdict::Proved           ? "proved"
                            : r.outcome.verdict == verify::Verdict::Counterexample ? "counterexample"
                                                                                   : "unknown";
      out.emplace_back(r.rule->name, dtype_text(r.dtype), verdict, verify::result_line(r));
    }
    return out;
  });
}

}  // namespace eqsat::python
