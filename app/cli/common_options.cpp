#include "app/cli/common_options.h"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <map>
#include <mutex>
#include <new>

#include <CLI/CLI.hpp>

#include "app/cli/devices_option.h"
#include "compute/core/error.h"
#include "io/io_error.h"
#include "io/recording.h"

namespace warplab::cli {

namespace {

using compute::EngineError;

// Ctrl-C cancels the running job between tiles instead of killing the process mid-write, so
// that streamed outputs remove their temporary file.
compute::CancelToken g_cancel;
extern "C" void onInterrupt(int) { g_cancel.cancel(); }

std::map<std::string, compute::Metric> metricNames() {
    std::map<std::string, compute::Metric> names;
    for (auto m : compute::allMetrics()) names.emplace(std::string(compute::metricName(m)), m);
    return names;
}

// One progress line on stderr, redrawn at most 25 times a second (workers may call at once).
struct ProgressLine {
    std::mutex mutex;
    std::chrono::steady_clock::time_point last{};
    bool drawn = false;
};
ProgressLine g_progress;

}  // namespace

void addMetricOptions(CLI::App& cmd, MetricOptions& o, bool withMetric, bool metricRequired) {
    auto& p = o.params;
    if (withMetric) {
        auto* opt = cmd.add_option("--metric", p.metric, "euclidean, dtw, cdtw, sdtw, softdtw or twed")
                        ->transform(CLI::CheckedTransformer(metricNames(), CLI::ignore_case))
                        ->option_text("METRIC");
        if (metricRequired) opt->required();
    }
    // Range checks stay in compute::validate so that the CLI and the GUI report them alike.
    cmd.add_option("--band", p.band, "Sakoe-Chiba half-width w >= 0 (cdtw)")->capture_default_str();
    cmd.add_option("--gamma", p.gamma, "soft-DTW smoothing > 0 (softdtw)")->capture_default_str();
    cmd.add_option("--nu", p.nu, "TWED stiffness >= 0")->capture_default_str();
    cmd.add_option("--lambda", p.lambda, "TWED edit penalty >= 0")->capture_default_str();
    cmd.add_option("--degree", p.degree, "TWED norm degree p >= 1 over the channels")->capture_default_str();
    addCostOptions(cmd, o);
}

void addCostOptions(CLI::App& cmd, MetricOptions& o) {
    auto& p = o.params;
    std::map<std::string, compute::Cost> costs{{"sq", compute::Cost::Squared}, {"abs", compute::Cost::Absolute}};
    cmd.add_option("--cost", p.cost, "local cost: sq (squared, the default) or abs (absolute)")
        ->transform(CLI::CheckedTransformer(costs, CLI::ignore_case))
        ->option_text("sq|abs");
    cmd.add_flag("--znorm", p.znorm, "z-normalise each series (per channel) first");
    cmd.add_flag("--sqrt", p.sqrt, "report the square root of the accumulated cost");
}

compute::Params toParams(const MetricOptions& o) {
    compute::validate(o.params);
    return o.params;
}

void addRunOptions(CLI::App& cmd, RunFlags& o) {
    std::map<std::string, compute::Backend> backends{{"auto", compute::Backend::Auto},
                                                     {"cpu", compute::Backend::Cpu},
                                                     {"cuda", compute::Backend::Cuda},
                                                     {"hip", compute::Backend::Hip}};
    cmd.add_option("--backend", o.backend, "auto (a GPU when present, else CPU), cpu, cuda or hip")
        ->transform(CLI::CheckedTransformer(backends, CLI::ignore_case))
        ->option_text("auto|cpu|cuda|hip");
    cmd.add_option("--kernel", o.kernel, "kernel by registry name (cpu.reference, cpu.simd, cuda.shuffle, ...)");
    cmd.add_option("--threads", o.threads, "CPU threads (0: all cores)")->check(CLI::NonNegativeNumber);
    cmd.add_flag("--progress", o.progress, "show progress on stderr even when it is not a terminal");
    cmd.add_option("--devices", o.devices, "GPUs to spread the work over: all, or indices such as 0,1")
        ->option_text("all|0,1,...")
        ->capture_default_str();
}

compute::RunOptions toRunOptions(const RunFlags& o, const std::string& what) {
    compute::RunOptions r;
    r.backend = o.backend;
    r.kernel = o.kernel;
    r.threads = o.threads;
    r.devices = parseDevices(o.devices);
    r.cancel = &g_cancel;
    if (o.progress || ::isatty(STDERR_FILENO)) {
        r.progress = [what](double fraction) {
            std::lock_guard lock(g_progress.mutex);
            auto now = std::chrono::steady_clock::now();
            if (fraction < 1.0 && g_progress.drawn && now - g_progress.last < std::chrono::milliseconds(40)) return;
            g_progress.last = now;
            g_progress.drawn = true;
            std::fprintf(stderr, "\r%s: %5.1f%%", what.c_str(), 100.0 * fraction);
            std::fflush(stderr);
        };
    }
    return r;
}

void finishProgress() {
    std::lock_guard lock(g_progress.mutex);
    if (g_progress.drawn) std::fputc('\n', stderr);
    g_progress.drawn = false;
}

void addSeriesOptions(CLI::App& cmd, SeriesFlags& o) {
    cmd.add_flag("--label-column", o.labelColumn, "the first value of each line is a class label");
    cmd.add_flag("--multivariate", o.multivariate, "each file is one series, one channel per line");
    cmd.add_option("--channel", o.channel, "EDF/BDF signal by label or #INDEX");
    cmd.add_option("--window", o.window, "EDF/BDF window START:LEN in seconds")->option_text("START:LEN");
    cmd.add_option("--rate", o.rate, "sampling rate in Hz: TWED timestamps t_i = i / rate seconds")
        ->check(CLI::PositiveNumber);
    cmd.add_option("--timestamps", o.timestamps,
                   "TWED timestamps: index (sample number), rate (seconds: --rate, else the EDF/BDF "
                   "channel's rate) or auto (seconds when --rate is given)")
        ->check(CLI::IsMember({"auto", "index", "rate"}))
        ->capture_default_str();
}

double timestampRate(const SeriesFlags& o, const std::string& path) {
    if (o.timestamps == "index") return 0.0;
    if (o.rate > 0 || o.timestamps == "auto") return o.rate;
    if (!o.channel.empty()) {  // a recording channel knows its own rate
        auto rec = io::Recording::open(path);
        const int sig = rec->findSignal(o.channel);
        if (sig >= 0 && rec->signals()[sig].rateHz > 0) return rec->signals()[sig].rateHz;
    }
    throw EngineError(EngineError::Kind::BadParameter, "timestamps",
                      "'rate' needs --rate HZ (or an EDF/BDF --channel, whose header gives the rate)");
}

io::SeriesFileOptions toSeriesFileOptions(const SeriesFlags& o) {
    io::SeriesFileOptions s;
    s.labelColumn = o.labelColumn;
    s.multivariate = o.multivariate;
    s.channel = o.channel;
    if (!o.window.empty()) {
        auto bad = [&](const std::string& why) {
            return EngineError(EngineError::Kind::BadParameter, "window", "'" + o.window + "': " + why);
        };
        auto colon = o.window.find(':');
        if (colon == std::string::npos) throw bad("expected START:LEN in seconds");
        double start = 0, length = 0;
        try {
            std::size_t used = 0;
            start = std::stod(o.window.substr(0, colon), &used);
            if (used != colon) throw bad("START is not a number");
            std::string len = o.window.substr(colon + 1);
            length = std::stod(len, &used);
            if (used != len.size()) throw bad("LEN is not a number");
        } catch (const std::logic_error&) {  // stod: invalid_argument, out_of_range
            throw bad("expected START:LEN in seconds");
        }
        if (!(start >= 0)) throw bad("START must be >= 0");
        if (!(length > 0)) throw bad("LEN must be > 0");
        s.windowStartS = start;
        s.windowLengthS = length;
    }
    return s;
}

namespace {
// EDF and BDF headers begin with "0       " and "\xffBIOSEMI" (the version field).
bool isEdfOrBdf(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    char v[8] = {};
    const bool whole = std::fread(v, 1, sizeof v, f) == sizeof v;
    std::fclose(f);
    const std::string s(v, sizeof v);
    return whole && (s == "0       " || s == "\xff" "BIOSEMI");
}
}  // namespace

compute::SeriesSet readSeries(const std::string& path, const SeriesFlags& o, const std::string& role) {
    // A channel or window on a text file would be ignored silently; say so instead.
    if ((!o.channel.empty() || !o.window.empty()) && !isEdfOrBdf(path))
        throw io::IoError(path, o.channel.empty() ? "window" : "channel",
                          "--channel and --window apply to EDF/BDF recordings, and this is not one");
    compute::SeriesSet set = io::readSeriesFile(path, toSeriesFileOptions(o));
    if (set.empty()) throw io::IoError(path, role, "holds no series");
    return set;
}

compute::Series readOneSeries(const std::string& path, const SeriesFlags& o, const std::string& role) {
    compute::SeriesSet set = readSeries(path, o, role);
    if (set.size() == 1) return std::move(set.front());
    bool column = true;
    for (const auto& s : set) column = column && s.length == 1 && s.dims == 1;
    if (!column)
        throw io::IoError(path, role, "holds " + std::to_string(set.size()) +
                                          " series; one series is expected (use --multivariate for one series "
                                          "with one channel per line)");
    compute::Series joined;
    joined.values.reserve(set.size());
    for (const auto& s : set) joined.values.push_back(s.values.front());
    joined.length = joined.values.size();
    joined.name = set.front().name;
    return joined;
}

void namingFiles(const std::vector<std::pair<std::string, std::string>>& inputs, const std::function<void()>& work) {
    try {
        work();
    } catch (const io::IoError&) {
        throw;  // already names its file
    } catch (const EngineError& e) {
        const std::string& f = e.field();
        for (const auto& [role, file] : inputs)
            if (f == role || f.rfind(role + "[", 0) == 0) throw EngineError(e.kind(), "", file + ": " + e.what());
        throw;
    }
}

int runCli(CLI::App& app, int argc, char** argv) {
    std::signal(SIGINT, onInterrupt);
    const std::string prog = app.get_name();
    try {
        // CLI11 would only say "a subcommand is required" for a misspelt command; name it.
        if (argc > 1 && argv[1][0] != '-') {
            bool known = false;
            std::string names;
            for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
                known = known || sub->check_name(argv[1]);
                names += (names.empty() ? "" : ", ") + sub->get_name();
            }
            if (!known)
                throw CLI::ValidationError("unknown command '" + std::string(argv[1]) + "' (commands: " + names + ")");
        }
        app.parse(argc, argv);
        finishProgress();
        return kExitOk;
    } catch (const QuietExit& q) {
        finishProgress();
        return q.code;
    } catch (const CLI::Success& e) {  // --help and friends: the text goes to stdout, exit 0
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "%s: error: %s\n", prog.c_str(), e.what());
        std::fprintf(stderr, "Run with --help for more information.\n");
        return kExitBadInput;
    } catch (const EngineError& e) {
        finishProgress();
        if (e.kind() == EngineError::Kind::Cancelled) {
            std::fprintf(stderr, "%s: cancelled\n", prog.c_str());
            return kExitFailure;
        }
        std::fprintf(stderr, "%s: error: %s\n", prog.c_str(), e.what());
        return e.isBadInput() ? kExitBadInput : kExitFailure;
    } catch (const std::bad_alloc&) {
        finishProgress();
        std::fprintf(stderr, "%s: error: out of memory\n", prog.c_str());
        return kExitFailure;
    } catch (const std::exception& e) {
        finishProgress();
        std::fprintf(stderr, "%s: error: %s\n", prog.c_str(), e.what());
        return kExitFailure;
    }
}

}  // namespace warplab::cli
