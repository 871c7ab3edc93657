// Subsequence DTW split into reference stretches (compute/cpu/sdtw_stretch.h, what `search`
// does under mpirun): the stretches' first passes, the boundary columns handed on with their
// corrections, and the top-k rounds over all stretches must give reference::sdtwTopK's matches
// bit for bit — on random walks and on real ECG200 series, for 1 to 9 stretches, stretches
// shorter than the query (so a correction must cross whole stretches), empty stretches, both
// costs and several channels; and with every stretch seeing only its own part of the reference
// (what a rank reads), moved to the reference's columns (sdtwStretchShift) and corrected with
// the part's origin.
#include <QtTest/QtTest>

#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "compute/core/preprocess.h"
#include "compute/cpu/reference.h"
#include "compute/cpu/sdtw_stretch.h"

using namespace warplab::compute;
namespace ref = warplab::compute::reference;

namespace {

Series walk(std::mt19937& rng, std::size_t n, std::size_t dims = 1) {
    std::normal_distribution<float> step(0.f, 1.f);
    std::vector<float> v(n * dims);
    std::vector<float> x(dims, 0.f);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t d = 0; d < dims; ++d) v[i * dims + d] = x[d] = 0.9f * x[d] + step(rng);
    return Series(std::move(v), dims);
}

// In one process, exactly what the ranks of mpi_search.cpp do together. `parts`: each stretch
// sees only its own part of the reference (what a rank reads), swept from the part's first
// column, moved to the reference's columns and corrected with the part's origin.
std::vector<Match> split(const Series& x, const Series& y, bool absCost, int k, std::size_t K,
                         std::size_t* recomputed = nullptr, bool parts = false) {
    const std::size_t m = y.length, half = x.length / 2;
    std::vector<ref::SdtwStretch> s;
    std::vector<Series> part(K);
    for (std::size_t r = 0; r < K; ++r) {
        const std::size_t a = m * r / K, b = m * (r + 1) / K;
        if (!parts) {
            s.push_back(ref::sdtwStretch(x, y, absCost, a, b));
            continue;
        }
        part[r] = Series(std::vector<float>(y.values.begin() + std::ptrdiff_t(a * y.dims),
                                            y.values.begin() + std::ptrdiff_t(b * y.dims)),
                         y.dims);
        s.push_back(ref::sdtwStretch(x, part[r], absCost, 0, b - a));
        ref::sdtwStretchShift(s.back(), a);
    }
    std::size_t redone = 0;
    for (std::size_t r = 1; r < K; ++r)
        redone += parts ? ref::sdtwReseed(x, part[r], absCost, s[r - 1].endColumn, s[r], m * r / K)
                        : ref::sdtwReseed(x, y, absCost, s[r - 1].endColumn, s[r]);
    if (recomputed) *recomputed = redone;
    std::vector<Match> out;
    for (int round = 0; round < k; ++round) {
        bool any = false;
        Match best;
        for (const auto& st : s) {
            const Match b = ref::sdtwStretchBest(st);
            if (b.cost < std::numeric_limits<double>::infinity() &&
                (!any || b.cost < best.cost || (b.cost == best.cost && b.end < best.end))) {
                best = b;
                any = true;
            }
        }
        if (!any) break;
        out.push_back(best);
        for (auto& st : s) ref::sdtwStretchExclude(st, best.end >= half ? best.end - half : 0, std::min(m - 1, best.end + half));
    }
    return out;
}

bool sameMatches(const std::vector<Match>& a, const std::vector<Match>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::memcmp(&a[i].cost, &b[i].cost, sizeof(double)) != 0 || a[i].start != b[i].start || a[i].end != b[i].end)
            return false;
    return true;
}

}  // namespace

