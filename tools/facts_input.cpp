#include "tools/facts_input.h"

#include <cstdint>
#include <optional>
#include <utility>

#include "ir/int128.h"
#include "ir/print.h"

namespace eqsat::cli {

namespace {

using Json = nlohmann::ordered_json;

Error at(std::string_view where, const std::string& message) { return Error{std::string(where) + ": " + message}; }

std::string in_quotes(std::string_view text) { return "'" + std::string(text) + "'"; }

// The three steps shared by both forms; each returns the error, if any.

std::optional<Error> declare(Facts& facts, std::string_view where, const std::string& name,
                             std::string_view dtype_text) {
  if (name.empty()) return at(where, "empty variable name");
  std::optional<DType> dtype = parse_dtype(dtype_text);
  if (!dtype) return at(where, "unknown dtype " + in_quotes(dtype_text) + " for " + in_quotes(name));
  auto [it, inserted] = facts.var_dtypes.emplace(name, *dtype);
  if (!inserted && it->second != *dtype) {
    return at(where, in_quotes(name) + " is already declared " + std::string(dtype_name(it->second)));
  }
  return std::nullopt;
}

std::optional<Error> bound(Facts& facts, std::string_view where, const std::string& name, std::optional<Int> lo,
                           std::optional<Int> hi) {
  if (name.empty()) return at(where, "empty variable name");
  auto declared = facts.var_dtypes.find(name);
  DType dtype = declared == facts.var_dtypes.end() ? DType::Index : declared->second;
  if (!is_integer(dtype)) {
    return at(where,
              in_quotes(name) + " is " + std::string(dtype_name(dtype)) + "; bounds apply to integer variables only");
  }
  if (lo && hi && *lo > *hi) {
    return at(where, in_quotes(name) + " has an empty range: " + to_string(*lo) + " > " + to_string(*hi));
  }
  if (!facts.bounds.emplace(name, Interval::range(lo, hi)).second) {
    return at(where, in_quotes(name) + " is bounded twice");
  }
  return std::nullopt;
}

std::optional<Error> assume(Facts& facts, std::string_view where, std::string_view text) {
  Result<Expr> condition = parse_under(facts, text, where);
  if (!condition) return condition.error();
  if (condition->dtype() != DType::Bool) {
    return at(where, "expected a BOOL condition, got " + std::string(dtype_name(condition->dtype())));
  }
  facts.assumptions.push_back(*condition);
  return std::nullopt;
}

// --- the batch format ---

// The member `key` of the case, or nullptr when absent or null.
const Json* member(const Json& object, const char* key) {
  auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

// A bound's side: an integer of any size nlohmann reads as one, or null (open).
bool json_side(const Json& side, std::optional<Int>& out) {
  if (side.is_null()) return true;
  if (side.is_number_unsigned()) {
    out = Int(side.get<uint64_t>());
    return true;
  }
  if (side.is_number_integer()) {
    out = Int(side.get<int64_t>());
    return true;
  }
  return false;
}

}  // namespace

Result<Facts> facts_from_json(const Json& case_object) {
  Facts facts;
  if (const Json* vars = member(case_object, "vars")) {
    if (!vars->is_object()) return at("vars", "expected an object {\"name\": \"DTYPE\"}");
    for (const auto& [name, dtype] : vars->items()) {
      if (!dtype.is_string()) return at("vars", "the dtype of " + in_quotes(name) + " must be a string");
      if (auto error = declare(facts, "vars", name, dtype.get<std::string>())) return *error;
    }
  }
  if (const Json* bounds = member(case_object, "bounds")) {
    if (!bounds->is_object()) return at("bounds", "expected an object {\"name\": [lo, hi]}");
    for (const auto& [name, range] : bounds->items()) {
      std::optional<Int> lo, hi;
      if (!range.is_array() || range.size() != 2 || !json_side(range[0], lo) || !json_side(range[1], hi)) {
        return at("bounds", in_quotes(name) + " must be [lo, hi] with integers or null");
      }
      if (auto error = bound(facts, "bounds", name, lo, hi)) return *error;
    }
  }
  if (const Json* assumptions = member(case_object, "assume")) {
    if (!assumptions->is_array()) return at("assume", "expected a list of BOOL expressions");
    for (std::size_t i = 0; i < assumptions->size(); ++i) {
      const std::string where = "assume[" + std::to_string(i) + "]";
      const Json& text = (*assumptions)[i];
      if (!text.is_string()) return at(where, "expected a string");
      if (auto error = assume(facts, where, text.get<std::string>())) return *error;
    }
  }
  return facts;
}

// --- the command-line flags ---

Result<FastMath> fast_math_from_json(const Json& case_object) {
  auto member = case_object.find("fast_math");
  if (member == case_object.end() || member->is_null()) return FastMath{};
  if (!member->is_array()) return at("fast_math", "expected an array of flag names, such as [\"nsz\", \"nnan\"]");
  FastMath flags;
  for (std::size_t i = 0; i < member->size(); ++i) {
    const std::string where = "fast_math[" + std::to_string(i) + "]";
    const Json& word = (*member)[i];
    if (!word.is_string()) return at(where, "expected a flag name (nsz, nnan, ninf, reassoc or all)");
    const std::string text = word.get<std::string>();
    Result<FastMath> parsed = parse_fast_math(text);
    if (!parsed || text.find_first_of(", ") != std::string::npos || text.empty()) {
      return at(where, parsed ? "expected one flag name (nsz, nnan, ninf, reassoc or all), got " + in_quotes(text)
                              : parsed.error().message);
    }
    flags |= *parsed;
  }
  return flags;
}

void fast_math_to_json(FastMath flags, Json& case_object) {
  if (flags.none()) return;
  Json names = Json::array();
  for (FastMathFlag flag : {FastMathFlag::Nsz, FastMathFlag::Nnan, FastMathFlag::Ninf, FastMathFlag::Reassoc}) {
    if (flags.has(flag)) names.push_back(std::string(fast_math_flag_name(flag)));
  }
  case_object["fast_math"] = names;
}

Result<Facts> facts_from_flags(const FactFlags& flags) {
  Facts facts;
  for (const std::string& flag : flags.vars) {
    const std::string where = "--var " + in_quotes(flag);
    const std::size_t colon = flag.find(':');
    if (colon == std::string::npos) return at(where, "expected NAME:DTYPE");
    if (auto error = declare(facts, where, flag.substr(0, colon), std::string_view(flag).substr(colon + 1))) {
      return *error;
    }
  }
  for (const std::string& flag : flags.bounds) {
    const std::string where = "--bound " + in_quotes(flag);
    const std::size_t equals = flag.find('=');
    const std::size_t colon = flag.find(':', equals == std::string::npos ? 0 : equals);
    if (equals == std::string::npos || colon == std::string::npos) {
      return at(where, "expected NAME=LO:HI (leave LO or HI empty for an open side)");
    }
    std::optional<Int> sides[2];
    const std::string_view texts[2] = {std::string_view(flag).substr(equals + 1, colon - equals - 1),
                                       std::string_view(flag).substr(colon + 1)};
    for (int i = 0; i < 2; ++i) {
      if (texts[i].empty()) continue;
      sides[i] = parse_int(texts[i]);
      if (!sides[i]) return at(where, std::string(i == 0 ? "LO " : "HI ") + in_quotes(texts[i]) + " is not an integer");
    }
    if (auto error = bound(facts, where, flag.substr(0, equals), sides[0], sides[1])) return *error;
  }
  for (const std::string& flag : flags.assumptions) {
    if (auto error = assume(facts, "--assume " + in_quotes(flag), flag)) return *error;
  }
  return facts;
}

Result<Expr> parse_under(const Facts& facts, std::string_view text, std::string_view where) {
  Result<Expr> expr = parse_expr(text, facts.var_typer());
  if (!expr) return at(where, expr.error().describe());
  return expr;
}

namespace {

// A bound's side as JSON: the batch format's integers are 64-bit (signed or unsigned).
Json json_of_side(const std::optional<Int>& side) {
  if (!side) return nullptr;
  if (*side >= Int(INT64_MIN) && *side <= Int(INT64_MAX)) return static_cast<int64_t>(*side);
  return static_cast<uint64_t>(*side);
}

}  // namespace

void facts_to_json(const Facts& facts, Json& case_object) {
  Json vars = Json::object();
  for (const auto& [name, dtype] : facts.var_dtypes) {
    if (dtype != DType::Index) vars[name] = std::string(dtype_name(dtype));
  }
  if (!vars.empty()) case_object["vars"] = vars;
  Json bounds = Json::object();
  for (const auto& [name, interval] : facts.bounds) {
    bounds[name] = Json::array({json_of_side(interval.lo), json_of_side(interval.hi)});
  }
  if (!bounds.empty()) case_object["bounds"] = bounds;
  Json assume = Json::array();
  for (const Expr& condition : facts.assumptions) assume.push_back(print(condition));
  if (!assume.empty()) case_object["assume"] = assume;
}

}  // namespace eqsat::cli
