// The `eqsat` command line: one subcommand per file (tools/commands.h).
#include <exception>
#include <vector>

#include <CLI/CLI.hpp>

#include "tools/commands.h"
#include "tools/engine.h"

int main(int argc, char** argv) {
  CLI::App app("eqsat: equality-saturation simplifier for tensor-compiler index arithmetic", "eqsat");
  app.set_version_flag("--version", "eqsat " EQSAT_VERSION);
  app.require_subcommand(1);
  const std::vector<eqsat::cli::Command> commands = {eqsat::cli::add_batch_command(app),
                                                     eqsat::cli::add_simplify_command(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version exit 0; every usage error exits 2.
    return app.exit(error) == 0 ? 0 : 2;
  }
  try {
    for (const eqsat::cli::Command& command : commands) {
      if (command.app->parsed()) return command.run();
    }
  } catch (const std::exception& error) {
    return eqsat::cli::fail(std::string("internal error: ") + error.what());
  }
  return 2;
}
