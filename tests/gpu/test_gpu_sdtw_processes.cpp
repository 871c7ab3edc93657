// The GPU subsequence search split over processes (gpu::SdtwOptions::processes, what mpirun
// runs: app/cli/mpi_search.cpp), with the processes played by threads of this program (a
// ProcessGroup of mailboxes), each sweeping its stretches on this device: process 0's matches
// must be one process's bit for bit (starts, ends, fp32 costs), the others' empty. Processes
// 2 to 9, stretches chosen and forced (one per checkpoint: every re-sweep chains across the
// process boundaries), re-sweeps cut short (the rest swept in order), more processes than the
// reference has stretches, matches whose windows start on another process, self-excluded ends,
// and real EEG (the Bonn segments). MPI itself is checked by tests/mpi (CPU) and, on the
// two-GPU machine, by `scripts/device/run.sh mpi`.
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "compute/core/process_group.h"
#include "compute/gpu/kernels/sdtw/sdtw_gpu.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "tests/gpu/gpu_test_util.h"

using namespace warplab::compute;
using namespace warplab::gputest;

namespace {

// Byte messages between K threads: FIFO per (from, to), point to point and collectives apart
// (as MPI keeps them).
class Mailboxes {
public:
    explicit Mailboxes(int K) : K_(K), boxes_(std::size_t(2 * K * K)) {}
    void put(int kind, int from, int to, const void* data, std::size_t bytes) {
        Box& b = box(kind, from, to);
        std::lock_guard lock(b.m);
        b.q.emplace_back(static_cast<const char*>(data), static_cast<const char*>(data) + bytes);
        b.cv.notify_all();
    }
    void take(int kind, int from, int to, void* data, std::size_t bytes) {
        Box& b = box(kind, from, to);
        std::unique_lock lock(b.m);
        b.cv.wait(lock, [&] { return !b.q.empty(); });
        const std::vector<char> msg = std::move(b.q.front());
        b.q.pop_front();
        if (msg.size() != bytes)
            throw std::runtime_error("message of " + std::to_string(msg.size()) + " bytes where " +
                                     std::to_string(bytes) + " were expected");
        if (bytes) std::memcpy(data, msg.data(), bytes);
    }

private:
    struct Box {
        std::mutex m;
        std::condition_variable cv;
        std::deque<std::vector<char>> q;
    };
    Box& box(int kind, int from, int to) { return boxes_[std::size_t((kind * K_ + from) * K_ + to)]; }
    int K_;
    std::vector<Box> boxes_;
};

ProcessGroup threadGroup(Mailboxes& mail, int index, int count) {
    ProcessGroup g;
    g.index = index;
    g.count = count;
    g.send = [&mail, index](const void* d, std::size_t n, int to) { mail.put(0, index, to, d, n); };
    g.recv = [&mail, index](void* d, std::size_t n, int from) { mail.take(0, from, index, d, n); };
    g.allgather = [&mail, index, count](const void* mine, std::size_t n, void* all) {
        for (int to = 0; to < count; ++to)
            if (to != index) mail.put(1, index, to, mine, n);
        for (int from = 0; from < count; ++from) {
            char* at = static_cast<char*>(all) + std::size_t(from) * n;
            if (from == index) std::memcpy(at, mine, n);
            else mail.take(1, from, index, at, n);
        }
    };
    g.agree = [&mail, index, count](std::exception_ptr local) {
        const char mine = local ? 1 : 0;
        std::vector<char> all(static_cast<std::size_t>(count));
        for (int to = 0; to < count; ++to)
            if (to != index) mail.put(1, index, to, &mine, 1);
        for (int from = 0; from < count; ++from)
            if (from == index) all[std::size_t(from)] = mine;
            else mail.take(1, from, index, &all[std::size_t(from)], 1);
        if (local) std::rethrow_exception(local);
        for (char c : all)
            if (c) throw std::runtime_error("another process failed");
    };
    return g;
}

using Matches = std::vector<std::vector<Match>>;

// The search over K thread-processes: process 0's matches, and whether the others returned none.
Matches searchOver(int K, const SeriesSet& queries, const Series& reference, const Params& p, gpu::SdtwOptions o,
                   bool* othersEmpty, gpu::SdtwTiming* tm0) {
    Mailboxes mail(K);
    std::vector<Matches> got(static_cast<std::size_t>(K));
    std::vector<gpu::SdtwTiming> tms(static_cast<std::size_t>(K));
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(K));
    {
        std::vector<std::jthread> threads;
        for (int i = 0; i < K; ++i)
            threads.emplace_back([&, i] {
                try {
                    const ProcessGroup g = threadGroup(mail, i, K);
                    gpu::SdtwOptions mine = o;
                    mine.processes = &g;
                    got[std::size_t(i)] = gpu::sdtwSearchBatch(queries, reference, p, &tms[std::size_t(i)],
                                                               gpu::SdtwPrecision::Fp32, mine);
                } catch (...) {
                    errors[std::size_t(i)] = std::current_exception();
                }
            });
    }
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
    *othersEmpty = true;
    for (int i = 1; i < K; ++i)
        for (const auto& list : got[std::size_t(i)]) *othersEmpty = *othersEmpty && list.empty();
    if (tm0) *tm0 = tms[0];
    return got[0];
}

