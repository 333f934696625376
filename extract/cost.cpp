#include "extract/cost.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

namespace eqsat {

namespace {

std::optional<Op> op_by_name(std::string_view name) {
  for (int i = 0; i < kNumOps; ++i) {
    if (op_info(static_cast<Op>(i)).name == name) return static_cast<Op>(i);
  }
  return std::nullopt;
}

std::optional<Cost> cost_from_json(const nlohmann::json& value) {
  if (value.is_string() && value.get<std::string>() == "inf") return Cost::infinite();
  if (value.is_number_unsigned()) return Cost(value.get<uint64_t>());
  if (value.is_number_integer() && value.get<int64_t>() >= 0) return Cost(uint64_t(value.get<int64_t>()));
  return std::nullopt;
}

Error profile_error(std::string_view source, const std::string& what) {
  return Error{std::string(source) + ": " + what};
}

}  // namespace

CostProfile CostProfile::unit() {
  CostProfile profile;
  for (auto& row : profile.table_) row.fill(Cost(1));
  return profile;
}

Result<CostProfile> CostProfile::from_json_text(std::string_view text, std::string_view source) {
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return profile_error(source, "not valid JSON");
  if (!doc.is_object()) return profile_error(source, "a cost profile is a JSON object");
  CostProfile profile = unit();
  if (doc.contains("default")) {
    auto cost = cost_from_json(doc["default"]);
    if (!cost) return profile_error(source, "key 'default': expected a non-negative integer or \"inf\"");
    for (auto& row : profile.table_) row.fill(*cost);
  }
  auto apply_ops = [&](const nlohmann::json& ops, std::string_view where, int dtype) -> std::optional<Error> {
    if (!ops.is_object()) return profile_error(source, std::string(where) + ": expected an object");
    for (const auto& [key, value] : ops.items()) {
      auto op = op_by_name(key);
      if (!op) return profile_error(source, std::string(where) + ": unknown operation '" + key + "'");
      auto cost = cost_from_json(value);
      if (!cost) {
        return profile_error(source, std::string(where) + "." + key + ": expected a non-negative integer or \"inf\"");
      }
      for (int t = 0; t < kNumDTypes; ++t) {
        if (dtype < 0 || dtype == t) profile.table_[t][static_cast<int>(*op)] = *cost;
      }
    }
    return std::nullopt;
  };
  // Apply in a fixed order (name, ops, then the per-dtype overrides), whatever the
  // order of the keys in the file.
  for (const auto& [key, value] : doc.items()) {
    if (key != "name" && key != "default" && key != "ops" && key != "dtypes" && key != "comment") {
      return profile_error(source, "unknown key '" + key + "'");
    }
  }
  if (doc.contains("name")) {
    if (!doc["name"].is_string()) return profile_error(source, "key 'name': expected a string");
    profile.name_ = doc["name"].get<std::string>();
  }
  if (doc.contains("ops")) {
    if (auto error = apply_ops(doc["ops"], "ops", -1)) return *error;
  }
  if (doc.contains("dtypes")) {
    const nlohmann::json& dtypes = doc["dtypes"];
    if (!dtypes.is_object()) return profile_error(source, "key 'dtypes': expected an object");
    for (const auto& [dtype_text, ops] : dtypes.items()) {
      auto dtype = parse_dtype(dtype_text);
      if (!dtype) return profile_error(source, "dtypes: unknown dtype '" + dtype_text + "'");
      if (auto error = apply_ops(ops, "dtypes." + dtype_text, static_cast<int>(*dtype))) return *error;
    }
  }
  return profile;
}

Result<CostProfile> CostProfile::from_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error{path + ": cannot open the cost profile"};
  std::stringstream text;
  text << in.rdbuf();
  return from_json_text(text.str(), path);
}

}  // namespace eqsat
