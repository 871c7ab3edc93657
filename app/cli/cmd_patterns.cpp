// `warplab-cli patterns`: seizure pattern discovery (METRICS.md). For each --channel,
// every epoch-long span of the concatenated seizures is compared by band DTW with every epoch of the
// channel; prints CSV `rank,quality,pattern_index,start_seconds` (a `channel` column first
// when several channels are asked for). --dm-out streams the patterns x epochs matrix to
// .npy/.h5 as it is computed (a channel suffix is added when several channels are asked).
//
// Hidden benchmark mode: --synthetic N generates a channel of N samples at 256 Hz (N =
// "published" is the published workload, 150,995,456 samples = 589,823 epochs) with seizures
// of --synthetic-seizure samples (107,263 = 415 patterns); --timing prints the throughput.
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/commands.h"
#include "app/cli/common_options.h"
#include "app/cli/csv_output.h"
#include "app/cli/devices_option.h"
#include "app/cli/gpu_start_up.h"
#include "app/cli/freq_band_option.h"
#include "app/cli/mpi_patterns.h"
#include "app/cli/mpi_job.h"
#include "app/cli/patterns_study.h"
#include "app/cli/study_cli.h"
#include "app/cli/time_split.h"
#include "compute/core/error.h"
#include "compute/engine/device_list.h"
#include "compute/patterns/pattern_discovery.h"
#include "compute/patterns/synthetic_channel.h"
#include "compute/engine/epoch_matrix.h"
#include "io/io_error.h"
#include "io/matrix_band.h"
#include "io/matrix_io.h"
#include "io/npy_offset_writer.h"
#include "io/pattern_input.h"
#include "io/recording.h"
#include "io/regions.h"

