// Distributed `search` (mpi_search.h).
#include "app/cli/mpi_search.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "app/cli/mpi_session.h"
#include "compute/core/preprocess.h"
#include "compute/cpu/sdtw_stretch.h"

namespace warplab::cli {

namespace {
namespace ref = compute::reference;

void sendColumn(const ref::SdtwColumn& c, int to) {
    mpi::sendBytes(c.cost.data(), c.cost.size() * sizeof(double), to);
    std::vector<std::uint64_t> s(c.start.begin(), c.start.end());
    mpi::sendBytes(s.data(), s.size() * sizeof(std::uint64_t), to);
}

ref::SdtwColumn recvColumn(std::size_t n, int from) {
    ref::SdtwColumn c;
    c.cost.resize(n);
    mpi::recvBytes(c.cost.data(), n * sizeof(double), from);
    std::vector<std::uint64_t> s(n);
    mpi::recvBytes(s.data(), n * sizeof(std::uint64_t), from);
    c.start.assign(s.begin(), s.end());
    return c;
}

struct WireMatch {
    double cost;
    std::uint64_t start, end;
};
}  // namespace

std::vector<compute::Match> searchMpi(const compute::Series& query, const compute::Series& reference,
                                      const compute::Params& params) {
    compute::Series qp, rp;
    ref::SdtwStretch mine;
    const int r = mpi::rank(), K = mpi::size();
    mpi::step([&] {
        mpi::injectFailure("search");
        compute::checkSeries(query, "query");
        compute::checkSeries(reference, "reference");
        qp = params.znorm ? compute::znormalized(query) : query;
        rp = params.znorm ? compute::znormalized(reference) : reference;
        compute::checkPair(qp, "query", rp, "reference", compute::Metric::Sdtw);
        const std::size_t m = rp.length;
        mine = ref::sdtwStretch(qp, rp, params.cost == compute::Cost::Absolute, m * std::size_t(r) / std::size_t(K),
                                m * std::size_t(r + 1) / std::size_t(K));
    });
    // The boundary columns, rank to rank: rank r's exact end column needs rank r-1's.
    const bool absCost = params.cost == compute::Cost::Absolute;
    if (r > 0) ref::sdtwReseed(qp, rp, absCost, recvColumn(qp.length, r - 1), mine);
    if (r + 1 < K) sendColumn(mine.endColumn, r + 1);

    // METRICS.md's top-k over every stretch: the best (cost, then column) of all ranks, then
    // its neighbourhood excluded everywhere.
    const std::size_t m = rp.length, half = qp.length / 2;
    std::vector<compute::Match> out;
    std::vector<WireMatch> all(static_cast<std::size_t>(K));
    for (int round = 0; round < params.topk; ++round) {
        const compute::Match b = ref::sdtwStretchBest(mine);
        const WireMatch w{b.cost, b.start, b.end};
        mpi::allgather(&w, sizeof w, all.data());
        const WireMatch* best = nullptr;
        for (const WireMatch& c : all)
            if (c.cost < std::numeric_limits<double>::infinity() &&
                (!best || c.cost < best->cost || (c.cost == best->cost && c.end < best->end)))
                best = &c;
        if (!best) break;
        out.push_back(compute::Match{best->cost, std::size_t(best->start), std::size_t(best->end)});
        const std::size_t e = std::size_t(best->end);
        ref::sdtwStretchExclude(mine, e >= half ? e - half : 0, std::min(m - 1, e + half));
    }
    for (compute::Match& x : out)
        if (params.sqrt) x.cost = std::sqrt(x.cost);
    return out;
}

}  // namespace warplab::cli
