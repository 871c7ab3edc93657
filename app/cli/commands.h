// The subcommands of warplab-cli. main.cpp builds the CLI11 app and calls each add*Command once;
// each registers its subcommand, options and a callback that runs it. A callback reports failure
// by throwing (compute::EngineError, io::IoError, ...); runCli() in common_options.h maps the
// exception to the exit code (2 bad input, 1 failure), so every command fails the same way.
#pragma once

namespace CLI {
class App;
}

namespace warplab::cli {

void addInfoCommand(CLI::App& app);      // cmd_info.cpp
void addDmCommand(CLI::App& app);        // cmd_dm.cpp
void addAlignCommand(CLI::App& app);     // cmd_align.cpp
void addSearchCommand(CLI::App& app);    // cmd_search.cpp
void addBenchCommand(CLI::App& app);     // cmd_bench.cpp
void addPatternsCommand(CLI::App& app);  // cmd_patterns.cpp

}  // namespace warplab::cli
