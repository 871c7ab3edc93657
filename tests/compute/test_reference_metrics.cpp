// The scalar reference on tiny cases worked out by hand from METRICS.md (the arithmetic is in
// the comments), for every metric, both costs, znorm, sqrt, multivariate samples and paths.
#include <QtTest/QtTest>

#include <cmath>

#include "compute/core/preprocess.h"
#include "compute/cpu/reference.h"
#include "compute/engine/engine.h"

using namespace warplab::compute;

namespace {
Series s(std::vector<float> v, std::size_t dims = 1) { return Series(std::move(v), dims); }
Params metric(Metric m) {
    Params p;
    p.metric = m;
    return p;
}
bool near(double a, double b, double tol = 1e-12) { return std::fabs(a - b) <= tol * std::max(1.0, std::fabs(b)); }
}  // namespace

class TestReferenceMetrics : public QObject {
    Q_OBJECT
private slots:
    void euclidean() {
        // x = [1,2,3], y = [2,2,5]: sq 1 + 0 + 4 = 5; abs 1 + 0 + 2 = 3; sqrt(5) with --sqrt.
        Params p = metric(Metric::Euclidean);
        QCOMPARE(Engine::distance(s({1, 2, 3}), s({2, 2, 5}), p), 5.0);
        p.cost = Cost::Absolute;
        QCOMPARE(Engine::distance(s({1, 2, 3}), s({2, 2, 5}), p), 3.0);
        p.cost = Cost::Squared;
        p.sqrt = true;
        QVERIFY(near(Engine::distance(s({1, 2, 3}), s({2, 2, 5}), p), std::sqrt(5.0)));
    }

    void dtwAndPath() {
        // x = [1,3,4,9], y = [1,4,9]; local costs (x_i - y_j)^2:
        //   row 1: 0  9 64 | row 3: 4 1 36 | row 4: 9 0 25 | row 9: 64 25 0
        // D row0: 0, 9, 73
        // D row1: 4, 1+min(9,4,0)=1, 36+min(73,1,9)=37
        // D row2: 13, 0+min(1,13,4)=1, 25+min(37,1,1)=26
        // D row3: 77, 25+min(1,77,13)=26, 0+min(26,26,1)=1   -> DTW = 1
        // Backtrack from (3,2): diag (2,1)=1 wins; at (2,1): diag (1,0)=4, up (1,1)=1, left 13 -> up;
        // at (1,1): diag (0,0). Path (0,0),(1,1),(2,1),(3,2).
        const Series x = s({1, 3, 4, 9}), y = s({1, 4, 9});
        Alignment a = Engine::align(x, y, metric(Metric::Dtw), true);
        QCOMPARE(a.distance, 1.0);
        using P = std::pair<std::size_t, std::size_t>;
        const std::vector<P> expected = {P{0, 0}, P{1, 1}, P{2, 1}, P{3, 2}};
        QCOMPARE(a.path, expected);
        QCOMPARE(a.matrix.size(), std::size_t(12));
        QCOMPARE(a.matrix[1 * 3 + 2], 37.0);
        QCOMPARE(a.matrix[3 * 3 + 0], 77.0);
        QCOMPARE(Engine::distance(x, y, metric(Metric::Dtw)), 1.0);
    }

    void cdtwBandMatters() {
        // x = [0,5,0,0], y = [0,0,5,0]: y is x shifted by one sample.
        // dtw: path (0,0),(0,1),(1,2),(2,3),(3,3) pairs equal values -> 0.
        // cdtw w=0 is euclidean: (5-0)^2 + (0-5)^2 = 50. cdtw w=1: the same path has |i-j| <= 1 -> 0.
        const Series x = s({0, 5, 0, 0}), y = s({0, 0, 5, 0});
        Params p = metric(Metric::Cdtw);
        QCOMPARE(Engine::distance(x, y, metric(Metric::Dtw)), 0.0);
        p.band = 0;
        QCOMPARE(Engine::distance(x, y, p), 50.0);
        p.band = 1;
        QCOMPARE(Engine::distance(x, y, p), 0.0);
    }

    void cdtwUnequalLengths() {
        // x = [1,2,3,4,5] (n=5), y = [1,3,5] (m=3), w = 0: allowed iff j-i <= 0 and i-j <= 2.
        // costs: row1: 0 4 16 | row2: 1 1 9 | row3: 4 0 4 | row4: 9 1 1 | row5: 16 4 0
        // D(0,0)=0; D(1,0)=1; D(1,1)=1+min(-,1,0)=1; D(2,0)=5; D(2,1)=0+min(1,5,1)=1;
        // D(2,2)=4+min(-,1,1)=5; D(3,1)=1+min(1,-,5)=2; D(3,2)=1+min(5,2,1)=2; D(4,2)=0+min(2,-,2)=2.
        Params p = metric(Metric::Cdtw);
        p.band = 0;
        const Series x = s({1, 2, 3, 4, 5}), y = s({1, 3, 5});
        QCOMPARE(Engine::distance(x, y, p), 2.0);
        QCOMPARE(Engine::distance(y, x, p), 2.0);  // the band rule is symmetric in x and y
        Alignment a = Engine::align(x, y, p, true);
        QVERIFY(std::isinf(a.matrix[0 * 3 + 1]));  // (0,1) lies outside the band
        QCOMPARE(a.matrix[3 * 3 + 2], 2.0);
    }