std::size_t differing(const Matches& a, const Matches& b, std::size_t* total) {
    std::size_t differ = a.size() == b.size() ? 0 : 1;
    *total = 0;
    for (std::size_t q = 0; q < a.size() && q < b.size(); ++q) {
        if (a[q].size() != b[q].size()) ++differ;
        for (std::size_t i = 0; i < a[q].size() && i < b[q].size(); ++i, ++*total) {
            const Match &x = a[q][i], &y = b[q][i];
            if (x.start != y.start || x.end != y.end || std::memcmp(&x.cost, &y.cost, sizeof(double)) != 0) {
                if (differ++ < 4)
                    std::printf("  query %zu match %zu: split [%zu,%zu] %.9g, one process [%zu,%zu] %.9g\n", q, i,
                                x.start, x.end, x.cost, y.start, y.end, y.cost);
            }
        }
    }
    return differ;
}

// One process (options as given, no processes) against K thread-processes for each K.
void compareProcesses(const std::string& what, const SeriesSet& queries, const Series& reference, bool znorm,
                      const std::vector<int>& Ks, gpu::SdtwOptions o = {}) {
    Params p;
    p.metric = Metric::Sdtw;
    p.znorm = znorm;
    p.topk = 5;
    const Matches want = gpu::sdtwSearchBatch(queries, reference, p, nullptr, gpu::SdtwPrecision::Fp32, o);
    for (int K : Ks) {
        bool othersEmpty = false;
        gpu::SdtwTiming tm;
        const Matches got = searchOver(K, queries, reference, p, o, &othersEmpty, &tm);
        std::size_t total = 0;
        const std::size_t differ = differing(got, want, &total);
        // Excluded ends never reported.
        bool outside = true;
        for (const auto& list : got)
            for (const Match& m : list)
                for (const auto& [lo, hi] : o.excludedEnds) outside = outside && (m.end < lo || m.end > hi);
        report(differ == 0 && total > 0 && othersEmpty && outside && tm.startCostMismatches == 0,
               what + ", " + std::to_string(K) + " processes (" + std::to_string(tm.stretches) + " stretches, " +
                   std::to_string(tm.reseedWaves) + " waves" + (tm.sweptInOrder ? ", the rest swept in order" : "") +
                   "): " + std::to_string(total) + " matches == one process, bit for bit",
               double(differ));
    }
}

