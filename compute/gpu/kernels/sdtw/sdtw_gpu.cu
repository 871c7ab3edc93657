// GPU subsequence search (see sdtw_gpu.h): the inputs on every device used (sdtw_inputs.cu);
// the last DP row of every query (fp32 pass with checkpoint columns, whole or over reference
// stretches made exact, or half2 pass: sdtw_stretches.cu); the top-k ends with METRICS.md's
// exclusion zone, then the starts from fp32 start spans ending at those ends (sdtw_matches.cu).
// Queries go in chunks sized to the free device memory; several devices split a batch's
// queries or each query's stretches, and several processes (SdtwOptions::processes) each
// query's stretches too.
// gpu_runtime.h first: hipcc needs its runtime header before recurrences.h uses __forceinline__.
#include "compute/gpu/runtime/gpu_runtime.h"
#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>

#include "compute/gpu/kernels/sdtw/sdtw_search_parts.h"
#include "compute/gpu/runtime/device_set.h"
#include "compute/gpu/runtime/gpu_device.h"

namespace warplab::compute::gpu {

using sdtw::DeviceShare;
using sdtw::HostInputs;
using sdtw::lastRowsPass;
using sdtw::packInputs;
using sdtw::Prepared;
using sdtw::prepare;
using sdtw::recoverStarts;
using sdtw::topK;

int sdtwHalf2Span(int queryLength) { return std::max(64, 2 * queryLength); }

void checkOptions(const SdtwOptions& o) {
    const int rows = o.rowsPerLane;
    if (rows != 0 && !sdtw::passRowsSupported(rows))
        throw EngineError(EngineError::Kind::BadInput, "rows per lane",
                          "the GPU subsequence pass takes 2, 4, 8, 16 or 32 rows per lane, not " + std::to_string(rows));
    const int cols = o.columnsPerStep;
    if (cols != 0 && cols != 2 && cols != 4 && cols != 8)
        throw EngineError(EngineError::Kind::BadInput, "columns per step",
                          "the GPU subsequence pass computes 2, 4 or 8 columns per step, not " + std::to_string(cols));
    if (cols > 2 && rows != 0 && !sdtw::leanColumnsSupported(rows, cols))
        throw EngineError(EngineError::Kind::BadInput, "columns per step",
                          std::to_string(cols) + " columns per step need 16 or 32 rows per lane, not " +
                              std::to_string(rows));
}

namespace sdtw {

namespace {

// Shares' buffers kept between searches (takeOwned, keepOwned), by device. Never destroyed: at
// exit the runtime may be gone before static destructors run, and the process frees it all.
struct OwnedCache {
    std::mutex lock;
    std::vector<std::pair<int, std::unique_ptr<DeviceShare::Owned>>> kept;
};

OwnedCache& ownedCache() {
    static OwnedCache* cache = new OwnedCache;
    return *cache;
}

int currentDevice() {
    int d = -1;
    check(gpuGetDevice(&d), "device query");
    return d;
}

}  // namespace

std::size_t heldBytes(const DeviceShare::Owned& o) {
    return sizeof(float) * (o.costRow.size() + o.ck.size() + o.boundary.size() + o.tmpRow.size() + o.tmpCk.size() +
                            o.p.qd.values.size() + o.p.y.size()) +
           sizeof(__half2) * o.p.yh.size();
}

std::unique_ptr<DeviceShare::Owned> takeOwned() {
    const int d = currentDevice();
    {
        OwnedCache& c = ownedCache();
        std::lock_guard<std::mutex> hold(c.lock);
        for (auto it = c.kept.begin(); it != c.kept.end(); ++it)
            if (it->first == d) {
                std::unique_ptr<DeviceShare::Owned> own = std::move(it->second);
                c.kept.erase(it);
                return own;
            }
    }
    return std::make_unique<DeviceShare::Owned>();
}

void keepOwned(std::unique_ptr<DeviceShare::Owned> own) {
    const int d = currentDevice();
    const std::size_t total = memInfo().second;
    std::size_t held = heldBytes(*own);
    OwnedCache& c = ownedCache();
    std::lock_guard<std::mutex> hold(c.lock);
    for (const auto& [device, kept] : c.kept)
        if (device == d) held += heldBytes(*kept);
    if (held <= total / 8) c.kept.emplace_back(d, std::move(own));
    // else freed here, on return (the device is current)
}

void DeviceShare::release() {
    if (keep) keepOwned(std::move(own));
    own.reset();
}

}  // namespace sdtw

namespace {

// A share per device of `devices` (empty: the calling thread's device), each with the inputs
// on it (prepare()).
std::vector<DeviceShare> makeShares(const std::vector<int>& devices, const SeriesSet& queries, const Series& reference,
                                    const Params& params, SdtwPrecision precision, const SdtwOptions& options) {
    const HostInputs in = packInputs(queries, reference, params, precision, options.referenceChecked);
    std::vector<DeviceShare> shares(std::max<std::size_t>(1, devices.size()));
    for (std::size_t d = 0; d < shares.size(); ++d) shares[d].device = devices.empty() ? -1 : devices[d];
    auto prepareShare = [&](DeviceShare& sh) {
        sh.run([&] {
            sh.own = sdtw::takeOwned();
            prepare(sh.own->p, in, params, precision, sh.own->stream, sh.own->start, options.twoKernelNormaliser);
        });
    };
    if (shares.size() == 1) {
        prepareShare(shares[0]);
        return shares;
    }
    // Several devices: each uploads and normalises at once (a thread each), and they copy to
    // one another directly where they can (the gathered rows, the seeds).
    (void)connectPeers(devices);
    runPerDevice(shares.size(), [&](std::size_t d) { prepareShare(shares[d]); });
    return shares;
}

// Several devices and a batch that fills each of them whole: the queries split in equal runs,
// a device each, on threads of their own (every query's matches are its own: nothing to merge).
std::vector<std::vector<Match>> searchSplitByQueries(const SeriesSet& queries, const Series& reference,
                                                     const Params& params, SdtwTiming* timing, SdtwPrecision precision,
                                                     const SdtwOptions& options, const std::vector<int>& devices) {
    const std::size_t D = devices.size(), count = queries.size();
    std::vector<std::vector<std::vector<Match>>> parts(D);
    std::vector<SdtwTiming> times(D);
    runPerDevice(D, [&](std::size_t d) {
        const std::size_t a = count * d / D, b = count * (d + 1) / D;
        if (a >= b) return;
        SdtwOptions one = options;
        one.devices = {devices[d]};
        parts[d] = sdtwSearchBatch(SeriesSet(queries.begin() + long(a), queries.begin() + long(b)), reference, params,
                                   &times[d], precision, one);
    });
    std::vector<std::vector<Match>> result;
    SdtwTiming tm;
    for (std::size_t d = 0; d < D; ++d) {
        for (auto& r : parts[d]) result.push_back(std::move(r));
        const SdtwTiming& t = times[d];
        tm.kernelSeconds = std::max(tm.kernelSeconds, t.kernelSeconds);
        tm.znormSeconds = std::max(tm.znormSeconds, t.znormSeconds);
        tm.passSeconds = std::max(tm.passSeconds, t.passSeconds);
        tm.topkSeconds = std::max(tm.topkSeconds, t.topkSeconds);
        tm.startSeconds = std::max(tm.startSeconds, t.startSeconds);
        tm.totalSeconds = std::max(tm.totalSeconds, t.totalSeconds);
        tm.cells += t.cells;
        tm.startCells += t.startCells;
        tm.startRounds = std::max(tm.startRounds, t.startRounds);
        tm.startCostMismatches += t.startCostMismatches;
        tm.reseedWaves = std::max(tm.reseedWaves, t.reseedWaves);
        tm.reseedCells += t.reseedCells;
        if (t.rowsPerLane) {
            tm.rowsPerLane = t.rowsPerLane;
            tm.columnsPerStep = t.columnsPerStep;
            tm.stretches = t.stretches;
        }
    }
    tm.devices = int(D);
    if (timing) *timing = tm;
    return result;
}

// The devices a search runs on, and whether its queries are split among them: a half2 search
// or a batch whose share per device fills that device whole splits its queries; a fp32 batch
// that does not splits the reference (its stretches) instead; one device takes it all.
struct DevicePlan {
    std::vector<int> devices;  // empty: the calling thread's device
    bool byQueries = false;
};

DevicePlan planDevices(const SeriesSet& queries, const Series& reference, SdtwPrecision precision,
                       const SdtwOptions& options) {
    DevicePlan plan;
    if (options.devices.empty()) return plan;
    plan.devices = resolveDevices(options.devices);
    const int D = int(plan.devices.size());
    if (D <= 1 || queries.empty()) return plan;
    int maxLen = 1;
    for (const Series& q : queries) maxLen = std::max(maxLen, int(q.length));
    if (sdtw::splitOver(options)) return plan;  // the processes split the stretches
    const int share = int((queries.size() + std::size_t(D) - 1) / std::size_t(D));
    const bool fillsEach = options.stretches == 1 ||
                           sdtwStretchCount(int(reference.length), maxLen, share,
                                            onDevice(plan.devices.front(), [] { return multiprocessorCount(); })) == 1;
    if (precision == SdtwPrecision::Half2 || fillsEach) {
        if (int(queries.size()) >= D) plan.byQueries = true;
        else plan.devices.resize(1);  // too few queries to split, and no stretches to split
    }
    return plan;
}

}  // namespace

std::vector<std::vector<Match>> sdtwSearchBatch(const SeriesSet& queries, const Series& reference,
                                                const Params& params, SdtwTiming* timing, SdtwPrecision precision,
                                                const SdtwOptions& options) {
    checkOptions(options);
    const ProcessGroup* P = sdtw::splitOver(options);
    if (P && precision == SdtwPrecision::Half2)
        throw EngineError(EngineError::Kind::BadParameter, "precision",
                          "half2 is a GPU search of one process; run it without mpirun");
    const DevicePlan plan = planDevices(queries, reference, precision, options);
    if (plan.byQueries) return searchSplitByQueries(queries, reference, params, timing, precision, options, plan.devices);
    const auto t0 = std::chrono::steady_clock::now();
    constexpr int C = sdtw::kCheckpointEvery;
    const bool half2 = precision == SdtwPrecision::Half2;
    // Over processes, a failure to start (no device, no memory, bad input) fails every one
    // before any of them waits for another.
    std::vector<DeviceShare> shares;
    int chunk = 0, ckRows = 0, ckCols = 0;
    DeviceBuffer<float> outCost, pieceV;
    DeviceBuffer<int> outEnd, pieceJ;
    std::exception_ptr failed;
    try {
        shares = makeShares(plan.devices, queries, reference, params, precision, options);
        const Prepared& p = shares[0].own->p;
        // Checkpoints (fp32): all rows of every C-th column, rows padded to kCheckpointRowAlign.
        ckRows = sdtw::checkpointRows(p.maxLength);
        ckCols = half2 ? 0 : p.m / C;
        // Queries per chunk: the last row and the checkpoints of a chunk's queries in at most
        // half of the free memory of every device (each holds them reference-wide, filling its
        // own stretches); over processes, the smallest of theirs.
        const std::size_t perQuery = (std::size_t(p.m) + std::size_t(ckCols) * ckRows) * sizeof(float);
        std::size_t fit = std::size_t(p.qd.count);
        // A kept share's last rows and checkpoints count as free: they are what this chunk reuses.
        for (DeviceShare& sh : shares)
            fit = std::min(fit, sh.run([&] {
                                    return memInfo().first +
                                           sizeof(float) * (sh.own->costRow.size() + sh.own->ck.size());
                                }) / 2 / perQuery);
        chunk = int(std::max<std::size_t>(1, fit));
    } catch (...) {
        failed = std::current_exception();
    }
    if (P) {
        P->agree(failed);
        std::vector<int> all(std::size_t(P->count));
        P->allgather(&chunk, sizeof chunk, all.data());
        chunk = *std::min_element(all.begin(), all.end());
    } else if (failed) {
        std::rethrow_exception(failed);
    }
    DeviceShare& s0 = shares[0];
    const Prepared& p = s0.own->p;
    const int m = p.m, k = params.topk, count = p.qd.count;
    const bool absCost = params.cost == Cost::Absolute;
    SdtwTiming tm;
    tm.devices = int(shares.size());
    for (DeviceShare& sh : shares)
        sh.run([&] {
            sh.own->costRow.resize(std::size_t(chunk) * m);
            sh.own->ck.resize(std::max<std::size_t>(1, std::size_t(chunk) * ckCols * ckRows));
        });
    s0.run([&] {
        outCost.resize(std::size_t(chunk) * k);
        outEnd.resize(std::size_t(chunk) * k);
    });
    std::vector<std::vector<Match>> result(count);
    for (int q0 = 0; q0 < count; q0 += chunk) {
        const int nq = std::min(chunk, count - q0);
        const auto passT0 = std::chrono::steady_clock::now();
        const std::vector<int> bounds = lastRowsPass(shares, q0, nq, precision, absCost, !half2, ckCols, ckRows, options, tm);
        const int S = int(bounds.size()) - 1;
        // (No structured bindings here: lambdas below use them, which hipcc's clang refuses.)
        const std::pair<int, int> own = sdtw::processStretches(S, P, P ? P->index : 0);
        const int K0 = own.first, K1 = own.second;
        const int c0 = bounds[K0], c1 = bounds[K1];  // this process's columns
        std::vector<float> hc(std::size_t(nq) * k);
        std::vector<int> he(hc.size());
        s0.run([&] {
            const gpuStream_t s = s0.own->stream.get();
            check(gpuStreamSynchronize(s), "stream synchronisation");
            tm.passSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - passT0).count();
            s0.own->topkFrom.record(s);
            for (const auto& [lo, hi] : options.excludedEnds) sdtw::maskEnds(s0.own->costRow.get(), nq, m, lo, hi, s);
            if (P) {
                sdtw::topKAcross(s0.own->costRow.get(), p.qd.lengths.get() + q0, nq, m, k, c0, c1, *P, hc, he, pieceV,
                                 pieceJ, s);
            } else {
                topK(s0.own->costRow.get(), p.qd.lengths.get() + q0, nq, m, k, outCost.get(), outEnd.get(), pieceV,
                     pieceJ, s);
            }
            s0.own->topkTo.record(s);
            if (!P) {
                outCost.download(hc.data(), hc.size(), s);
                outEnd.download(he.data(), he.size(), s);
            }
            check(gpuStreamSynchronize(s), "stream synchronisation");
            tm.topkSeconds += s0.own->topkTo.since(s0.own->topkFrom) / 1000.0;
        });
        if (P && P->index != 0) {  // process 0 runs the start spans; this one sends it the seeds it holds
            sdtw::serveSeeds(shares, *P, bounds, ckCols, ckRows);
            continue;
        }
        // One start span per match, ending at it: fp32 from the checkpoint about n + C columns
        // left of the end (widened when the path comes from further left: a seeded span's cells
        // are the full DP's, so a start inside it is the full DP's, and a path from left of it
        // reports -1 and is run again twice as wide); half2 unseeded over the span. Spans of n
        // columns cut 6 % of the start cells but sent some paths of 512 x 2000 in 100,000 to a
        // second, wider round, which cost more than the cells saved (5.0 against 4.4 ms).
        std::vector<sdtw::Task> tasks;
        std::vector<std::size_t> slot;  // index into hc/he
        for (int q = 0; q < nq; ++q) {
            const int n = p.qh.lengths[q0 + q];
            for (int r = 0; r < k; ++r) {
                const std::size_t o = std::size_t(q) * k + r;
                if (he[o] < 0) break;
                sdtw::Task t{q, 0, he[o], -1};
                if (half2) {
                    t.a = std::max(0, he[o] + 1 - sdtwHalf2Span(n));
                } else {
                    const long a0 = long(he[o]) + 1 - n - C;
                    t.a = a0 <= 0 ? 0 : int(a0 / C * C);
                    t.seed = t.a > 0 ? t.a / C - 1 : -1;
                }
                tasks.push_back(t);
                slot.push_back(o);
            }
        }
        // A start span's seed checkpoint lies in some share's stretches: copied into share 0's
        // first; from another process, asked for by the round (fetchRemoteSeeds).
        auto fetchSeeds = [&](const std::vector<sdtw::Task>& round) {
            if (P) sdtw::fetchRemoteSeeds(s0, *P, round, bounds, c0, c1, ckCols, ckRows);
            for (const sdtw::Task& t : round) {
                if (t.seed < 0) continue;
                const int col = t.seed * C + C - 1;
                for (std::size_t d = 1; d < shares.size(); ++d) {
                    if (shares[d].k0 >= shares[d].k1 || col < bounds[shares[d].k0] || col >= bounds[shares[d].k1]) continue;
                    const std::size_t o = (std::size_t(t.query) * ckCols + t.seed) * ckRows;
                    check(gpuMemcpyPeerAsync(s0.own->ck.get() + o, s0.device, shares[d].own->ck.get() + o,
                                             shares[d].device, std::size_t(ckRows) * sizeof(float), s0.own->stream.get()),
                          "copy between devices");
                }
            }
        };
        std::vector<int> starts;
        std::vector<float> costs;
        s0.run([&] {
            s0.own->startsFrom.record(s0.own->stream.get());
            // Half2 spans (2n columns) track the last n + kCheckpointEvery only at first: the paths
            // of 512 x 2000 in 100,000 span 0.56n to 0.88n columns.
            recoverStarts(p, q0, nq, tasks, half2 ? nullptr : s0.own->ck.get(), ckCols, ckRows, absCost, starts, costs, tm,
                       s0.own->stream.get(), shares.size() > 1 || P ? std::function(fetchSeeds) : nullptr,
                       half2 ? sdtw::kCheckpointEvery : -1);
            s0.own->startsTo.record(s0.own->stream.get());
            s0.own->startsTo.sync();
            tm.startSeconds += s0.own->startsTo.since(s0.own->startsFrom) / 1000.0;
        });
        if (P) sdtw::endSeeds(*P);
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            const std::size_t o = slot[i];
            const float cost = half2 ? costs[i] : hc[o];
            if (!half2 && !(costs[i] == hc[o])) ++tm.startCostMismatches;
            result[q0 + tasks[i].query].push_back(Match{double(cost), std::size_t(std::max(0, starts[i])),
                                                        std::size_t(he[o])});
        }
    }
    s0.run([&] {
        s0.own->stop.record(s0.own->stream.get());
        s0.own->stream.sync();
    });
    for (int q = 0; q < count; ++q) tm.cells += (unsigned long long)p.qh.lengths[q] * m;
    for (DeviceShare& sh : shares) sh.keep = true;
    if (timing) {
        tm.kernelSeconds = s0.own->stop.since(s0.own->start) / 1000.0;
        tm.znormSeconds = params.znorm ? p.znormDone.since(s0.own->start) / 1000.0 : 0.0;
        tm.totalSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        *timing = tm;
    }
    return result;
}

