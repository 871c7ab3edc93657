// warplab-cli: the headless front end of WarpLab (docs/CLI.md). Each subcommand lives
// in its own cmd_*.cpp; this file only assembles them.
#include <cstring>
#include <utility>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "app/cli/common_options.h"
#include "app/cli/mpi_job.h"
#include "app/cli/process_exit.h"

int main(int argc, char** argv) {
    // Under mpirun: MPI first (it may consume arguments); a rank's own errors name the rank.
    warplab::cli::mpi::start(&argc, &argv);
    CLI::App app{"Elastic time-series distances (euclidean, dtw, cdtw, sdtw, softdtw, twed) on EEG "
                 "recordings and series files.",
                 "warplab-cli"};
    app.require_subcommand(1);
    // Building a command's options costs time at every start (the bench commands alone have
    // dozens): when the first argument names a command, only that one is built; otherwise
    // (--help, a misspelt name) all of them, for the list and the error.
    using Add = void (*)(CLI::App&);
    static const std::pair<const char*, Add> commands[] = {
        {"info", warplab::cli::addInfoCommand},         {"dm", warplab::cli::addDmCommand},
        {"align", warplab::cli::addAlignCommand},       {"search", warplab::cli::addSearchCommand},
        {"patterns", warplab::cli::addPatternsCommand}, {"filter", warplab::cli::addFilterCommand},
        {"psd", warplab::cli::addPsdCommand},           {"bench", warplab::cli::addBenchCommand},
        {"detect", warplab::cli::addDetectCommand},     {"crossval", warplab::cli::addCrossvalCommand},
        {"score", warplab::cli::addScoreCommand}};
    bool one = false;
    for (const auto& [name, add] : commands)
        if (argc > 1 && std::strcmp(argv[1], name) == 0) {
            add(app);
            one = true;
        }
    if (!one)
        for (const auto& [name, add] : commands) add(app);
    if (warplab::cli::mpi::rank() > 0) app.name("warplab-cli (" + warplab::cli::mpi::rankLabel() + ")");
    // Every output is complete here, so the process ends without its teardown (process_exit.h).
    return warplab::cli::leave(warplab::cli::mpi::finish(warplab::cli::runCli(app, argc, argv)));
}