void testProcesses(const std::string& dataDir) {
    std::mt19937 rng(57);
    const Series walk = randomSeries(rng, 200003);
    compareProcesses("random walk, 1 query of 256 in 200003, stretches chosen", SeriesSet{randomSeries(rng, 256)}, walk,
                     true, {2, 3, 5});
    gpu::SdtwOptions forced;
    forced.stretches = 64;
    compareProcesses("random walk, 1 query of 1000 in 200003, 64 stretches", SeriesSet{randomSeries(rng, 1000)}, walk,
                     true, {2, 7}, forced);
    // One stretch per checkpoint: no window agrees inside a stretch, every process waits for
    // the column before it; a query cut from the reference ends exactly on a boundary region.
    const Series short30 = randomSeries(rng, 30000);
    forced.stretches = 30000 / 128;
    compareProcesses("random walk, 2 queries (200, 700) in 30000, a stretch per checkpoint",
                     SeriesSet{randomSeries(rng, 200), randomSeries(rng, 700)}, short30, true, {2, 3}, forced);
    // Re-sweeps cut short: none at all, or 3 waves, then the rest swept in order.
    forced.maxReseedWaves = -1;
    compareProcesses("random walk, 2 queries in 30000, no waves", SeriesSet{randomSeries(rng, 200), randomSeries(rng, 700)},
                     short30, true, {3}, forced);
    forced.maxReseedWaves = 3;
    compareProcesses("random walk, 2 queries in 30000, 3 waves", SeriesSet{randomSeries(rng, 200), randomSeries(rng, 700)},
                     short30, true, {2}, forced);
    // More processes than the reference has stretches (1,000 columns: 7 at most).
    compareProcesses("random walk, 1 query of 100 in 1000", SeriesSet{randomSeries(rng, 100)}, randomSeries(rng, 1000),
                     true, {9});
    // The query's own place excluded (self-exclusion), across a process boundary.
    gpu::SdtwOptions self;
    const std::size_t at = 100000 - 120, n = 256;
    self.excludedEnds = {{at + n - 1 - n / 2, at + n - 1 + n / 2}};
    compareProcesses("random walk, a query cut from it, its own place excluded",
                     SeriesSet{Series(std::vector<float>(walk.values.begin() + std::ptrdiff_t(at),
                                                         walk.values.begin() + std::ptrdiff_t(at + n)))},
                     walk, true, {2, 3}, self);
    // Real EEG: every Bonn segment joined, queries cut from S001, raw and z-normalised.
    std::vector<float> s001;
    const std::vector<float> joined = bonnJoined(dataDir, {"Z", "F", "S"}, &s001);
    if (s001.size() < 2200 || joined.size() < 40000) {
        report(false, "the Bonn EEG segments not found under " + dataDir + "/bonn", 0);
        return;
    }
    const SeriesSet eegQ{Series(std::vector<float>(s001.begin() + 1000, s001.begin() + 1256)),
                         Series(std::vector<float>(s001.begin() + 2000, s001.begin() + 2173))};
    forced = {};
    forced.stretches = int(joined.size() / 128);
    compareProcesses("Bonn EEG, 2 queries from S001 in " + std::to_string(joined.size()), eegQ, Series(joined), true,
                     {2, 4}, forced);
    compareProcesses("Bonn EEG, raw, stretches chosen", eegQ, Series(joined), false, {3});
}

}  // namespace

int main(int argc, char** argv) {
    if (!gpu::available()) {
        std::printf("SKIP: GPU sdtw-over-processes tests not run: %s\n", gpu::unavailableReason().c_str());
        return 77;
    }
    std::string dataDir = WARPLAB_TEST_DATA;
    if (argc > 1) dataDir = argv[1];
    std::printf("GPU sdtw over processes (threads) on %s\n", gpu::deviceName().c_str());
    try {
        testProcesses(dataDir);
    } catch (const std::exception& e) {
        report(false, std::string("unexpected exception: ") + e.what(), 0);
    }
    return finish();
}
