// Placeholder: registers `warplab-cli bench` so that the command line is complete; its owner
// replaces this file with the real command.
#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "compute/core/error.h"

namespace warplab::cli {

void addBenchCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("bench", "micro-benchmark of the compute kernels (not yet available)");
    cmd->allow_extras();
    cmd->callback([] {
        throw compute::EngineError(compute::EngineError::Kind::Internal, "bench", "not yet available");
    });
}

}  // namespace warplab::cli
