// The `eqsat` command line: one subcommand per file (tools/commands.h).
#include <malloc.h>

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <vector>

#include "egraph/heap_pages.h"
#include "tools/commands.h"
#include "tools/engine.h"
#include "tools/verify_rules_command.h"

int main(int argc, char** argv) {
  // Blocks of 128 KB and more (the e-graph's tables, large class lists, match lists)
  // are mapped on their own and go back to the system when freed. glibc otherwise
  // raises this threshold each time such a block is freed, and then serves the growing
  // tables of a large saturation from its heap, where the space they free stays part
  // of the process: peak memory then counts every old buffer of a doubling vector.
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  CLI::App app("eqsat: equality-saturation simplifier for tensor-compiler index arithmetic", "eqsat");
  app.set_version_flag("--version", "eqsat " EQSAT_VERSION);
  app.fallthrough();  // a command's line may hold the options of all commands (--huge-pages)
  bool huge_pages = false, no_huge_pages = false;
  CLI::Option* huge_pages_flag =
      app.add_flag("--huge-pages", huge_pages,
                   "Give the heap transparent huge pages from the start, not only once an e-graph grows large "
                   "(docs/cli.md)");
  app.add_flag("--no-huge-pages", no_huge_pages,
               "Keep the heap in 4 KB pages even for large e-graphs: less peak memory, large saturations about 1.25x "
               "the time (docs/cli.md)")
      ->excludes(huge_pages_flag);
  const std::vector<eqsat::cli::Command> commands = {
      eqsat::cli::add_batch_command(app),         eqsat::cli::add_simplify_command(app),
      eqsat::cli::add_simplify_file_command(app), eqsat::cli::add_verify_rules_command(app),
      eqsat::cli::add_fuzz_command(app),          eqsat::cli::add_explain_command(app),
      eqsat::cli::add_dot_command(app),           eqsat::cli::add_saturate_command(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help, --version
    std::cerr << "eqsat: error: " << error.what() << "\nRun 'eqsat --help' for more information.\n";
    return 2;
  }
  // Before a command loads its rules, so that with --huge-pages they come from huge
  // pages too. By default only the saturations of large e-graphs take them
  // (egraph/heap_pages.h): a small one would pay more memory than it gains.
  if (huge_pages && !eqsat::use_huge_pages_for_heap(eqsat::HugeHeap::kFromNow)) {
    std::cerr << "eqsat: note: --huge-pages has no effect here (the kernel's transparent huge pages are off, or the "
                 "C library is not glibc)\n";
  } else if (!huge_pages && !no_huge_pages) {
    eqsat::use_huge_pages_for_heap(eqsat::HugeHeap::kForLargeEGraphs);
  }
  try {
    for (const eqsat::cli::Command& command : commands) {
      if (command.app->parsed()) return command.run();
    }
  } catch (const std::exception& error) {
    return eqsat::cli::fail(std::string("internal error: ") + error.what());
  }
  std::cerr << "eqsat: error: a command is required (batch, simplify, simplify-expr, explain, dot, verify-rules, fuzz, "
               "saturate)\nRun 'eqsat --help' for more "
               "information.\n";
  return 2;
}
