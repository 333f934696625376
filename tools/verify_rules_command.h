// `eqsat verify-rules [FILES...]`: prove the rule catalogue sound with Z3 and keep
// rules/rules.lock. Registered by main.cpp like every other command (tools/commands.h).
#pragma once

#include "tools/commands.h"

namespace eqsat::cli {

Command add_verify_rules_command(CLI::App& app);

}  // namespace eqsat::cli
