// Placeholder: registers `warplab-cli patterns` so that the command line is complete; its owner
// replaces this file with the real command.
#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "compute/core/error.h"

namespace warplab::cli {

void addPatternsCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("patterns", "rank seizure patterns of a recording by how well they separate ictal epochs (not yet available)");
    cmd->allow_extras();
    cmd->callback([] {
        throw compute::EngineError(compute::EngineError::Kind::Internal, "patterns", "not yet available");
    });
}

}  // namespace warplab::cli