std::vector<std::vector<float>> sdtwLastRows(const SeriesSet& queries, const Series& reference, const Params& params,
                                             SdtwPrecision precision, const SdtwOptions& asked) {
    checkOptions(asked);
    SdtwOptions options = asked;
    options.processes = nullptr;  // the rows of one process
    DevicePlan plan = planDevices(queries, reference, precision, options);
    if (plan.byQueries) plan.devices.resize(1);  // the rows of a batch that fills a device: on one
    std::vector<DeviceShare> shares = makeShares(plan.devices, queries, reference, params, precision, options);
    const Prepared& p = shares[0].own->p;
    const int m = p.m, count = p.qd.count;
    // fp32 stretches need the checkpoints to re-sweep from.
    const int ckRows = sdtw::checkpointRows(p.maxLength);
    const int ckCols = precision == SdtwPrecision::Fp32 && options.stretches != 1 ? m / sdtw::kCheckpointEvery : 0;
    for (DeviceShare& sh : shares)
        sh.run([&] {
            sh.own->costRow.resize(std::size_t(count) * m);
            sh.own->ck.resize(std::size_t(count) * ckCols * ckRows);
        });
    SdtwTiming tm;
    lastRowsPass(shares, 0, count, precision, params.cost == Cost::Absolute, ckCols > 0, ckCols, ckRows, options, tm);
    std::vector<float> all(std::size_t(count) * m);
    shares[0].run([&] {
        shares[0].own->costRow.download(all.data(), all.size(), shares[0].own->stream.get());
        shares[0].own->stream.sync();
    });
    for (DeviceShare& sh : shares) sh.keep = true;
    std::vector<std::vector<float>> rows(count);
    for (int q = 0; q < count; ++q) rows[q].assign(all.begin() + std::size_t(q) * m, all.begin() + std::size_t(q + 1) * m);
    return rows;
}

}  // namespace warplab::compute::gpu