namespace warplab::cli {

namespace {

using compute::EngineError;

struct PatternsOptions {
    RunFlags run;
    std::string recording;
    std::string study;      // --study FOLDER|SUMMARY (patterns_study.cpp)
    bool skipMissing = false;
    std::vector<std::string> channels;
    std::string seizures, summary, annotation;
    int epoch = 1024, stride = 256, band = 16;
    std::string quality = "auc";
    int top = 0;
    std::string dmOut;
    double rate = 0;
    FreqBandFlags freqBands;
    // benchmark and tuning (hidden)
    std::string synthetic;
    long long syntheticSeizure = 107263;
    bool timing = false;
    std::size_t epochBlock = 0;
    std::size_t memoryMiB = 0;
};

// "START-END,START-END" in seconds.
std::vector<io::Region> parseSeizureList(const std::string& text) {
    std::vector<io::Region> out;
    std::size_t at = 0;
    int index = 0;
    while (at <= text.size()) {
        std::size_t comma = text.find(',', at);
        if (comma == std::string::npos) comma = text.size();
        const std::string item = text.substr(at, comma - at);
        const std::string field = "seizures[" + std::to_string(index) + "]";
        // The dash between the two numbers is the first one after a digit (no negative times).
        const std::size_t dash = item.find('-', 1);
        if (item.empty() || dash == std::string::npos)
            throw EngineError(EngineError::Kind::BadParameter, field, "expected START-END in seconds, got \"" + item + "\"");
        double a = 0, b = 0;
        try {
            std::size_t na = 0, nb = 0;
            a = std::stod(item.substr(0, dash), &na);
            b = std::stod(item.substr(dash + 1), &nb);
            if (na != dash || nb != item.size() - dash - 1) throw std::invalid_argument("trailing text");
        } catch (const std::exception&) {
            throw EngineError(EngineError::Kind::BadParameter, field, "expected START-END in seconds, got \"" + item + "\"");
        }
        out.push_back({io::RegionKind::Seizure, -1, a, b, "--seizures"});
        at = comma + 1;
        ++index;
    }
    return out;
}

// out.npy + "FP1-F7" -> out_FP1-F7.npy (characters unsafe in file names become '_').
std::string channelPath(const std::string& path, const std::string& channel) {
    std::filesystem::path p(path);
    std::string safe;
    for (char c : channel) safe += (std::isalnum((unsigned char)c) || c == '-' || c == '.') ? c : '_';
    return (p.parent_path() / (p.stem().string() + "_" + safe + p.extension().string())).string();
}

bool isCsv(const std::string& path) {
    auto ext = std::filesystem::path(path).extension().string();
    for (auto& c : ext) c = char(std::tolower((unsigned char)c));
    return ext == ".csv";
}

// Progress with elapsed time and ETA on stderr (when toRunOptions decided to draw progress).
void addEta(compute::RunOptions& ro) {
    if (!ro.progress) return;
    struct State {
        std::mutex mutex;
        std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now(), last;
        bool drawn = false, finished = false;
    };
    auto st = std::make_shared<State>();
    ro.progress = [st](double f) {
        std::lock_guard lock(st->mutex);
        if (st->finished) return;
        const auto now = std::chrono::steady_clock::now();
        if (f < 1.0 && st->drawn && now - st->last < std::chrono::milliseconds(40)) return;
        st->last = now;
        st->drawn = true;
        const double elapsed = std::chrono::duration<double>(now - st->start).count();
        if (f > 0.001 && f < 1.0)
            std::fprintf(stderr, "\rpatterns: %5.1f%%  elapsed %.0f s  ETA %.0f s   ", 100.0 * f, elapsed, elapsed * (1.0 - f) / f);
        else
            std::fprintf(stderr, "\rpatterns: %5.1f%%  elapsed %.0f s              ", 100.0 * f, elapsed);
        if (f >= 1.0) {
            std::fputc('\n', stderr);
            st->finished = true;
        }
        std::fflush(stderr);
    };
}

// " (device prep 0.001 s, setup 0.210 s, queue 0.002 s, loop 0.700 s, teardown 0.020 s; busy
// device 0 0.61 of 0.63 s, device 1 0.60 of 0.62 s)" for the device-epoch path: the host's
// phases of the call, then each device's busy time of the span from its first block to its last.
std::string deviceTiming(const compute::PatternRanking& r) {
    if (!r.deviceEpochs) return {};
    char buf[192];
    std::snprintf(buf, sizeof buf,
                  " (device prep %.3f s, setup %.3f s, queue %.3f s, loop %.3f s, teardown %.3f s; busy",
                  r.devicePrepSeconds, r.deviceSetupSeconds, r.deviceQueueSeconds, r.deviceLoopSeconds,
                  r.deviceTeardownSeconds);
    std::string t = buf;
    for (std::size_t d = 0; d < r.deviceBusySeconds.size(); ++d) {
        const double span = d < r.deviceSpanSeconds.size() ? r.deviceSpanSeconds[d] : 0.0;
        std::snprintf(buf, sizeof buf, "%s device %zu %.3f of %.3f s", d ? "," : "", d, r.deviceBusySeconds[d], span);
        t += buf;
    }
    return t + ")";
}

// One run; with `band` the channels are read whole and filtered to it first, the matrix goes to
// --dm-out's FILE.<band>.EXT and each printed row starts with the band (the header only when
// `header`).
void runPatternsOnce(const PatternsOptions& o, const compute::spectral::FrequencyBand* band, bool header) {
    const auto quality = compute::parseQuality(o.quality);
    if (!quality) throw EngineError(EngineError::Kind::BadParameter, "quality", "must be auc or infogain, got \"" + o.quality + "\"");

    TimeSplit split;
    // The GPUs' contexts start, and the run's pinned host buffers are pinned, while the input
    // is read or generated (device_list.h).
    const bool gpuRun = o.run.backend != compute::Backend::Cpu;
    GpuStartUp gpu(o.run);
    auto pinFor = [&](long long samples) {
        if (!gpuRun || samples <= 0) return;
        gpu.pin([samples, e = o.epoch, s = o.stride, budget = o.memoryMiB << 20](int d) {
            return compute::devicePinnedBufferBytes(samples, e, s, budget, d);
        }, compute::kEpochBlocksInFlight);
    };

    std::unique_ptr<io::Recording> rec;
    std::vector<float> syntheticData;
    std::vector<compute::PatternRequest> requests;
    std::unique_ptr<io::Study> study;
    std::vector<compute::LoadedSamples> loaded;  // a study's channels, read ahead of the job
    std::vector<std::vector<float>> filtered;  // the channels filtered to `band`, alive for the job
    double generateSeconds = 0;
    if (band && !o.synthetic.empty())
        throw EngineError(EngineError::Kind::BadParameter, "freq-band",
                          "--freq-band filters a --recording or a --study, not a --synthetic benchmark channel");
    if (band && mpi::active())
        throw EngineError(EngineError::Kind::BadParameter, "freq-band",
                          "--freq-band runs in one process; run patterns without mpirun");
    const std::string dmOut = band && !o.dmOut.empty() ? bandPath(o.dmOut, *band) : o.dmOut;
    if (!o.study.empty()) {
        if (!o.recording.empty() || !o.synthetic.empty() || o.rate > 0)
            throw EngineError(EngineError::Kind::BadParameter, "study", "--study replaces --recording, --synthetic and --rate");
        // Seizures: a summary study's own, plus --summary, --annotation, --seizures FILE:START-END.
        study = openStudyForCli(o.study, {o.skipMissing, o.summary, o.annotation}, "study");
        requests = studyPatternRequests(*study, o.channels, o.seizures);
        if (band)  // every recording's channel read and filtered on its own: no filter runs across files
            for (auto& r : requests) {
                auto& buffer = loaded.emplace_back(compute::loadSegments(r));
                if (!buffer.samples)  // a recording without samples: findPatterns names it
                    continue;
                for (auto& seg : r.segments) {
                    const auto f = filterToBand({compute::Series(std::vector<float>(seg.samples.begin(), seg.samples.end()), 1,
                                                                 r.channel)},
                                                r.rateHz, *band, o.freqBands.order, seg.recording, "channel " + r.channel)
                                       .front()
                                       .values;
                    std::copy(f.begin(), f.end(), buffer.samples.get() + (seg.samples.data() - buffer.samples.get()));
                }
            }
        // A GPU run holds the channel in host memory anyway (device epochs): it is read here,
        // recordings in parallel, while the GPUs start, rather than inside the job after them.
        // (One channel: several are computed one after another, each read in its turn.) Nothing
        // is pinned ahead: pinning waits for the contexts and would outlast the reading (0.18-0.22 s
        // of waiting on one H100), where the job pins while its first blocks compute.
        if (!band && requests.size() == 1 && gpu.started() && o.run.kernel.rfind("cpu.", 0) != 0 &&
            compute::gpuUnavailableReason().empty())
            loaded.push_back(compute::loadSegments(requests.front()));
    } else if (!o.synthetic.empty()) {
        compute::SyntheticChannel c;
        try {
            c.samples = o.synthetic == "published" ? 150995456LL : std::stoll(o.synthetic);
        } catch (const std::exception&) {
            throw EngineError(EngineError::Kind::BadParameter, "synthetic", "expected a sample count or \"published\", got \"" + o.synthetic + "\"");
        }
        c.seizureSamples = o.syntheticSeizure;
        pinFor(c.samples);
        const auto t0 = std::chrono::steady_clock::now();
        compute::PatternRequest r = compute::syntheticRequest(c);
        syntheticData = compute::syntheticSamples(c);  // in memory, so that only the matrix is timed
        r.samples = syntheticData;
        r.reader = nullptr;
        generateSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        requests.push_back(std::move(r));
    } else {
        if (o.recording.empty())
            throw EngineError(EngineError::Kind::BadParameter, "recording", "--recording FILE is required");
        const int sources = int(!o.seizures.empty()) + int(!o.summary.empty()) + int(!o.annotation.empty());
        if (sources != 1)
            throw EngineError(EngineError::Kind::BadParameter, "seizures",
                              "give exactly one of --seizures \"START-END,...\", --summary chbNN-summary.txt, --annotation TEXT");
        rec = io::Recording::open(o.recording);
        std::vector<io::Region> regions;
        if (!o.seizures.empty()) regions = parseSeizureList(o.seizures);
        else if (!o.summary.empty())
            regions = io::seizuresFromChbSummary(o.summary, std::filesystem::path(o.recording).filename().string());
        else {
            regions = io::seizuresFromAnnotations(*rec, o.annotation);
            if (regions.empty())
                throw EngineError(EngineError::Kind::BadInput, "annotation",
                                  o.recording + ": no annotation contains \"" + o.annotation + "\"");
        }
        io::checkRegions(*rec, regions);
        std::vector<int> signals;
        if (o.channels.empty()) {
            const int s = io::defaultPatternChannel(*rec);
            if (s < 0) throw EngineError(EngineError::Kind::BadInput, "channel", o.recording + ": no data signal");
            signals.push_back(s);
        }
        for (const auto& name : o.channels) {
            const int s = rec->findSignal(name);
            if (s < 0) throw EngineError(EngineError::Kind::BadInput, "channel", o.recording + ": no channel \"" + name + "\"");
            signals.push_back(s);
        }
        for (int s : signals) requests.push_back(io::patternRequest(*rec, s, regions, o.rate));
        if (band)  // the whole channel filtered once, so that every epoch sees the same filtered signal
            for (auto& r : requests) {
                auto& x = filtered.emplace_back(std::size_t(r.sampleCount));
                r.reader(0, r.sampleCount, x.data());
                x = filterToBand({compute::Series(std::move(x), 1, r.channel)}, r.rateHz, *band, o.freqBands.order,
                                 o.recording, "channel " + r.channel)
                        .front()
                        .values;
                r.samples = x;
                r.reader = nullptr;
            }
        if (requests.size() == 1) pinFor(requests.front().sampleCount);
    }

    split.mark(TimeSplit::Input);
    // Under mpirun the ranks share the patterns (rows): each writes its rows of a .npy in place
    // (io/npy_offset_writer.h), as `dm` does; .h5 and .csv would have to go through rank 0.
    const bool mpiNpy = mpi::active() && !dmOut.empty();
    if (mpiNpy && std::filesystem::path(dmOut).extension() != ".npy")
        mpi::agree(mpi::rank() == 0 ? std::make_exception_ptr(EngineError(
                                          EngineError::Kind::BadParameter, "dm-out",
                                          "under mpirun the matrix is written as .npy (every rank writes its rows in "
                                          "place); give a .npy path, or run with one process for .h5 or .csv"))
                                    : nullptr);
    const bool several = requests.size() > 1;
    std::vector<std::unique_ptr<io::MatrixStreamWriter>> writers(requests.size());
    std::vector<std::unique_ptr<io::NpyOffsetWriter>> rankWriters(requests.size());
    std::vector<std::string> partials;
    const bool oneHost = mpiNpy && mpi::oneHost();  // collective: every rank asks
    for (std::size_t k = 0; k < requests.size(); ++k) {
        auto& r = requests[k];
        r.keepMatrixUpToBytes = 0;  // the CLI keeps a matrix only to write it as CSV
        r.epoch = o.epoch;
        r.stride = o.stride;
        r.band = o.band;
        r.quality = *quality;
        r.epochBlock = o.epochBlock;
        r.memoryBudgetBytes = o.memoryMiB << 20;
        if (dmOut.empty()) continue;
        if (isCsv(dmOut)) {
            r.keepMatrix = true;  // CSV cannot be streamed: the matrix is written at the end
            continue;
        }
        // Opened before the job so that a bad path fails at once; a writer destroyed without
        // finish() (cancel, error) removes its temporary file, so nothing half-written remains.
        const auto shape = compute::validatePatternRequest(r);
        compute::Params params;
        params.metric = compute::Metric::Cdtw;
        params.band = r.band;
        const std::string path = several ? channelPath(dmOut, r.channel) : dmOut;
        if (mpiNpy) {
            // Rank 0 makes the file at full size under its temporary name, then every rank
            // opens it; its name comes after every rank has written and closed it.
            const std::string partial = io::npyPartialPath(path);
            partials.push_back(partial);
            mpi::step([&] {
                if (mpi::rank() == 0) io::createNpyShell(partial, shape.patterns, shape.epochs);
            });
            mpi::step([&] {
                rankWriters[k] = std::make_unique<io::NpyOffsetWriter>(partial, shape.patterns, shape.epochs, false, oneHost);
            });
            r.matrixSink = [w = rankWriters[k].get()](const compute::Tile& t, const double* v) { w->writeTile(t, v); };
            continue;
        }
        writers[k] = io::MatrixStreamWriter::create(path, shape.patterns, shape.epochs, params);
        r.matrixSink = [w = writers[k].get()](const compute::Tile& t, const double* v) { w->writeTile(t, v); };
    }

    compute::RunOptions ro = toRunOptions(o.run, "patterns");
    addEta(ro);
    split.mark(TimeSplit::Output);  // the matrix files opened
    // The GPUs' start-up (contexts, peer access) and the pinning ahead are the process's, not the
    // job's: the job starts when they are done rather than meeting them half-way through its
    // first device calls, and --timing says how long that wait was.
    const double startUpWait = gpu.wait();
    split.mark(TimeSplit::StartUp);
    std::vector<compute::PatternRanking> rankings;
    try {
        rankings = mpi::active() ? findPatternsMpi(requests, ro) : compute::findPatterns(requests, ro);
        if (mpiNpy) {
            mpi::step([&] {
                for (auto& w : rankWriters) w->close();
            });
            if (mpi::rank() == 0)
                for (std::size_t k = 0; k < partials.size(); ++k) {
                    const std::string path = several ? channelPath(dmOut, requests[k].channel) : dmOut;
                    std::error_code ec;
                    std::filesystem::rename(partials[k], path, ec);
                    if (ec) throw io::IoError(path, "", "cannot rename " + partials[k] + " to it: " + ec.message());
                }
        }
    } catch (...) {
        // A failed job leaves no matrix that looks complete (nor a temporary one).
        if (mpi::rank() == 0)
            for (const auto& partial : partials) {
                std::error_code ec;
                std::filesystem::remove(partial, ec);
            }
        throw;
    }
    split.mark(TimeSplit::Compute);
    // Samples the job read itself (a recording or study read lazily) are input; a view's finite
    // check, run beside the devices' upload, stays in compute.
    for (std::size_t k = 0; k < rankings.size() && k < requests.size(); ++k) {
        const auto& q = requests[k];
        const bool read = q.segments.empty() ? q.samples.empty() : q.segments.front().samples.empty();
        if (read) split.move(TimeSplit::Compute, TimeSplit::Input, rankings[k].readSeconds);
    }
    if (mpi::rank() != 0) return;  // rank 0 alone prints
    for (std::size_t k = 0; k < rankings.size(); ++k) {
        const std::string path = several ? channelPath(dmOut, rankings[k].channel) : dmOut;
        if (writers[k]) writers[k]->finish();
        if (rankings[k].matrix.rows > 0 && !dmOut.empty()) io::writeMatrix(path, rankings[k].matrix);
        if (band && !dmOut.empty()) {  // the band goes with the file (an HDF5 attribute, else FILE.json)
            compute::Params params;
            params.metric = compute::Metric::Cdtw;
            params.band = o.band;
            io::writeMatrixBand(path, {*band, o.freqBands.order}, params, rankings[k].patternCount, rankings[k].epochCount);
        }
    }

    if (header)
        std::cout << (band ? "band," : "") << (several ? "channel," : "") << "rank,quality,pattern_index,start_seconds"
                  << (study ? studyPatternColumns() : "") << "\n";
    for (const auto& ranking : rankings) {
        const std::size_t n = o.top > 0 ? std::min<std::size_t>(std::size_t(o.top), ranking.ranked.size()) : ranking.ranked.size();
        for (std::size_t k = 0; k < n; ++k) {
            const auto& p = ranking.ranked[k];
            if (band) std::cout << band->key() << ',';
            if (several) std::cout << ranking.channel << ',';
            std::cout << k + 1 << ',' << formatDouble(p.quality) << ',' << p.index << ',' << formatDouble(p.startS)
                      << (study ? studyPatternFields(*study, ranking, p) : "") << '\n';
        }
    }
    flushStdout();
    split.mark(TimeSplit::Output);

    if (o.timing) {
        for (const auto& r : rankings) {
            const double distances = double(r.patternCount) * double(r.epochCount);
            std::fprintf(stderr,
                         "timing: channel %s kernel %s: %zu patterns x %zu epochs = %.0f distances of length %d "
                         "band %d (%.4g cells) in %.3f s: %.1f distances/ms, %.4g cells/s "
                         "[epochs %.3f s, matrix %.3f s = %.1f distances/ms, ranking %.3f s]%s%s\n",
                         r.channel.c_str(), r.kernel.c_str(), r.patternCount, r.epochCount, distances, r.epoch, r.band,
                         r.cells, r.seconds, distances / (r.seconds * 1e3), r.cells / r.seconds, r.epochSeconds,
                         r.engineSeconds, distances / (r.engineSeconds * 1e3), r.rankSeconds, deviceTiming(r).c_str(),
                         (generateSeconds > 0 ? " (generating the channel took " + std::to_string(generateSeconds) + " s, not counted)"
                                              : std::string())
                             .append(gpuRun ? " (then waited " + std::to_string(startUpWait) +
                                                  " s for the GPUs' start-up and pinning, not counted)"
                                            : std::string())
                             .c_str());
        }
        if (gpu.contextSeconds() >= 0) split.setBackground(gpu.contextSeconds(), "GPU contexts and peer access");
        split.print("patterns");
    }
}

void runPatterns(const PatternsOptions& o) {
    const auto bands = parseFreqBands(o.freqBands);
    if (bands.empty()) return runPatternsOnce(o, nullptr, true);
    for (std::size_t k = 0; k < bands.size(); ++k) runPatternsOnce(o, &bands[k], k == 0);
}

}  // namespace

void addPatternsCommand(CLI::App& app) {
    auto o = std::make_shared<PatternsOptions>();
    auto* cmd = app.add_subcommand("patterns", "rank seizure patterns of a channel by how well they separate ictal from interictal epochs");
    cmd->add_option("--recording", o->recording, "EDF/BDF recording, or a CSV with one column per channel (with --rate)");
    cmd->add_option("--study", o->study,
                    "a study instead: folder of EDF/BDF files or CHB-MIT summary; patterns from every recording's seizures, "
                    "epochs from every recording (never across files); adds recording and clock-time columns")
        ->option_text("FOLDER|SUMMARY")
        ->check(CLI::ExistingPath);
    cmd->add_flag("--skip-missing", o->skipMissing, "--study: go on without missing or unreadable files (named on stderr)");
    cmd->add_option("--channel", o->channels, "channel by label or #INDEX; repeat for several (one ranking each); default FP1-F7, else the first");
    cmd->add_option("--seizures", o->seizures, "seizures in seconds from the recording start (--study: FILE:START-END,...)")
        ->option_text("\"START-END,...\"");
    cmd->add_option("--summary", o->summary, "CHB-MIT chbNN-summary.txt listing the recording's seizures")->check(CLI::ExistingFile);
    cmd->add_option("--annotation", o->annotation, "EDF+ annotations containing TEXT mark the seizures")->option_text("TEXT");
    cmd->add_option("--epoch", o->epoch, "epoch and pattern length e, samples")->capture_default_str();
    cmd->add_option("--stride", o->stride, "stride s of epochs and patterns, samples")->capture_default_str();
    cmd->add_option("--band", o->band, "Sakoe-Chiba band w of cdtw")->capture_default_str();
    cmd->add_option("--quality", o->quality, "auc or infogain")->capture_default_str();
    cmd->add_option("--top", o->top, "print only the K best patterns (0: all)")->option_text("K");
    cmd->add_option("--dm-out", o->dmOut, "write the patterns x epochs matrix (.npy, .h5 streamed; .csv at the end)");
    cmd->add_option("--rate", o->rate, "sampling rate of a CSV recording, Hz");
    // Benchmark and tuning; not part of the stable interface.
    cmd->add_option("--synthetic", o->synthetic, "")->group("");
    cmd->add_option("--synthetic-seizure", o->syntheticSeizure, "")->group("");
    cmd->add_flag("--timing", o->timing, "")->group("");
    cmd->add_option("--epoch-block", o->epochBlock, "")->group("");
    cmd->add_option("--memory-mib", o->memoryMiB, "")->group("");
    addFreqBandOptions(*cmd, o->freqBands);
    addRunOptions(*cmd, o->run);
    cmd->callback([o] { runPatterns(*o); });
}

}  // namespace warplab::cli
