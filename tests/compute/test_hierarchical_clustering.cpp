// Hierarchical clustering (compute/cluster) against a naive O(n^3) version written here from
// the definitions: every step recomputes every cluster-pair linkage from the leaf pairs of the
// original matrix and takes the first minimum in (smaller leaf a, smaller leaf b) order — the
// header's tie rule. Random matrices, integer matrices full of ties, and a real DTW matrix of
// ECG200 (UCR).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>

#include "compute/cluster/hierarchical_clustering.h"
#include "compute/core/error.h"
#include "compute/cpu/reference.h"
#include "compute_test_util.h"

using namespace warplab::compute;

namespace {

Dendrogram naiveClustering(const std::vector<double>& d, std::size_t n, Linkage linkage) {
    std::vector<std::vector<std::size_t>> members(n);  // indexed by smallest leaf; empty: merged away
    std::vector<std::size_t> id(n);
    for (std::size_t i = 0; i < n; ++i) {
        members[i] = {i};
        id[i] = i;
    }
    auto sym = [&](std::size_t i, std::size_t j) { return (d[i * n + j] + d[j * n + i]) / 2; };
    Dendrogram out;
    out.leaves = n;
    for (std::size_t step = 0; step + 1 < n; ++step) {
        std::size_t ba = n, bb = n;
        double best = 0;
        for (std::size_t a = 0; a < n; ++a)
            for (std::size_t b = a + 1; b < n; ++b) {
                if (members[a].empty() || members[b].empty()) continue;
                double v = linkage == Linkage::Single ? INFINITY : linkage == Linkage::Complete ? -INFINITY : 0.0;
                for (std::size_t p : members[a])
                    for (std::size_t q : members[b]) {
                        const double x = sym(p, q);
                        if (linkage == Linkage::Single) v = std::min(v, x);
                        else if (linkage == Linkage::Complete) v = std::max(v, x);
                        else v += x;
                    }
                if (linkage == Linkage::Average) v /= double(members[a].size() * members[b].size());
                if (ba == n || v < best) {
                    ba = a;
                    bb = b;
                    best = v;
                }
            }
        out.merges.push_back({id[ba], id[bb], best, members[ba].size() + members[bb].size()});
        members[ba].insert(members[ba].end(), members[bb].begin(), members[bb].end());
        members[bb].clear();
        id[ba] = n + step;
    }
    return out;
}

std::vector<double> randomMatrix(std::size_t n, std::mt19937& rng, bool integers) {
    std::uniform_real_distribution<double> u(0.0, 10.0);
    std::uniform_int_distribution<int> small(1, 4);
    std::vector<double> d(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) d[i * n + j] = d[j * n + i] = integers ? small(rng) : u(rng);
    return d;
}

// `exactHeights`: single and complete take min/max of matrix values, so heights and ties are
// exact; average sums in another order, so heights agree to rounding only.
void compare(const Dendrogram& got, const Dendrogram& want, bool exactHeights, const char* what) {
    QVERIFY2(got.merges.size() == want.merges.size(), what);
    for (std::size_t k = 0; k < want.merges.size(); ++k) {
        const auto &g = got.merges[k], &w = want.merges[k];
        const QByteArray where = QByteArray(what) + " merge " + QByteArray::number(qulonglong(k));
        QVERIFY2(g.left == w.left && g.right == w.right && g.size == w.size, where.constData());
        if (exactHeights) QVERIFY2(g.height == w.height, where.constData());
        else QVERIFY2(std::fabs(g.height - w.height) <= 1e-12 * std::max(1.0, std::fabs(w.height)), where.constData());
    }
}

void checkShape(const Dendrogram& g, std::size_t n) {
    QCOMPARE(g.leaves, n);
    QCOMPARE(g.merges.size(), n - 1);
    std::vector<std::size_t> sorted = g.order;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < n; ++i) QCOMPARE(sorted[i], i);
    for (std::size_t k = 1; k < g.merges.size(); ++k) QVERIFY(g.merges[k].height >= g.merges[k - 1].height);
    if (n > 1) QCOMPARE(g.merges.back().size, n);
}

}  // namespace

