#include "passes/function_costs.h"

#include <nlohmann/json.hpp>

namespace eqsat {

namespace {

Error at(const DecoratorArg& arg, std::string message) { return Error{std::move(message), arg.column, arg.line}; }

// One `key=value` entry as the JSON profile text that sets it.
Result<std::string> entry_json(const DecoratorArg& arg) {
  nlohmann::json value;
  if (arg.value == "inf") {
    value = "inf";
  } else {
    std::size_t used = 0;
    unsigned long long number = 0;
    try {
      number = std::stoull(arg.value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != arg.value.size() || arg.value[0] == '-' || arg.is_string) {
      return at(arg, "@costs: " + arg.key + "=" + arg.value + ": expected a non-negative integer or inf");
    }
    value = static_cast<uint64_t>(number);
  }
  nlohmann::json doc;
  if (arg.key == "default") {
    doc["default"] = value;
  } else if (arg.key == "tree" || arg.key == "dag") {
    doc["weights"][arg.key] = value;
  } else {
    doc["ops"][arg.key] = value;
  }
  return doc.dump();
}

Result<CostProfile> resolve_one(const Decorator& d, const std::string& function, const CostProfile& run_profile,
                                const std::string& base_dir) {
  CostProfile profile = run_profile;
  bool named = false;
  std::string entries;
  for (const DecoratorArg& arg : d.args) {
    if (arg.key.empty()) {
      if (named) return at(arg, "@costs: only one profile may be named");
      if (!entries.empty()) return at(arg, "@costs: name the profile before the entries");
      named = true;
      Result<CostProfile> loaded = CostProfile::resolve(arg.value, base_dir);
      if (!loaded) return at(arg, "@costs: " + loaded.error().message);
      profile = *loaded;
      continue;
    }
    Result<std::string> json = entry_json(arg);
    if (!json) return json.error();
    Result<CostProfile> updated = CostProfile::from_json_text(*json, "@costs", profile);
    if (!updated) return at(arg, updated.error().message);
    profile = *updated;
    entries += (entries.empty() ? "" : ", ") + arg.key + "=" + arg.value;
  }
  if (!named && entries.empty()) {
    return Error{"@costs needs a profile or entries: @costs(\"div-expensive\") or @costs(floordiv=40)", d.column,
                 d.line};
  }
  // The name says where the costs of `function` came from, for reports.
  std::string name = profile.name() + (entries.empty() ? "" : " with " + entries);
  Result<CostProfile> with_name =
      CostProfile::from_json_text(nlohmann::json{{"name", name}}.dump(), "@costs of " + function, profile);
  return with_name;
}

}  // namespace

Result<FunctionCosts> resolve_function_costs(const Program& program, const CostProfile& run_profile,
                                             const std::string& base_dir) {
  FunctionCosts costs;
  for (const Function& f : program.functions) {
    const Decorator* found = nullptr;
    for (const Decorator& d : f.decorators) {
      if (d.name != "costs") {
        return Error{"unknown decorator '@" + d.name + "' (known: @costs, @fast_math)", d.column, d.line};
      }
      if (found) return Error{"a second @costs on function '" + f.name + "'", d.column, d.line};
      found = &d;
    }
    if (!found) continue;
    if (costs.count(f.name)) {
      return Error{"two functions named '" + f.name + "' with @costs", found->column, found->line};
    }
    Result<CostProfile> profile = resolve_one(*found, f.name, run_profile, base_dir);
    if (!profile) return profile.error();
    costs.emplace(f.name, *profile);
  }
  return costs;
}

}  // namespace eqsat
