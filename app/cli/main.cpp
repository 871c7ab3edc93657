// warplab-cli: the headless front end of WarpLab (docs/CLI.md). Each subcommand lives
// in its own cmd_*.cpp; this file only assembles them.
#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "app/cli/common_options.h"
#include "app/cli/mpi_job.h"

int main(int argc, char** argv) {
    // Under mpirun: MPI first (it may consume arguments); a rank's own errors name the rank.
    warplab::cli::mpi::start(&argc, &argv);
    CLI::App app{"Elastic time-series distances (euclidean, dtw, cdtw, sdtw, softdtw, twed) on EEG "
                 "recordings and series files.",
                 "warplab-cli"};
    app.require_subcommand(1);
    warplab::cli::addInfoCommand(app);
    warplab::cli::addDmCommand(app);
    warplab::cli::addAlignCommand(app);
    warplab::cli::addSearchCommand(app);
    warplab::cli::addPatternsCommand(app);
    warplab::cli::addFilterCommand(app);
    warplab::cli::addPsdCommand(app);
    warplab::cli::addBenchCommand(app);
    warplab::cli::addDetectCommand(app);
    warplab::cli::addCrossvalCommand(app);
    warplab::cli::addScoreCommand(app);
    if (warplab::cli::mpi::rank() > 0) app.name("warplab-cli (" + warplab::cli::mpi::rankLabel() + ")");
    return warplab::cli::mpi::finish(warplab::cli::runCli(app, argc, argv));
}
