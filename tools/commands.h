// The subcommands of `eqsat`. Each file adds one to the application and returns how to
// run it once the command line is parsed.
//
// Exit status: 0 success; 1 an input, file or profile could not be used (message on
// stderr); 2 a usage error (unknown command or flag, missing argument).
#pragma once

#include <algorithm>
#include <functional>
#include <thread>

#include "tools/cli_app.h"

namespace eqsat::cli {

struct Command {
  CLI::App* app;             // the subcommand, to ask whether it was chosen
  std::function<int()> run;  // its exit status
};

// The default of a command's --threads: the machine's cores (at least one, also where
// the count is not known).
inline unsigned cores() { return std::max(1u, std::thread::hardware_concurrency()); }

Command add_batch_command(CLI::App& app);          // batch_command.cpp
Command add_simplify_command(CLI::App& app);       // simplify_command.cpp
Command add_simplify_file_command(CLI::App& app);  // simplify_file_command.cpp
Command add_fuzz_command(CLI::App& app);           // fuzz_command.cpp
Command add_explain_command(CLI::App& app);        // explain_command.cpp
Command add_dot_command(CLI::App& app);            // dot_command.cpp
Command add_saturate_command(CLI::App& app);       // saturate_command.cpp

}  // namespace eqsat::cli
