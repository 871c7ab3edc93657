// The GPU subsequence search split over processes (SdtwOptions::processes; sdtw_search_parts.h):
// which stretches each process sweeps, and how process 0's start spans get the seed checkpoints
// the other processes hold. The boundary columns and the top-k rounds are in
// sdtw_stretches.cu and sdtw_matches.cu.
// gpu_runtime.h first: hipcc needs its runtime header before recurrences.h uses __forceinline__.
#include "compute/gpu/runtime/gpu_runtime.h"
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "compute/gpu/kernels/sdtw/sdtw_search_parts.h"

namespace warplab::compute::gpu::sdtw {

std::pair<int, int> processStretches(int S, const ProcessGroup* processes, int index) {
    const int K = processes ? std::max(1, processes->count) : 1;
    return {int((long long)S * index / K), int((long long)S * (index + 1) / K)};
}

int processHolding(int stretch, int S, const ProcessGroup* processes) {
    const int K = processes ? std::max(1, processes->count) : 1;
    for (int i = 0; i < K; ++i) {
        const auto [k0, k1] = processStretches(S, processes, i);
        if (stretch >= k0 && stretch < k1) return i;
    }
    return K - 1;
}

void checkpointsToHost(DeviceShare& sh, int q0, int nq, std::size_t c, int ckCols, int ckRows, float* host) {
    sh.run([&] {
        for (int q = q0; q < q0 + nq; ++q)
            check(gpuMemcpyAsync(host + std::size_t(q - q0) * ckRows,
                                 sh.own->ck.get() + (std::size_t(q) * ckCols + c) * ckRows,
                                 std::size_t(ckRows) * sizeof(float), gpuMemcpyDeviceToHost, sh.own->stream.get()),
                  "copy from the device");
        sh.own->stream.sync();
    });
}

void checkpointsFromHost(DeviceShare& sh, int q0, int nq, std::size_t c, int ckCols, int ckRows, const float* host) {
    sh.run([&] {
        for (int q = q0; q < q0 + nq; ++q)
            check(gpuMemcpyAsync(sh.own->ck.get() + (std::size_t(q) * ckCols + c) * ckRows,
                                 host + std::size_t(q - q0) * ckRows, std::size_t(ckRows) * sizeof(float),
                                 gpuMemcpyHostToDevice, sh.own->stream.get()),
                  "copy to the device");
        sh.own->stream.sync();
    });
}

// Process 0's start spans and the seeds other processes hold. For every start span round that needs
// any, process 0 sends each other process the list of (query, checkpoint) it lacks, and each
// holder answers with its columns in list order; an empty list ends the chunk's start spans.
using SeedWant = std::pair<int, int>;  // (query, checkpoint)

namespace {

void sendWants(const ProcessGroup& P, const std::vector<SeedWant>& wants) {
    const std::uint64_t n = wants.size();
    for (int i = 1; i < P.count; ++i) {
        P.send(&n, sizeof n, i);
        if (n) P.send(wants.data(), wants.size() * sizeof(SeedWant), i);
    }
}

// The process and local share holding checkpoint c (its column c * C + C - 1).
int processOfCheckpoint(int c, const std::vector<int>& bounds, const ProcessGroup& P) {
    const int col = c * kCheckpointEvery + kCheckpointEvery - 1;
    const int S = int(bounds.size()) - 1;
    const int k = int(std::upper_bound(bounds.begin(), bounds.end(), col) - bounds.begin()) - 1;
    return processHolding(std::min(std::max(k, 0), S - 1), S, &P);
}

}  // namespace

void fetchRemoteSeeds(DeviceShare& s0, const ProcessGroup& P, const std::vector<Task>& round,
                      const std::vector<int>& bounds, int c0, int c1, int ckCols, int ckRows) {
    constexpr int C = kCheckpointEvery;
    std::vector<SeedWant> wants;
    for (const Task& t : round) {
        const int col = t.seed * C + C - 1;
        if (t.seed >= 0 && (col < c0 || col >= c1)) wants.push_back({t.query, t.seed});
    }
    if (wants.empty()) return;
    sendWants(P, wants);
    std::vector<float> column(static_cast<std::size_t>(ckRows));
    for (const auto& [q, c] : wants) {
        P.recv(column.data(), column.size() * sizeof(float), processOfCheckpoint(c, bounds, P));
        checkpointsFromHost(s0, q, 1, std::size_t(c), ckCols, ckRows, column.data());
    }
}

void endSeeds(const ProcessGroup& P) { sendWants(P, {}); }

// The other processes while process 0 runs the start spans: answer each list with the columns this
// process holds, until the empty list.
void serveSeeds(std::vector<DeviceShare>& shares, const ProcessGroup& P, const std::vector<int>& bounds, int ckCols,
                int ckRows) {
    constexpr int C = kCheckpointEvery;
    std::vector<float> column(static_cast<std::size_t>(ckRows));
    for (;;) {
        std::uint64_t n = 0;
        P.recv(&n, sizeof n, 0);
        if (n == 0) return;
        std::vector<SeedWant> wants(n);
        P.recv(wants.data(), wants.size() * sizeof(SeedWant), 0);
        for (const auto& [q, c] : wants) {
            if (processOfCheckpoint(c, bounds, P) != P.index) continue;
            const int col = c * C + C - 1;
            DeviceShare* holder = &shares[0];
            for (DeviceShare& sh : shares)
                if (sh.k0 < sh.k1 && col >= bounds[sh.k0] && col < bounds[sh.k1]) holder = &sh;
            checkpointsToHost(*holder, q, 1, std::size_t(c), ckCols, ckRows, column.data());
            P.send(column.data(), column.size() * sizeof(float), 0);
        }
    }
}

}  // namespace warplab::compute::gpu::sdtw
