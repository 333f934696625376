#include "extract/cost.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "extract/embedded_profiles.h"

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

constexpr const char* kCostExpected = ": expected a non-negative integer or \"inf\"";

}  // namespace

CostProfile CostProfile::unit() {
  CostProfile profile;
  for (auto& row : profile.table_) row.fill(Cost(1));
  return profile;
}

std::vector<std::string> CostProfile::builtin_names() {
  std::vector<std::string> names;
  for (const EmbeddedProfile& profile : embedded_profiles()) names.emplace_back(profile.name);
  return names;
}

Result<CostProfile> CostProfile::builtin(std::string_view name) {
  for (const EmbeddedProfile& profile : embedded_profiles()) {
    if (profile.name == name) return from_json_text(profile.text, "profiles/" + std::string(name) + ".json");
  }
  std::string known;
  for (const std::string& n : builtin_names()) known += (known.empty() ? "" : ", ") + n;
  return Error{"unknown cost profile '" + std::string(name) + "' (shipped profiles: " + known +
               "; a file path contains '/' or ends in .json)"};
}

Result<CostProfile> CostProfile::resolve(const std::string& spec, const std::string& base_dir) {
  const bool is_path =
      spec.find('/') != std::string::npos || (spec.size() > 5 && spec.compare(spec.size() - 5, 5, ".json") == 0);
  if (!is_path) return builtin(spec);
  std::filesystem::path path(spec);
  if (path.is_relative() && !base_dir.empty()) path = std::filesystem::path(base_dir) / path;
  return from_file(path.string());
}

Result<CostProfile> CostProfile::from_json_text(std::string_view text, std::string_view source,
                                                const CostProfile& base) {
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return profile_error(source, "not valid JSON");
  if (!doc.is_object()) return profile_error(source, "a cost profile is a JSON object");
  for (const auto& [key, value] : doc.items()) {
    if (key != "name" && key != "default" && key != "ops" && key != "dtypes" && key != "comment" && key != "weights") {
      return profile_error(source, "unknown key '" + key + "' (known: name, comment, default, ops, dtypes, weights)");
    }
  }
  CostProfile profile = base;
  if (doc.contains("default")) {
    auto cost = cost_from_json(doc["default"]);
    if (!cost) return profile_error(source, std::string("key 'default'") + kCostExpected);
    for (auto& row : profile.table_) row.fill(*cost);
  }
  auto apply_ops = [&](const nlohmann::json& ops, std::string_view where, int dtype) -> std::optional<Error> {
    if (!ops.is_object()) return profile_error(source, std::string(where) + ": expected an object");
    for (const auto& [key, value] : ops.items()) {
      auto op = op_by_name(key);
      if (!op) return profile_error(source, std::string(where) + ": unknown operation '" + key + "'");
      auto cost = cost_from_json(value);
      if (!cost) return profile_error(source, std::string(where) + "." + key + kCostExpected);
      for (int t = 0; t < kNumDTypes; ++t) {
        if (dtype < 0 || dtype == t) profile.table_[t][static_cast<int>(*op)] = *cost;
      }
    }
    return std::nullopt;
  };
  // Apply in a fixed order (default, ops, then the per-dtype overrides), whatever the
  // order of the keys in the file.
  for (const char* key : {"name", "comment"}) {
    if (!doc.contains(key)) continue;
    if (!doc[key].is_string()) return profile_error(source, std::string("key '") + key + "': expected a string");
  }
  if (doc.contains("name")) profile.name_ = doc["name"].get<std::string>();
  if (doc.contains("comment")) profile.comment_ = doc["comment"].get<std::string>();
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
  if (doc.contains("weights")) {
    const nlohmann::json& weights = doc["weights"];
    if (!weights.is_object()) return profile_error(source, "key 'weights': expected an object");
    for (const auto& [key, value] : weights.items()) {
      uint64_t* slot = key == "tree" ? &profile.weights_.tree : key == "dag" ? &profile.weights_.dag : nullptr;
      if (!slot) return profile_error(source, "weights: unknown key '" + key + "' (known: tree, dag)");
      auto weight = cost_from_json(value);
      if (!weight || weight->is_infinite()) {
        return profile_error(source, "weights." + key + ": expected a non-negative integer");
      }
      *slot = weight->value();
    }
    if (profile.weights_.tree == 0 && profile.weights_.dag == 0) {
      return profile_error(source, "weights: the tree and dag weights are both 0 (every form would cost 0)");
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