    void absoluteCostAndMultivariate() {
        // Two channels: x = [(0,0),(1,1)], y = [(0,0),(3,1)].
        // sq: c(0,0)=0, c(0,1)=9+1=10, c(1,0)=2, c(1,1)=4+0=4 -> D11 = 4+min(10,2,0) = 4.
        // abs (sum of |.| over channels): c(0,1)=4, c(1,0)=2, c(1,1)=2 -> D11 = 2+0 = 2.
        const Series x = s({0, 0, 1, 1}, 2), y = s({0, 0, 3, 1}, 2);
        QCOMPARE(x.length, std::size_t(2));
        Params p = metric(Metric::Dtw);
        QCOMPARE(Engine::distance(x, y, p), 4.0);
        p.cost = Cost::Absolute;
        QCOMPARE(Engine::distance(x, y, p), 2.0);
        // Euclidean over the same samples: 0 + 4 (sq).
        QCOMPARE(Engine::distance(x, y, metric(Metric::Euclidean)), 4.0);
    }

    void sdtwTopK() {
        // query [1,2,3] in [5,1,2,3,9,1,2,4,0]:
        // 1st: exact copy at columns 1..3, cost 0, end 3; exclude 3-1 .. 3+1.
        // 2nd: [1,2] at 5,6 then 3 vs 2 again at column 6: 0+0+1 = 1, end 6 (column 7, 3 vs 4,
        //      also costs 1: the smaller end wins); backtracking from (2,6): up (1,6)=0, then diag
        //      (0,5) -> start 5. Exclude 5..7.
        // 3rd: left are columns 0, 1, 8: D(2,0)=4+9+16=29, D(2,1)=4+min(D(1,1)=1, D(2,0), D(1,0)=25)=5,
        //      D(2,8)=9+min(D(1,8)=5, D(2,7)=1, D(1,7)=4)=10 -> cost 5, end 1, start 1.
        Params p = metric(Metric::Sdtw);
        p.topk = 3;
        auto m = Engine::search(s({1, 2, 3}), s({5, 1, 2, 3, 9, 1, 2, 4, 0}), p, {});
        QCOMPARE(m.size(), std::size_t(3));
        QCOMPARE(m[0].cost, 0.0); QCOMPARE(m[0].start, std::size_t(1)); QCOMPARE(m[0].end, std::size_t(3));
        QCOMPARE(m[1].cost, 1.0); QCOMPARE(m[1].start, std::size_t(5)); QCOMPARE(m[1].end, std::size_t(6));
        QCOMPARE(m[2].cost, 5.0); QCOMPARE(m[2].start, std::size_t(1)); QCOMPARE(m[2].end, std::size_t(1));
        // The exclusion zones leave nothing after enough matches: fewer than k come back.
        p.topk = 10;
        QVERIFY(Engine::search(s({1, 2, 3}), s({5, 1, 2, 3, 9, 1, 2, 4, 0}), p, {}).size() < 10);
        // align() gives the same best match with its path from row 0 to row n-1.
        Alignment a = Engine::align(s({1, 2, 3}), s({5, 1, 2, 3, 9, 1, 2, 4, 0}), metric(Metric::Sdtw), false);
        QCOMPARE(a.distance, 0.0);
        QCOMPARE(a.path.front(), (std::pair<std::size_t, std::size_t>{0, 1}));
        QCOMPARE(a.path.back(), (std::pair<std::size_t, std::size_t>{2, 3}));
    }

    void softDtwValueAndGradient() {
        // x = [0,1], y = [0,1], gamma = 1. R(0,0) = 0 + softmin(0, inf, inf) = 0;
        // R(0,1) = 1 + softmin(inf, inf, 0) = 1; R(1,0) = 1;
        // R(1,1) = 0 + softmin(0, 1, 1) = -log(1 + 2/e).
        Params p = metric(Metric::SoftDtw);
        p.gamma = 1.0;
        const Series x = s({0, 1}), y = s({0, 1});
        const double v = -std::log(1.0 + 2.0 * std::exp(-1.0));
        QVERIFY(near(Engine::distance(x, y, p), v));
        // E: the probability of passing a cell. (0,1) and (1,0) are each taken with
        // q = e^-1 / (1 + 2 e^-1); (0,0) and (1,1) always. dR/dx0 = sum_j E(0,j) 2 (x0 - y_j)
        // = q * 2 (0 - 1) = -2q; dR/dx1 = E(1,0) 2 (1 - 0) = 2q.
        const double q = std::exp(-1.0) / (1.0 + 2.0 * std::exp(-1.0));
        auto g = reference::softDtwGradient(x, y, false, 1.0);
        QCOMPARE(g.size(), std::size_t(2));
        QVERIFY(near(g[0], -2 * q, 1e-12));
        QVERIFY(near(g[1], 2 * q, 1e-12));
    }

