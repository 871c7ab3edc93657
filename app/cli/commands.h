// The subcommands of warplab-cli. main.cpp builds the CLI11 app and calls each add*Command once;
// each registers its subcommand, options and a callback that runs it. A callback reports failure
// by throwing (compute::EngineError, io::IoError, ...); runCli() in common_options.h maps the
// exception to the exit code (2 bad input, 1 failure), so every command fails the same way.
#pragma once
#include <string>

namespace CLI {
class App;
}

namespace warplab::cli {

void addInfoCommand(CLI::App& app);      // cmd_info.cpp
void addDmCommand(CLI::App& app);        // cmd_dm.cpp
void addAlignCommand(CLI::App& app);     // cmd_align.cpp
void addSearchCommand(CLI::App& app);    // cmd_search.cpp
void addPatternsCommand(CLI::App& app);  // cmd_patterns.cpp
void addFilterCommand(CLI::App& app);    // cmd_filter.cpp: a channel filtered to a frequency band
void addPsdCommand(CLI::App& app);       // cmd_psd.cpp: Welch power spectra, optionally per region kind
void addBenchCommand(CLI::App& app);     // cmd_bench.cpp: the kernel table, and the subcommands below
void addScoreCommand(CLI::App& app);     // cmd_score.cpp
void addDetectCommand(CLI::App& app);    // cmd_detect.cpp
void addCrossvalCommand(CLI::App& app);  // cmd_crossval.cpp

// The subcommands of `bench`, one file each (cmd_bench_<name>.cpp): every published figure
// comes from `warplab-cli bench ...`. Each is given the `bench` command to register under.
void addBenchGpuCommand(CLI::App& bench);            // bench gpu: GPU kernels timed on the device
void addBenchMultiCommand(CLI::App& bench);          // bench multi: one matrix on 1 GPU against several
void addBenchCpuCommand(CLI::App& bench);            // bench cpu: CPU kernels, cells per CPU-second
void addBenchWindowCommand(CLI::App& bench);         // bench window: the window search
void addBenchStudyCommand(CLI::App& bench);          // bench study: pattern discovery over a study on disk
void addBenchLongRecordingCommand(CLI::App& bench);  // bench long-recording: reading very long EDF files
void addBenchSpectrogramCommand(CLI::App& bench);    // bench spectrogram: the view's spectrogram per redraw
void addBenchRescoreCommand(CLI::App& bench);        // bench rescore: the Detection view re-scoring a kept cross-validation
void addBenchCrossvalCommand(CLI::App& bench);       // bench crossval: cross-validation one discovery per fold vs one matrix

// Throws EngineError(Device) naming `command` when this build has no GPU backend or no usable
// device: the GPU subcommands fail with exit code 1 and that message (cmd_bench.cpp).
void requireGpu(const std::string& command);

}  // namespace warplab::cli
