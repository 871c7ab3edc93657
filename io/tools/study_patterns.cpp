// The published pattern-discovery workload from files on disk (issue 10), timed end to end:
//   warplab-study-patterns SUMMARY [--channel FP1-F7] [--files K] [--backend auto|cpu|gpu]
//                          [--kernel NAME] [--host-epochs] [--pick FIRST:STEP] [--csv PATH] [--top N]
// Reads one channel of every file the CHB-MIT style summary names (0-based files FIRST,
// FIRST + STEP, ... with --pick; then the first K with --files),
// lays the recordings end to end as stretches (epochs never cross a file end), takes the
// seizures from the summary, and runs compute::findPatterns. Prints one `timing:` line with the
// phases: reading (summary, headers, samples), epochs, matrix, ranking, and the whole wall time.
// Until io::Study (branch `study`) is merged this reads the summary and the files itself
// (readStudyChannel below is the one place to switch).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "compute/core/error.h"
#include "compute/engine.h"
#include "compute/patterns/pattern_discovery.h"
#include "io/recording.h"

using namespace warplab;
using Clock = std::chrono::steady_clock;

namespace {

struct StudyChannel {
    std::vector<float> samples;                  // the recordings end to end
    std::vector<compute::Stretch> stretches;     // one per recording
    std::vector<compute::SecondsSpan> seizures;  // seconds in `samples`
    double rateHz = 0;
    std::vector<std::string> files;
    double openSeconds = 0;  // summary and headers (an EDF+ open visits every record's annotations)
};

// The summary's files (in its order) and seizures, then one channel of each file, read in
// parallel through the lenient raw reader (pread, no shared lock).
StudyChannel readStudyChannel(const std::string& summary, const std::string& channel, int maxFiles, int pickFirst,
                              int pickStep, int threads) {
    const auto tOpen = Clock::now();
    std::ifstream in(summary);
    if (!in) throw std::runtime_error(summary + ": cannot open the summary file");
    const std::regex fileRe(R"(^File Name:\s*(\S+))"), startRe(R"(^Seizure\s*\d*\s*Start Time:\s*(\d+))"),
        endRe(R"(^Seizure\s*\d*\s*End Time:\s*(\d+))");
    struct Entry {
        std::string path;
        std::vector<std::pair<double, double>> seizures;
    };
    std::vector<Entry> entries;
    std::string line;
    std::smatch m;
    const auto dir = std::filesystem::path(summary).parent_path();
    while (std::getline(in, line)) {
        if (std::regex_search(line, m, fileRe)) entries.push_back({(dir / m[1].str()).string(), {}});
        else if (!entries.empty() && std::regex_search(line, m, startRe)) entries.back().seizures.push_back({std::stod(m[1]), 0});
        else if (!entries.empty() && !entries.back().seizures.empty() && std::regex_search(line, m, endRe))
            entries.back().seizures.back().second = std::stod(m[1]);
    }
    if (entries.empty()) throw std::runtime_error(summary + ": no 'File Name:' entry");
    if (pickStep > 0) {  // files pickFirst, pickFirst + pickStep, ... (0-based)
        std::vector<Entry> picked;
        for (std::size_t f = std::size_t(std::max(0, pickFirst)); f < entries.size(); f += std::size_t(pickStep))
            picked.push_back(entries[f]);
        entries = picked;
    }
    if (maxFiles > 0 && std::size_t(maxFiles) < entries.size()) entries.resize(std::size_t(maxFiles));
    if (entries.empty()) throw std::runtime_error(summary + ": no file left after --pick/--files");

    std::vector<std::unique_ptr<io::Recording>> recs(entries.size());
    std::vector<int> signal(entries.size());
    io::OpenOptions o;
    o.forceLenient = true;
    // Opening an EDF+ file visits every record's annotation signal: open in parallel too.
    {
        std::atomic<std::size_t> next{0};
        std::vector<std::string> errors(entries.size());
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t)
            pool.emplace_back([&] {
                for (std::size_t f; (f = next++) < entries.size();) {
                    try {
                        recs[f] = io::Recording::open(entries[f].path, o);
                        signal[f] = recs[f]->findSignal(channel);
                        if (signal[f] < 0) errors[f] = entries[f].path + ": no channel '" + channel + "'";
                    } catch (const std::exception& e) {
                        errors[f] = e.what();
                    }
                }
            });
        for (auto& t : pool) t.join();
        for (const auto& e : errors)
            if (!e.empty()) throw std::runtime_error(e);
    }
    StudyChannel out;
    out.openSeconds = std::chrono::duration<double>(Clock::now() - tOpen).count();
    out.rateHz = recs[0]->signals()[std::size_t(signal[0])].rateHz;
    long long at = 0;
    for (std::size_t f = 0; f < entries.size(); ++f) {
        const auto& si = recs[f]->signals()[std::size_t(signal[f])];
        if (si.rateHz != out.rateHz)
            throw std::runtime_error(entries[f].path + ": channel '" + channel + "' at " + std::to_string(si.rateHz) +
                                     " Hz, " + entries[0].path + " at " + std::to_string(out.rateHz) + " Hz");
        out.stretches.push_back({at, si.samples});
        for (const auto& z : entries[f].seizures)
            out.seizures.push_back({double(at) / out.rateHz + z.first, double(at) / out.rateHz + z.second});
        out.files.push_back(entries[f].path);
        at += si.samples;
    }
    out.samples.resize(std::size_t(at));
    std::atomic<std::size_t> next{0};
    std::vector<std::string> errors(entries.size());
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&] {
            for (std::size_t f; (f = next++) < entries.size();) {
                try {
                    const auto& st = out.stretches[f];
                    // Windows of 4 M samples: the reader's buffer stays small.
                    for (long long a = 0; a < st.length; a += 1 << 22) {
                        const long long c = std::min<long long>(1 << 22, st.length - a);
                        const auto v = recs[f]->read(signal[f], a, c);
                        std::copy(v.begin(), v.end(), out.samples.begin() + std::ptrdiff_t(st.offset + a));
                    }
                } catch (const std::exception& e) {
                    errors[f] = e.what();
                }
            }
        });
    for (auto& t : pool) t.join();
    for (const auto& e : errors)
        if (!e.empty()) throw std::runtime_error(e);
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: warplab-study-patterns SUMMARY [--channel C] [--files K] [--backend auto|cpu|gpu] "
                             "[--kernel K] [--host-epochs] [--csv PATH] [--top N]\n");
        return 2;
    }
    std::string summary = argv[1], channel = "FP1-F7", csv, backend = "auto", kernel;
    int files = 0, top = 5, pickFirst = 0, pickStep = 0;
    bool hostEpochs = false;
    for (int i = 2; i < argc; ++i) {
        const std::string k = argv[i];
        auto val = [&]() -> std::string {
            if (i + 1 >= argc) { std::fprintf(stderr, "%s needs a value\n", k.c_str()); std::exit(2); }
            return argv[++i];
        };
        if (k == "--channel") channel = val();
        else if (k == "--files") files = std::atoi(val().c_str());
        else if (k == "--pick") {
            const std::string v = val();
            pickFirst = std::atoi(v.c_str());
            pickStep = v.find(':') == std::string::npos ? 0 : std::atoi(v.c_str() + v.find(':') + 1);
            if (pickStep < 1) { std::fprintf(stderr, "--pick FIRST:STEP, STEP >= 1\n"); return 2; }
        }
        else if (k == "--backend") backend = val();
        else if (k == "--kernel") kernel = val();
        else if (k == "--csv") csv = val();
        else if (k == "--top") top = std::atoi(val().c_str());
        else if (k == "--host-epochs") hostEpochs = true;
        else { std::fprintf(stderr, "warplab-study-patterns: unknown option %s\n", k.c_str()); return 2; }
    }
    try {
        const auto t0 = Clock::now();
        const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
        // The GPU runtime starts (driver, context) while the files are read, as it would in an
        // application that has been open for a while; its time is inside "end to end" either way.
        std::thread warm([] {
            compute::Params p;
            p.metric = compute::Metric::Cdtw;
            p.band = 16;
            (void)compute::gpuWindowMatrixUnavailable("cuda.band_dpx", p);
        });
        StudyChannel ch;
        try {
            ch = readStudyChannel(summary, channel, files, pickFirst, pickStep, threads);
        } catch (...) {
            warm.join();
            throw;
        }
        warm.join();
        const double readS = std::chrono::duration<double>(Clock::now() - t0).count();

        compute::PatternRequest r;
        r.samples = ch.samples;
        r.rateHz = ch.rateHz;
        r.channel = channel;
        r.seizures = ch.seizures;
        r.stretches = ch.stretches;
        r.deviceEpochs = !hostEpochs;
        r.keepMatrixUpToBytes = 0;
        compute::RunOptions o;
        o.backend = backend == "cpu" ? compute::Backend::Cpu : backend == "gpu" ? compute::Backend::Cuda : compute::Backend::Auto;
        o.kernel = kernel;
        const compute::PatternRanking res = compute::findPatterns(r, o);
        const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
        std::printf("timing: %zu files, channel %s, %zu patterns x %zu epochs = %.0f distances, kernel %s%s: "
                    "reading %.3f s (open %.3f s), epochs %.3f s, matrix %.3f s, ranking %.3f s; end to end %.3f s "
                    "(%.0f distances/ms)\n",
                    ch.files.size(), channel.c_str(), res.patternCount, res.epochCount,
                    double(res.patternCount) * double(res.epochCount), res.kernel.c_str(),
                    res.deviceEpochs ? " (device epochs)" : "", readS, ch.openSeconds, res.epochSeconds, res.engineSeconds,
                    res.rankSeconds, wall, double(res.patternCount) * double(res.epochCount) / (wall * 1e3));
        for (int k = 0; k < top && std::size_t(k) < res.ranked.size(); ++k) {
            const auto& p = res.ranked[std::size_t(k)];
            std::printf("rank %d: pattern %zu, quality %.6f, at %.1f s\n", k + 1, p.index, p.quality, p.startS);
        }
        if (!csv.empty()) {
            std::FILE* f = std::fopen(csv.c_str(), "w");
            if (!f) throw std::runtime_error(csv + ": cannot write");
            std::fprintf(f, "rank,pattern,quality,mean_ictal,mean_interictal,nearest,nearest_distance\n");
            for (std::size_t k = 0; k < res.ranked.size(); ++k) {
                const auto& p = res.ranked[k];
                std::fprintf(f, "%zu,%zu,%.17g,%.17g,%.17g,%zu,%.17g\n", k + 1, p.index, p.quality, p.meanIctal,
                             p.meanInterictal, p.nearest.empty() ? 0 : p.nearest[0].epoch,
                             p.nearest.empty() ? 0.0 : p.nearest[0].distance);
            }
            std::fclose(f);
        }
    } catch (const compute::EngineError& e) {
        std::fprintf(stderr, "warplab-study-patterns: %s\n", e.what());
        return e.kind() == compute::EngineError::Kind::BadInput || e.kind() == compute::EngineError::Kind::BadParameter ? 2 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "warplab-study-patterns: %s\n", e.what());
        return 2;
    }
    return 0;
}