class TestSdtwStretch : public QObject {
    Q_OBJECT
private slots:
    void randomWalks() {
        std::mt19937 rng(99);
        int cases = 0;
        for (std::size_t n : {1, 2, 7, 40}) {
            for (std::size_t m : {1, 5, 60, 700}) {
                if (n > m) continue;
                for (bool absCost : {false, true}) {
                    const Series x = znormalized(walk(rng, n)), y = znormalized(walk(rng, m));
                    const auto want = ref::sdtwTopK(x, y, absCost, 6);
                    for (std::size_t K = 1; K <= 9; ++K)
                        for (bool parts : {false, true}) {
                            QVERIFY2(sameMatches(split(x, y, absCost, 6, K, nullptr, parts), want),
                                     qPrintable(QString("n %1 m %2 K %3 abs %4 parts %5")
                                                    .arg(n).arg(m).arg(K).arg(absCost).arg(parts)));
                            ++cases;
                        }
                }
            }
        }
        QVERIFY(cases > 100);
    }

    void severalChannels() {
        std::mt19937 rng(5);
        const Series x = walk(rng, 30, 3), y = walk(rng, 500, 3);
        const auto want = ref::sdtwTopK(x, y, false, 5);
        for (std::size_t K : {2, 3, 8}) {
            QVERIFY(sameMatches(split(x, y, false, 5, K), want));
            QVERIFY(sameMatches(split(x, y, false, 5, K, nullptr, true), want));
        }
    }

    // A query repeated in a reference whose stretches are shorter than it: the best paths
    // cross several stretches, so the corrections must be carried through whole stretches.
    void matchesAcrossStretches() {
        std::mt19937 rng(17);
        const Series q = walk(rng, 64);
        std::vector<float> v;
        for (int rep = 0; rep < 6; ++rep) {
            const Series noise = walk(rng, 37);
            v.insert(v.end(), noise.values.begin(), noise.values.end());
            v.insert(v.end(), q.values.begin(), q.values.end());
        }
        const Series y(std::move(v));
        const auto want = ref::sdtwTopK(q, y, false, 8);
        std::size_t redone = 0;
        for (std::size_t K : {2, 5, 13, 31}) QVERIFY(sameMatches(split(q, y, false, 8, K, &redone), want));
        QVERIFY2(redone > 0, "the corrections did some work");
        // Each stretch with only its part of the reference: the same matches, and the same
        // columns corrected (the moved stretches are the whole reference's, +inf cells too).
        for (std::size_t K : {2, 5, 13, 31}) {
            std::size_t whole = 0, parts = 0;
            QVERIFY(sameMatches(split(q, y, false, 8, K, &whole), want));
            QVERIFY(sameMatches(split(q, y, false, 8, K, &parts, true), want));
            QCOMPARE(parts, whole);
        }
    }

    // Real series: an ECG200 test series searched in the concatenated training set (what the
    // MPI test in tests/mpi runs), 1..7 stretches.
    void ecg200() {
        auto readUcr = [](const std::string& path) {
            std::vector<Series> out;
            std::ifstream in(path);
            std::string line;
            while (std::getline(in, line)) {
                std::istringstream ls(line);
                double label, v;
                if (!(ls >> label)) continue;
                std::vector<float> vals;
                while (ls >> v) vals.push_back(float(v));
                out.emplace_back(std::move(vals));
            }
            return out;
        };
        const auto train = readUcr(WARPLAB_TEST_DATA "/ucr/ECG200/ECG200_TRAIN.txt");
        const auto test = readUcr(WARPLAB_TEST_DATA "/ucr/ECG200/ECG200_TEST.txt");
        QVERIFY2(!train.empty() && test.size() >= 3, "ECG200 missing under " WARPLAB_TEST_DATA "/ucr/ECG200");
        std::vector<float> all;
        for (const auto& s : train) all.insert(all.end(), s.values.begin(), s.values.end());
        const Series y = znormalized(Series(std::move(all))), x = znormalized(test[2]);
        const auto want = ref::sdtwTopK(x, y, false, 7);
        QCOMPARE(int(want.size()), 7);
        for (std::size_t K = 1; K <= 7; ++K) {
            QVERIFY(sameMatches(split(x, y, false, 7, K), want));
            QVERIFY(sameMatches(split(x, y, false, 7, K, nullptr, true), want));
        }
    }
};

QTEST_GUILESS_MAIN(TestSdtwStretch)
#include "test_sdtw_stretch.moc"
