// `warplab-cli align`: one pair by the scalar reference. Prints `distance <value>`; --path
// writes the warping path as CSV `i,j`, --matrix the accumulated-cost matrix (.npy, or .csv/.h5).
// --channel and --window cut both series; --reference-channel and --reference-window cut the
// second (B_FILE) its own way, as `search` names the side searched in.
#include <fstream>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "app/cli/common_options.h"
#include "app/cli/csv_output.h"
#include "compute/engine/engine.h"
#include "io/io_error.h"
#include "io/matrix_io.h"

namespace warplab::cli {

namespace {

struct AlignOptions {
    MetricOptions metric;
    RunFlags run;  // accepted for uniformity; alignments always use the scalar reference
    SeriesFlags series;
    std::string a, b, pathOut, matrixOut;
    std::string referenceChannel, referenceWindow;  // B_FILE's; default: --channel, --window
};

void writePathCsv(const std::string& file, const compute::Alignment& al) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    if (!out) throw io::IoError(file, "--path", "cannot open for writing");
    out << "i,j\n";
    for (const auto& [i, j] : al.path) out << i << ',' << j << '\n';
    out.flush();
    if (!out) throw io::IoError(file, "--path", "write failed");
}

void runAlign(const AlignOptions& o) {
    compute::Params params = toParams(o.metric);
    params.rate = timestampRate(o.series, o.a);
    compute::Series x = readOneSeries(o.a, o.series, "A_FILE");
    SeriesFlags refFlags = o.series;
    if (!o.referenceChannel.empty()) refFlags.channel = o.referenceChannel;
    if (!o.referenceWindow.empty()) refFlags.window = o.referenceWindow;
    compute::Series y = readOneSeries(o.b, refFlags, "B_FILE");
    const bool withMatrix = !o.matrixOut.empty();
    compute::Alignment al;
    // Ctrl-C and --progress as for every other command (the engine checks after each row).
    const compute::RunOptions run = toRunOptions(o.run, "align");
    namingFiles({{"x", o.a}, {"y", o.b}}, [&] { al = compute::Engine::align(x, y, params, withMatrix, run); });
    finishProgress();
    if (!o.pathOut.empty()) writePathCsv(o.pathOut, al);
    if (withMatrix) {
        compute::DistanceMatrix m;
        m.rows = al.n;
        m.cols = al.m;
        m.values = al.matrix;
        m.params = params;
        io::writeMatrix(o.matrixOut, m);
    }
    std::cout << "distance " << formatDouble(al.distance) << '\n';
    flushStdout();
}

}  // namespace

void addAlignCommand(CLI::App& app) {
    auto o = std::make_shared<AlignOptions>();
    auto* cmd = app.add_subcommand("align", "align two series: distance, warping path, accumulated-cost matrix");
    addMetricOptions(*cmd, o->metric);
    cmd->add_option("A_FILE", o->a, "first series (matrix rows)")->required()->check(CLI::ExistingFile);
    cmd->add_option("B_FILE", o->b, "second series (matrix columns)")->required()->check(CLI::ExistingFile);
    cmd->add_option("--reference-channel", o->referenceChannel, "EDF/BDF signal of B_FILE (default: --channel)");
    cmd->add_option("--reference-window", o->referenceWindow,
                    "EDF/BDF window START:LEN of B_FILE in seconds (default: --window)")
        ->option_text("START:LEN");
    cmd->add_option("--path", o->pathOut, "write the warping path as CSV i,j");
    cmd->add_option("--matrix", o->matrixOut, "write the accumulated-cost matrix (.npy)");
    addSeriesOptions(*cmd, o->series);
    addRunOptions(*cmd, o->run);
    cmd->callback([o] { runAlign(*o); });
}

}  // namespace warplab::cli