    void twedByHand() {
        // x = [1,5,2], y = [1,2], nu = 0.5, lambda = 0.25, timestamps = index. Padded:
        // X = [0,1,5,2], TA = [0,0,1,2]; Y = [0,1,2], TB = [0,0,1].
        // DP(1,1) = match 0 + |1-1| + |0-0| + 0 = 0
        // DP(1,2) = delY DP(1,1) + |2-1| + 0.5*1 + 0.25 = 1.75
        // DP(2,1) = delX DP(1,1) + |5-1| + 0.5 + 0.25 = 4.75
        // DP(2,2) = min(delX 1.75+4.75, delY 4.75+1.75, match 0 + |5-2| + |1-1| + 0.5*(0+0)) = 3
        // DP(3,1) = delX 4.75 + |2-5| + 0.5 + 0.25 = 8.5
        // DP(3,2) = min(delX 3 + 3.75 = 6.75, delY 8.5 + 1.75, match 4.75 + 0 + 4 + 0.5*(1+1) = 9.75) = 6.75
        Params p = metric(Metric::Twed);
        p.nu = 0.5;
        p.lambda = 0.25;
        QVERIFY(near(Engine::distance(s({1, 5, 2}), s({1, 2}), p), 6.75));
        // Its edit path: DP(3,2) came from deleting x's last sample (DP(2,2), down), which was a
        // match of 5 with 2 after the match of 1 with 1: real cells (0,0), (1,1), (2,1).
        using P = std::pair<std::size_t, std::size_t>;
        Alignment a = Engine::align(s({1, 5, 2}), s({1, 2}), p, true);
        QCOMPARE(a.path, (std::vector<P>{P{0, 0}, P{1, 1}, P{2, 1}}));
        QCOMPARE(a.matrix.size(), std::size_t(6));
        QVERIFY(near(a.matrix[2 * 2 + 0], 8.5));  // DP(3,1)
        // With rate 2 Hz every time step is 0.5 s, so each nu term halves (0.25 per step):
        // DP(1,2)=1.5, DP(2,1)=4.5, DP(2,2)=3, DP(3,1)=8, DP(3,2)=min(3+3.5, 9.5, 4.5+4+0.5*(0.5+0.5)) = 6.5.
        p.rate = 2.0;
        QVERIFY(near(Engine::distance(s({1, 5, 2}), s({1, 2}), p), 6.5));
    }

    void twedMultivariateDegree() {
        // One sample each, two channels: x = [(3,4)], y = [(0,0)], nu = 0, lambda = 0.
        // DP(1,1) = match |x0 - y0|_p + |0 - 0|_p = |(3,4)|_p: p=2 -> 5, p=1 -> 7.
        Params p = metric(Metric::Twed);
        p.nu = 0;
        p.lambda = 0;
        QVERIFY(near(Engine::distance(s({3, 4}, 2), s({0, 0}, 2), p), 5.0));
        p.degree = 1;
        QVERIFY(near(Engine::distance(s({3, 4}, 2), s({0, 0}, 2), p), 7.0));
    }

    void znorm() {
        // [1,2,3]: mean 2, population std sqrt(2/3) -> [-1.2247, 0, 1.2247].
        Series z = znormalized(s({1, 2, 3}));
        const double k = 1.0 / std::sqrt(2.0 / 3.0);
        QVERIFY(near(z.values[0], -k, 1e-6) && z.values[1] == 0.0f && near(z.values[2], k, 1e-6));
        // A constant series becomes zeros, never NaN.
        Series c = znormalized(s({5, 5, 5, 5}));
        for (float v : c.values) QCOMPARE(v, 0.0f);
        // Per channel: the second channel is constant, the first is not.
        Series m = znormalized(s({1, 7, 3, 7}, 2));
        QVERIFY(near(m.values[0], -1.0, 1e-6) && near(m.values[2], 1.0, 1e-6));
        QCOMPARE(m.values[1], 0.0f);
        // znorm makes DTW blind to offset and scale: x against 2x + 1.
        Params p = metric(Metric::Dtw);
        p.znorm = true;
        QVERIFY(Engine::distance(s({1, 4, 2, 8, 5}), s({3, 9, 5, 17, 11}), p) < 1e-10);
    }
};

QTEST_GUILESS_MAIN(TestReferenceMetrics)
#include "test_reference_metrics.moc"