class TestHierarchicalClustering : public QObject {
    Q_OBJECT
private slots:
    void randomMatricesMatchNaive() {
        std::mt19937 rng(1403);
        for (std::size_t n : {2u, 3u, 5u, 17u, 40u, 61u})
            for (Linkage l : {Linkage::Single, Linkage::Complete, Linkage::Average}) {
                const auto d = randomMatrix(n, rng, false);
                const Dendrogram g = clusterHierarchical(d.data(), n, l);
                checkShape(g, n);
                compare(g, naiveClustering(d, n, l), l != Linkage::Average, linkageName(l).data());
            }
    }
    void tiesFollowTheStatedRule() {
        // Values 1..4 only: most steps have many equal candidates.
        std::mt19937 rng(7);
        for (int rep = 0; rep < 20; ++rep)
            for (Linkage l : {Linkage::Single, Linkage::Complete}) {
                const std::size_t n = 5 + std::size_t(rep) * 2;
                const auto d = randomMatrix(n, rng, true);
                const Dendrogram g = clusterHierarchical(d.data(), n, l);
                checkShape(g, n);
                compare(g, naiveClustering(d, n, l), true, linkageName(l).data());
            }
        // All distances equal: merges go (0,1), then (0's cluster, 2), ... by the rule.
        const std::size_t n = 6;
        std::vector<double> d(n * n, 1.0);
        for (std::size_t i = 0; i < n; ++i) d[i * n + i] = 0;
        const Dendrogram g = clusterHierarchical(d.data(), n, Linkage::Average);
        QCOMPARE(g.merges[0].left, std::size_t(0));
        QCOMPARE(g.merges[0].right, std::size_t(1));
        for (std::size_t k = 1; k + 1 < n; ++k) {
            QCOMPARE(g.merges[k].left, n + k - 1);
            QCOMPARE(g.merges[k].right, k + 1);
        }
        QCOMPARE(g.order, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5}));
    }
    void knownSmallExample() {
        // Two tight pairs far apart: {0,2} at 1, {1,3} at 2; the leaf order puts pairs together.
        const std::vector<double> d = {0, 9, 1, 8,  9, 0, 7, 2,  1, 7, 0, 9,  8, 2, 9, 0};
        const Dendrogram s = clusterHierarchical(d.data(), 4, Linkage::Single);
        QCOMPARE(s.merges[0].left, std::size_t(0));
        QCOMPARE(s.merges[0].right, std::size_t(2));
        QCOMPARE(s.merges[0].height, 1.0);
        QCOMPARE(s.merges[1].left, std::size_t(1));
        QCOMPARE(s.merges[1].right, std::size_t(3));
        QCOMPARE(s.merges[2].height, 7.0);  // single: the closest cross pair (1,2)
        QCOMPARE(clusterHierarchical(d.data(), 4, Linkage::Complete).merges[2].height, 9.0);
        QCOMPARE(clusterHierarchical(d.data(), 4, Linkage::Average).merges[2].height, (9.0 + 8 + 7 + 9) / 4);
        QCOMPARE(s.order, (std::vector<std::size_t>{0, 2, 1, 3}));
    }
    void asymmetricIsSymmetrised() {
        std::mt19937 rng(3);
        const std::size_t n = 12;
        auto d = randomMatrix(n, rng, false);
        auto sym = d;
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = i + 1; j < n; ++j) {
                d[i * n + j] += 0.5;
                d[j * n + i] -= 0.5;
            }
        for (Linkage l : {Linkage::Single, Linkage::Complete, Linkage::Average})
            compare(clusterHierarchical(d.data(), n, l), clusterHierarchical(sym.data(), n, l), false, "asymmetric");
    }
    void realDtwMatrixOfEcg200() {
        const SeriesSet all = testutil::readUcr(WARPLAB_TEST_DATA "/ucr/ECG200/ECG200_TRAIN.txt");
        QVERIFY(all.size() >= 60);
        const std::size_t n = 60;
        std::vector<double> d(n * n, 0.0);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = i + 1; j < n; ++j) d[i * n + j] = d[j * n + i] = reference::dtw(all[i], all[j], false, -1);
        for (Linkage l : {Linkage::Single, Linkage::Complete, Linkage::Average}) {
            const Dendrogram g = clusterHierarchical(d.data(), n, l);
            checkShape(g, n);
            compare(g, naiveClustering(d, n, l), l != Linkage::Average, linkageName(l).data());
        }
    }
    void trivialAndBadInput() {
        const double one = 0;
        const Dendrogram g = clusterHierarchical(&one, 1, Linkage::Average);
        QVERIFY(g.merges.empty());
        QCOMPARE(g.order, std::vector<std::size_t>{0});
        auto fails = [](std::vector<double> d, std::size_t n, const char* needle) -> bool {
            try {
                clusterHierarchical(d.data(), n, Linkage::Average);
            } catch (const EngineError& e) {
                return e.field() == "matrix" && QString(e.what()).contains(needle);
            }
            return false;
        };
        QVERIFY(fails({}, 0, "no rows"));
        QVERIFY(fails({0, NAN, NAN, 0}, 2, "(0, 1)"));
        QVERIFY(fails({0, 1, 1, 0, 0, INFINITY, 1, INFINITY, 0}, 3, "(1, 2)"));
        QVERIFY(fails({0, -1, -1, 0}, 2, "non-negative"));
    }
};

QTEST_GUILESS_MAIN(TestHierarchicalClustering)
#include "test_hierarchical_clustering.moc"
