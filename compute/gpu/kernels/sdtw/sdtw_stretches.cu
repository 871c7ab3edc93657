// The pass of the GPU subsequence search (sdtw_search_parts.h) over whole queries, or over
// reference stretches swept at once and then made exact: every stretch after the first swept
// again from the exact column before it until a checkpoint agrees with what its first sweep
// stored (SdtwOptions::stretches), on one device or split over several.
// gpu_runtime.h first: hipcc needs its runtime header before recurrences.h uses __forceinline__.
#include "compute/gpu/runtime/gpu_runtime.h"
#include <algorithm>
#include <climits>

#include "compute/gpu/kernels/sdtw/sdtw_search_parts.h"
#include "compute/gpu/runtime/gpu_device.h"

namespace warplab::compute::gpu {

int sdtwStretchCount(int m, int maxLength, int count, int sms) {
    constexpr int C = sdtw::kCheckpointEvery;
    const long long minStretch = std::max<long long>(4LL * C, 16LL * std::max(1, maxLength));
    const long long warpsPerTask = std::max(1, (maxLength + 16 * kWarpSize - 1) / (16 * kWarpSize));
    const long long warps = std::max(1, count) * warpsPerTask, chip = std::max(1, sms);
    // A batch that already gives every multiprocessor 8 warps sweeps whole: the re-sweeps (a
    // few percent of the cells, on the slower seeded stripeKernel) then cost more than the
    // extra warps gain (512 x 2000 in 100,000 on the H100, 15.5 warps per multiprocessor:
    // 28.3 ms cut in 3 stretches, 23.3 ms whole).
    if (warps >= 8 * chip) return 1;
    const long long want = (32 * chip + warps - 1) / warps;
    return int(std::max<long long>(1, std::min<long long>(want, m / minStretch)));
}

namespace sdtw {

// See sdtw_search_parts.h.
void runPass(const Prepared& p, int q0, int nq, SdtwPrecision precision, bool absCost, const PassOut& out,
             const std::vector<sdtw::Task>* tasks, DeviceBuffer<sdtw::Task>& dTasks, DeviceBuffer<float>& boundary,
             gpuStream_t s, int rows, int cols, int* rowsUsed, int* colsUsed) {
    sdtw::StripeArgs a = passArgs(p, q0, nq, precision);
    a.costRow = out.costRow;
    a.m = out.m;
    a.ck = out.ck;
    a.ckCols = out.ckCols;
    a.ckRows = out.ckRows;
    a.seedCk = out.seedCk;
    a.seedCols = out.seedCols;
    a.perTaskOut = out.perTaskOut;
    std::vector<int> lengths;  // of each task
    int maxWidth = a.last + 1;
    if (tasks) {
        dTasks.upload(tasks->data(), tasks->size(), s);
        a.tasks = dTasks.get();
        a.taskCount = int(tasks->size());
        maxWidth = 1;
        for (const sdtw::Task& t : *tasks) {
            lengths.push_back(p.qh.lengths[q0 + t.query]);
            maxWidth = std::max(maxWidth, t.e - t.a + 1);
        }
    } else {
        lengths.assign(p.qh.lengths.begin() + q0, p.qh.lengths.begin() + q0 + nq);
    }
    const int count = int(lengths.size());
    int maxLen = 1;
    for (int n : lengths) maxLen = std::max(maxLen, n);
    if (rows == 0) rows = sdtw::rowsPerLane(lengths.data(), count, kWarpSize, multiprocessorCount());
    // The lean pass needs one warp per stripe; longer queries take stripeKernel (8 or 16 rows),
    // and so do seeded tasks (the re-sweeps: a few percent of the cells; seeds in the lean pass
    // cost its 16-row form registers it cannot spare).
    bool seeded = false;
    if (tasks)
        for (const sdtw::Task& t : *tasks) seeded = seeded || t.seed >= 0;
    bool lean = !seeded && sdtw::leanPassFits(maxLen, rows, kWarpSize);
    if (!lean && rows != 16 && rows != 8) rows = rows == 32 ? 16 : 8;
    if (!lean && !seeded) lean = sdtw::leanPassFits(maxLen, rows, kWarpSize);
    const int warps = lean ? sdtw::stripesOf(maxLen, rows, kWarpSize) : sdtw::warpsPerBlock(maxLen, rows, kWarpSize);
    cols = lean ? sdtw::columnsPerStep(rows, cols) : 2;
    if (rowsUsed) *rowsUsed = rows;
    if (colsUsed) *colsUsed = cols;
    a.wholeLanes = true;
    for (int n : lengths) a.wholeLanes = a.wholeLanes && n % rows == 0;
    if (lean) {
        a.boundaryStride = 0;
        a.boundary = nullptr;
    } else {
        a.boundaryStride = (maxWidth + 3 + 1) / 2 * 2;
    }
    const std::size_t fit =
        lean ? std::size_t(count) : std::max<std::size_t>(1, memInfo().first / 4 / (std::size_t(a.boundaryStride) * 4));
    const int grid = int(std::min<std::size_t>({std::size_t(count), fit, 65535}));
    if (!lean) {
        boundary.resize(std::size_t(grid) * a.boundaryStride);
        a.boundary = boundary.get();
    }
    if (precision == SdtwPrecision::Half2) sdtw::launchHalf2Pass(a, rows, cols, absCost, lean, grid, warps, s);
    else sdtw::launchFp32Pass(a, rows, cols, absCost, lean, grid, warps, s);
}

namespace {

// A pass written in place into the share's own last rows and (withCk) checkpoints.
PassOut inPlace(DeviceShare::Owned& o, bool withCk, int ckCols, int ckRows) {
    PassOut out;
    out.costRow = o.costRow.get();
    out.m = o.p.m;
    out.ck = withCk ? o.ck.get() : nullptr;
    out.ckCols = ckCols;
    out.ckRows = ckRows;
    return out;
}

// One block per re-sweep task (query q over [a, e], its rows and checkpoints in tmp at slot ti):
// the first checkpoint where the re-swept column equals the stored one (every row, bit for
// bit) is where the stored columns become exact, the recurrence being the same from there;
// the columns before it are copied over the stored ones (all of [a, e] when none agrees).
// agreed[ti]: the agreeing column, or -1.
__global__ void commitReseedKernel(const sdtw::Task* tasks, int count, const int* lengths, const float* tmpRow,
                                   int tmpM, const float* tmpCk, int tmpCkCols, float* row, int m, float* ck,
                                   int ckCols, int ckRows, int* agreed) {
    constexpr int C = sdtw::kCheckpointEvery;
    __shared__ int same;
    for (int ti = blockIdx.x; ti < count; ti += gridDim.x) {
        const sdtw::Task tk = tasks[ti];
        const int n = lengths[tk.query];
        const int pad = (n + sdtw::kCheckpointRowAlign - 1) / sdtw::kCheckpointRowAlign * sdtw::kCheckpointRowAlign - n;
        const int width = tk.e - tk.a + 1, nCk = width / C;
        const float* fresh = tmpCk + std::size_t(ti) * tmpCkCols * ckRows + pad;
        float* stored = ck + (std::size_t(tk.query) * ckCols + tk.a / C) * ckRows + pad;
        int agree = -1;
        for (int r = 0; r < nCk && agree < 0; ++r) {
            if (threadIdx.x == 0) same = 1;
            __syncthreads();
            for (int i = threadIdx.x; i < n; i += blockDim.x)
                if (__float_as_uint(fresh[std::size_t(r) * ckRows + i]) != __float_as_uint(stored[std::size_t(r) * ckRows + i]))
                    same = 0;
            __syncthreads();
            if (same) agree = r;
            __syncthreads();
        }
        const int upto = agree >= 0 ? agree * C + C - 1 : width - 1;
        const float* in = tmpRow + std::size_t(ti) * tmpM;
        float* out = row + std::size_t(tk.query) * m + tk.a;
        for (int j = threadIdx.x; j <= upto; j += blockDim.x) out[j] = in[j];
        for (int r = 0; r < (agree >= 0 ? agree : nCk); ++r)
            for (int i = threadIdx.x; i < n; i += blockDim.x)
                stored[std::size_t(r) * ckRows + i] = fresh[std::size_t(r) * ckRows + i];
        if (threadIdx.x == 0) agreed[ti] = agree >= 0 ? tk.a + upto : -1;
        __syncthreads();
    }
}

// The stretch bounds of the chunk's queries and its pass tasks [k0, k1) (every query).
std::vector<sdtw::Task> stretchTasks(const std::vector<int>& bounds, int nq, int k0, int k1) {
    std::vector<sdtw::Task> tasks;
    for (int q = 0; q < nq; ++q)
        for (int k = k0; k < k1; ++k) tasks.push_back(sdtw::Task{q, bounds[k], bounds[k + 1] - 1, -1});
    return tasks;
}

// Share d's seeds held by the share before it: every query's checkpoint before d's first column.
void copyEntrySeeds(std::vector<DeviceShare>& shares, std::size_t d, int nq, const std::vector<int>& bounds, int ckCols,
                    int ckRows) {
    constexpr int C = sdtw::kCheckpointEvery;
    DeviceShare& sh = shares[d];
    if (sh.k0 < 1 || sh.k0 >= sh.k1) return;
    std::size_t before = d - 1;  // the share holding stretch k0 - 1
    while (shares[before].k0 >= shares[before].k1 || shares[before].k1 != sh.k0) --before;
    const DeviceShare& from = shares[before];
    const std::size_t c = std::size_t(bounds[sh.k0] / C - 1);
    sh.run([&] {
        for (int q = 0; q < nq; ++q) {
            const std::size_t o = (std::size_t(q) * ckCols + c) * ckRows;
            check(gpuMemcpyPeerAsync(sh.own->ck.get() + o, sh.device, from.own->ck.get() + o, from.device,
                                     std::size_t(ckRows) * sizeof(float), sh.own->stream.get()),
                  "copy between devices");
        }
        sh.own->stream.sync();
    });
}

// The re-sweeps given up (reseedStretches): from each query's first column not known exact (f:
// the frontiers), one seeded task per query and share, the shares in order, written in place.
// A share that starts the reference sweeps its columns again from column 0 instead where that
// is cheaper: unseeded, in the lean pass, which runs a cell in about half the time of the seeded
// stripe kernel (one query of 256 in 36.9 M samples of a random walk, H100: 3.1 s whole, about
// 5.7 s seeded from the second stretch on).
void sweepRemainder(std::vector<DeviceShare>& shares, int q0, int nq, bool absCost, const std::vector<int>& bounds,
                    const std::vector<int>& f, int ckCols, int ckRows, SdtwTiming& tm) {
    constexpr int C = sdtw::kCheckpointEvery;
    const int S = int(bounds.size()) - 1;
    std::vector<int> first(nq, INT_MAX);  // each query's first column not known exact
    for (int q = 0; q < nq; ++q)
        for (int k = 0; k < S; ++k)
            if (f[std::size_t(q) * S + k] < bounds[k + 1]) {
                first[q] = f[std::size_t(q) * S + k];
                break;
            }
    for (std::size_t d = 0; d < shares.size(); ++d) {
        DeviceShare& sh = shares[d];
        if (sh.k0 >= sh.k1) continue;
        const int a0 = bounds[sh.k0], e = bounds[sh.k1] - 1;
        std::vector<sdtw::Task> seeded, fromStart;
        for (int q = 0; q < nq; ++q)
            if (first[q] <= e) {
                const int a = std::max(first[q], a0);
                const bool restart = a0 == 0 && 2LL * (e - a + 1) > (long long)e + 1;
                if (restart) fromStart.push_back(sdtw::Task{q, 0, e, -1});
                else seeded.push_back(sdtw::Task{q, a, e, a / C - 1});
                tm.reseedCells += (unsigned long long)(restart ? e + 1 : e - a + 1) * shares[0].own->p.qh.lengths[q0 + q];
            }
        if (seeded.empty() && fromStart.empty()) continue;
        if (d > 0) copyEntrySeeds(shares, d, nq, bounds, ckCols, ckRows);
        sh.run([&] {
            DeviceShare::Owned& o = *sh.own;
            // In place: a task's seed lies before its columns.
            for (const std::vector<sdtw::Task>* tasks : {&fromStart, &seeded}) {
                if (tasks->empty()) continue;
                runPass(o.p, q0, nq, SdtwPrecision::Fp32, absCost, inPlace(o, true, ckCols, ckRows), tasks, o.dTasks,
                        o.boundary, o.stream.get(), 0, 0);
                o.stream.sync();  // dTasks is reused by the next launch
            }
        });
    }
    ++tm.reseedWaves;
    tm.sweptInOrder = true;
}

// Makes the stretched first pass exact (see SdtwOptions::stretches) on every share. bounds: the
// stretches' first columns and m. Every stretch's stored columns are one consistent sweep from
// some column before it; a stretch is re-swept from the stored column before its frontier f (the
// first column not yet known to follow the exact column before the stretch) over a re-sweep of a
// few query lengths, in one launch per share for every stretch that needs it; where the re-sweep
// reaches a stored checkpoint equal to its own, the rest of the stretch is exact, else the re-sweep
// is stored and the next wave goes on from its end. A stretch whose last column changed sends
// its successor back to its start. Stretch 0 is exact from the start, so every wave makes at
// least one more stretch exact. A share's first stretch is seeded from the checkpoint before it,
// which the share before holds: copied across before each wave, while no share runs.
//
// A signal on which the columns never agree would make that a chain of waves, each re-sweeping
// every stretch after the exact ones: after maxWaves waves the rest of each query is swept in
// order instead (sweepRemainder), one seeded task per query and share, which costs at most one
// unsplit pass.
//
// f (query-major, S per query) comes from the caller: a stretch whose f is its end needs
// nothing (stretch 0; another process's; the process's first before its entry column came).
// Stretches from `end` on belong to another process: a change of the last column before them
// is that process's to see (its entry column).
void reseedStretches(std::vector<DeviceShare>& shares, int q0, int nq, bool absCost, const std::vector<int>& bounds,
                     std::vector<int>& f, int end, int ckCols, int ckRows, int rows, int cols, int maxWaves,
                     SdtwTiming& tm) {
    constexpr int C = sdtw::kCheckpointEvery;
    const int S = int(bounds.size()) - 1;
    const Prepared& p0 = shares[0].own->p;
    const int m = p0.m;
    for (DeviceShare& sh : shares)
        sh.run([&] { sh.own->dLengths.upload(p0.qh.lengths.data() + q0, std::size_t(nq), sh.own->stream.get()); });
    for (;;) {
        // This wave's tasks per share, and the re-sweep each needs.
        std::vector<std::vector<sdtw::Task>> tasks(shares.size());
        std::vector<std::vector<std::size_t>> at(shares.size());  // index into f
        bool any = false;
        for (std::size_t d = 0; d < shares.size(); ++d)
            for (int q = 0; q < nq; ++q) {
                const int reach = (2 * p0.qh.lengths[q0 + q] + C - 1) / C * C + C;
                for (int k = shares[d].k0; k < shares[d].k1; ++k) {
                    const std::size_t i = std::size_t(q) * S + k;
                    if (f[i] >= bounds[k + 1]) continue;
                    tasks[d].push_back(sdtw::Task{q, f[i], std::min(f[i] + reach, bounds[k + 1]) - 1, f[i] / C - 1});
                    at[d].push_back(i);
                    any = true;
                }
            }
        if (!any) return;
        if (tm.reseedWaves >= maxWaves) {
            sweepRemainder(shares, q0, nq, absCost, bounds, f, ckCols, ckRows, tm);
            return;
        }
        for (std::size_t d = 1; d < shares.size(); ++d)
            if (!tasks[d].empty()) copyEntrySeeds(shares, d, nq, bounds, ckCols, ckRows);
        for (std::size_t d = 0; d < shares.size(); ++d) {
            if (tasks[d].empty()) continue;
            DeviceShare& sh = shares[d];
            sh.run([&] {
                DeviceShare::Owned& o = *sh.own;
                int tmpM = C;
                for (const sdtw::Task& t : tasks[d]) tmpM = std::max(tmpM, (t.e - t.a + 1 + C - 1) / C * C);
                const int tmpCkCols = tmpM / C;
                const std::size_t count = tasks[d].size();
                o.tmpRow.resize(count * std::size_t(tmpM));
                o.tmpCk.resize(count * std::size_t(tmpCkCols) * ckRows);
                PassOut out;
                out.costRow = o.tmpRow.get();
                out.m = tmpM;
                out.ck = o.tmpCk.get();
                out.ckCols = tmpCkCols;
                out.ckRows = ckRows;
                out.seedCk = o.ck.get();
                out.seedCols = ckCols;
                out.perTaskOut = true;
                const gpuStream_t s = o.stream.get();
                runPass(o.p, q0, nq, SdtwPrecision::Fp32, absCost, out, &tasks[d], o.dTasks, o.boundary, s, rows, cols);
                o.dAgreed.resize(count);
                commitReseedKernel<<<int(std::min<std::size_t>(count, 65535)), kThreads, 0, s>>>(
                    o.dTasks.get(), int(count), o.dLengths.get(), o.tmpRow.get(), tmpM, o.tmpCk.get(), tmpCkCols,
                    o.costRow.get(), m, o.ck.get(), ckCols, ckRows, o.dAgreed.get());
                checkLaunch("sdtw stretch commit kernel");
                o.agreed.resize(count);
                o.dAgreed.download(o.agreed.data(), count, s);
            });
        }
        ++tm.reseedWaves;
        std::vector<std::size_t> restart;
        for (std::size_t d = 0; d < shares.size(); ++d) {
            if (tasks[d].empty()) continue;
            shares[d].run([&] { shares[d].own->stream.sync(); });
            for (std::size_t t = 0; t < tasks[d].size(); ++t) {
                const sdtw::Task& tk = tasks[d][t];
                const std::size_t i = at[d][t];
                const int k = int(i % S), stop = bounds[k + 1];
                tm.reseedCells += (unsigned long long)(tk.e - tk.a + 1) * p0.qh.lengths[q0 + tk.query];
                if (shares[d].own->agreed[t] >= 0) {
                    f[i] = stop;
                } else {
                    f[i] = tk.e + 1;
                    if (f[i] == stop && k + 1 < end) restart.push_back(i + 1);  // its last column changed
                }
            }
        }
        for (std::size_t i : restart) f[i] = bounds[i % S];
    }
}

// Stretch bounds of m columns: S stretches whose inner bounds are multiples of kCheckpointEvery.
std::vector<int> stretchBounds(int m, int S) {
    constexpr int C = sdtw::kCheckpointEvery;
    std::vector<int> b{0};
    for (int k = 1; k < S; ++k) {
        const int at = int((long long)m * k / S / C * C);
        if (at > b.back() && at < m) b.push_back(at);
    }
    b.push_back(m);
    return b;
}

}  // namespace

// The last rows (and fp32 checkpoints, when ck) of queries [q0, q0 + nq) into every share's
// costRow / ck: one pass over the whole reference on the one share, or (fp32, more than one
// stretch) each share's stretches, then re-swept exact (reseedStretches). Returns the bounds.
// Over processes (options.processes), this one's stretches only: first made exact as if its
// first stretch were (as the devices of one process do), then, once the process before has
// sent the exact column before them, re-swept from it until they agree; the exact column at
// its end then goes to the process after. A chain, but each link is a few query lengths.
std::vector<int> lastRowsPass(std::vector<DeviceShare>& shares, int q0, int nq, SdtwPrecision precision, bool absCost,
                              bool withCk, int ckCols, int ckRows, const SdtwOptions& options, SdtwTiming& tm) {
    constexpr int C = sdtw::kCheckpointEvery;
    const Prepared& p0 = shares[0].own->p;
    const ProcessGroup* P = splitOver(options);
    int maxLen = 1;
    for (int q = 0; q < nq; ++q) maxLen = std::max(maxLen, p0.qh.lengths[q0 + q]);
    int S = 1;
    if (precision == SdtwPrecision::Fp32 && withCk) {
        if (options.stretches > 0) {
            S = options.stretches;
        } else {
            // Every process must cut the same stretches: counted over all of their chips.
            long long sms = (long long)multiprocessorCount() * int(shares.size());
            if (P) {
                std::vector<long long> all(std::size_t(P->count));
                P->allgather(&sms, sizeof sms, all.data());
                sms = 0;
                for (long long v : all) sms += v;
            }
            S = sdtwStretchCount(p0.m, maxLen, nq, int(std::min<long long>(sms, INT_MAX)));
        }
        if (P) S = std::max(S, P->count);  // a stretch per process at least, where the reference has them
    }
    const std::vector<int> bounds = stretchBounds(p0.m, S);
    tm.stretches = int(bounds.size()) - 1;
    S = tm.stretches;
    const int self = P ? P->index : 0;
    // (No structured bindings: the lambdas below capture these, which hipcc's clang refuses.)
    const std::pair<int, int> own = processStretches(S, P, self);
    const int K0 = own.first, K1 = own.second;
    const int D = int(shares.size());
    for (int d = 0; d < D; ++d) {  // the first shares get a stretch more where they do not divide
        shares[d].k0 = K0 + ((K1 - K0) * d + D - 1) / D;
        shares[d].k1 = K0 + ((K1 - K0) * (d + 1) + D - 1) / D;
    }
    for (DeviceShare& sh : shares) {
        if (sh.k0 >= sh.k1) continue;
        sh.run([&] {
            DeviceShare::Owned& o = *sh.own;
            const std::vector<sdtw::Task> tasks = stretchTasks(bounds, nq, sh.k0, sh.k1);
            runPass(o.p, q0, nq, precision, absCost, inPlace(o, withCk, ckCols, ckRows),
                    tm.stretches == 1 ? nullptr : &tasks, o.dTasks, o.boundary,
                    o.stream.get(), options.rowsPerLane, options.columnsPerStep, &tm.rowsPerLane, &tm.columnsPerStep);
        });
    }
    if (tm.stretches > 1) {
        // Every share's first pass done before any share copies a column from another (the
        // waves' seeds, the boundary column): a peer copy is ordered by its own stream only.
        for (DeviceShare& sh : shares)
            if (sh.k0 < sh.k1) sh.run([&] { sh.own->stream.sync(); });
        const int maxWaves = options.maxReseedWaves > 0 ? options.maxReseedWaves : options.maxReseedWaves < 0 ? 0 : 48;
        // f: each stretch's first column not yet known to follow the exact column before it;
        // a stretch's end when nothing is to do (stretch 0, another process's, and the
        // process's first until the column before it arrives).
        std::vector<int> f(std::size_t(nq) * S);
        for (int q = 0; q < nq; ++q)
            for (int k = 0; k < S; ++k) f[std::size_t(q) * S + k] = k <= K0 || k >= K1 ? bounds[k + 1] : bounds[k];
        auto reseed = [&] {
            reseedStretches(shares, q0, nq, absCost, bounds, f, K1, ckCols, ckRows, options.rowsPerLane,
                            options.columnsPerStep, maxWaves, tm);
        };
        if (K0 < K1) reseed();
        if (P && K0 < K1) {
            // The processes before and after with stretches (one may have none: a short reference).
            int before = -1, after = -1;
            for (int i = 0; i < self; ++i)
                if (auto r = processStretches(S, P, i); r.first < r.second) before = i;
            for (int i = P->count - 1; i > self; --i)
                if (auto r = processStretches(S, P, i); r.first < r.second) after = i;
            std::vector<float> column(std::size_t(nq) * std::size_t(ckRows));
            if (before >= 0) {
                P->recv(column.data(), column.size() * sizeof(float), before);
                checkpointsFromHost(shares[0], 0, nq, std::size_t(bounds[K0] / C - 1), ckCols, ckRows, column.data());
                for (int q = 0; q < nq; ++q) f[std::size_t(q) * S + K0] = bounds[K0];
                reseed();
            }
            if (after >= 0) {
                std::size_t last = 0;  // the share holding stretch K1 - 1
                for (std::size_t d = 0; d < shares.size(); ++d)
                    if (shares[d].k0 < shares[d].k1) last = d;
                checkpointsToHost(shares[last], 0, nq, std::size_t(bounds[K1] / C - 1), ckCols, ckRows, column.data());
                P->send(column.data(), column.size() * sizeof(float), after);
            }
        }
    }
    // Share 0 gathers the last rows (the checkpoints stay where they are: the windows fetch theirs).
    for (int d = 1; d < D; ++d) {
        DeviceShare& sh = shares[d];
        if (sh.k0 >= sh.k1) continue;
        const std::size_t a = std::size_t(bounds[sh.k0]), n = std::size_t(bounds[sh.k1]) - a;
        sh.run([&] {
            for (int q = 0; q < nq; ++q) {
                const std::size_t o = std::size_t(q) * p0.m + a;
                check(gpuMemcpyPeerAsync(shares[0].own->costRow.get() + o, shares[0].device, sh.own->costRow.get() + o,
                                         sh.device, n * sizeof(float), sh.own->stream.get()),
                      "copy between devices");
            }
            sh.own->stream.sync();
        });
    }
    return bounds;
}

}  // namespace sdtw

}  // namespace warplab::compute::gpu
