// Properties that follow from METRICS.md, checked with the reference on random series:
// dtw <= cdtw(w) <= euclidean; a band as wide as the series is dtw; soft-DTW tends to DTW as
// gamma -> 0; TWED is symmetric and obeys the triangle inequality; the soft-DTW gradient
// matches finite differences.
#include <QtTest/QtTest>

#include <cmath>
#include <random>

#include "compute/cpu/reference.h"
#include "compute/engine/engine.h"
#include "compute_test_util.h"

using namespace warplab::compute;
using testutil::randomWalk;

class TestMetricProperties : public QObject {
    Q_OBJECT
private slots:
    void bandOrdering() {
        std::mt19937 rng(11);
        for (int trial = 0; trial < 20; ++trial) {
            const std::size_t n = 20 + trial * 3;
            Series x = randomWalk(n, rng), y = randomWalk(n, rng);
            for (bool absCost : {false, true}) {
                const double dtw = reference::dtw(x, y, absCost, -1);
                const double euc = reference::euclidean(x, y, absCost);
                QVERIFY(std::fabs(reference::dtw(x, y, absCost, 0) - euc) <= 1e-9 * euc);  // w = 0 is euclidean
                double prev = euc;
                for (long w : {1L, 2L, 5L, 16L}) {
                    const double c = reference::dtw(x, y, absCost, w);
                    QVERIFY2(dtw <= c + 1e-9 && c <= prev + 1e-9, qPrintable(QString("w=%1").arg(w)));
                    prev = c;  // a wider band can only lower the cost
                }
                QCOMPARE(reference::dtw(x, y, absCost, long(n)), dtw);
                QCOMPARE(reference::dtw(x, y, absCost, long(n) - 1), dtw);
            }
        }
    }

    void bandWideAsSeriesIsDtwForUnequalLengths() {
        std::mt19937 rng(12);
        Series x = randomWalk(37, rng), y = randomWalk(53, rng);
        const double dtw = reference::dtw(x, y, false, -1);
        QCOMPARE(reference::dtw(x, y, false, 37), dtw);
        QCOMPARE(reference::dtw(y, x, false, 53), dtw);
        QVERIFY(reference::dtw(x, y, false, 0) >= dtw);
    }

    void softDtwTendsToDtw() {
        // softmin_gamma(a,b,c) lies in [min - gamma log 3, min], so over the n+m-1 steps of a
        // path |softdtw - dtw| <= gamma log(3) (n+m-1).
        std::mt19937 rng(13);
        Series x = randomWalk(30, rng), y = randomWalk(25, rng);
        const double dtw = reference::dtw(x, y, false, -1);
        for (double gamma : {1.0, 0.1, 0.01, 0.001}) {
            const double sd = reference::softDtw(x, y, false, gamma);
            QVERIFY(sd <= dtw + 1e-9);
            QVERIFY2(dtw - sd <= gamma * std::log(3.0) * (30 + 25 - 1) + 1e-9, qPrintable(QString::number(gamma)));
        }
        QVERIFY(std::fabs(reference::softDtw(x, y, false, 1e-4) - dtw) < 1e-2);
    }

    // The banded soft-DTW of the cuTimeWarp banded design (cells outside the cdtw band +inf):
    // a band as wide as the series is soft-DTW, band 0 on equal lengths is the diagonal's cost
    // sum, a narrower band can only raise the value here (fewer paths), and as gamma -> 0 it
    // tends to cdtw of the same band, for unequal lengths too (METRICS.md's widened band).
    void bandedSoftDtw() {
        std::mt19937 rng(15);
        Series x = randomWalk(40, rng), y = randomWalk(40, rng), z = randomWalk(57, rng);
        const double full = reference::softDtw(x, y, false, 0.5);
        QCOMPARE(reference::softDtw(x, y, false, 0.5, 40), full);
        QCOMPARE(reference::softDtw(x, y, false, 0.5, 39), full);
        QVERIFY(std::fabs(reference::softDtw(x, y, false, 0.5, 0) - reference::euclidean(x, y, false)) <=
                1e-12 * reference::euclidean(x, y, false));
        double prev = reference::softDtw(x, y, false, 0.5, 0);
        for (long w : {1L, 3L, 10L}) {
            const double b = reference::softDtw(x, y, false, 0.5, w);
            QVERIFY2(b <= prev + 1e-9 && b >= full - 1e-9, qPrintable(QString("w=%1").arg(w)));
            prev = b;
        }
        for (long w : {0L, 2L, 8L}) {
            QVERIFY2(std::fabs(reference::softDtw(x, z, false, 1e-5, w) - reference::dtw(x, z, false, w)) < 1e-2,
                     qPrintable(QString("w=%1").arg(w)));
            QVERIFY(std::isfinite(reference::softDtw(z, x, true, 0.1, w)));
        }
        QCOMPARE(reference::softDtw(x, z, false, 0.5, 57), reference::softDtw(x, z, false, 0.5));
    }

    void softDtwMatrixMatchesValue() {
        std::mt19937 rng(14);
        Series x = randomWalk(12, rng), y = randomWalk(9, rng);
        auto R = reference::softDtwMatrix(x, y, false, 0.5);
        QVERIFY(std::fabs(R.back() - reference::softDtw(x, y, false, 0.5)) < 1e-12);
    }

    void sdtwStartsMatchBacktracking() {
        // sdtwTopK carries each cell's start column forwards; backtracking the full matrix from
        // the same end must reach the same start, and the best cost must be the row minimum.
        std::mt19937 rng(17);
        for (int trial = 0; trial < 20; ++trial) {
            Series q = randomWalk(5 + trial % 7, rng), ref = randomWalk(80, rng);
            for (auto& v : q.values) v = float(std::round(v));  // ties between paths happen
            for (auto& v : ref.values) v = float(std::round(v));
            auto matches = reference::sdtwTopK(q, ref, false, 4);
            auto D = reference::sdtwMatrix(q, ref, false);
            const std::size_t n = q.length, m = ref.length;
            QVERIFY(!matches.empty());
            double best = D[(n - 1) * m];
            for (std::size_t j = 0; j < m; ++j) best = std::min(best, D[(n - 1) * m + j]);
            QCOMPARE(matches[0].cost, best);
            for (const Match& mt : matches) {
                QCOMPARE(mt.cost, D[(n - 1) * m + mt.end]);
                auto path = reference::sdtwBacktrack(D, n, m, mt.end);
                QCOMPARE(path.front().first, std::size_t(0));
                QCOMPARE(path.front().second, mt.start);
            }
        }
    }

    void twedSymmetricAndTriangle() {
        std::mt19937 rng(15);
        for (int trial = 0; trial < 30; ++trial) {
            Series a = randomWalk(10 + trial % 7, rng), b = randomWalk(12 + trial % 5, rng),
                   c = randomWalk(8 + trial % 9, rng);
            for (double nu : {0.0, 0.001, 1.0})
                for (double lambda : {0.0, 1.0}) {
                    auto d = [&](const Series& u, const Series& v) { return reference::twed(u, v, nu, lambda, 2.0, 0.0); };
                    const double ab = d(a, b), ba = d(b, a), bc = d(b, c), ac = d(a, c);
                    QVERIFY(std::fabs(ab - ba) <= 1e-9 * ab);
                    QVERIFY2(ac <= ab + bc + 1e-9, qPrintable(QString("trial %1 nu %2 lambda %3").arg(trial).arg(nu).arg(lambda)));
                    QCOMPARE(d(a, a), 0.0);
                }
        }
    }

    void engineSoftDtwGradient() {
        std::mt19937 rng(18);
        Series x = randomWalk(11, rng), y = randomWalk(8, rng);
        Params p;
        p.gamma = 0.3;
        QCOMPARE(Engine::softDtwGradient(x, y, p), reference::softDtwGradient(x, y, false, 0.3));
        p.znorm = true;
        QVERIFY_THROWS_EXCEPTION(EngineError, Engine::softDtwGradient(x, y, p));
        p.znorm = false;
        p.gamma = 0;
        QVERIFY_THROWS_EXCEPTION(EngineError, Engine::softDtwGradient(x, y, p));
    }

    void softDtwGradientFiniteDifferences() {
        std::mt19937 rng(16);
        for (bool absCost : {false, true}) {
            Series x = randomWalk(9, rng, 2), y = randomWalk(7, rng, 2);
            const double gamma = 0.7;
            auto g = reference::softDtwGradient(x, y, absCost, gamma);
            QCOMPARE(g.size(), x.values.size());
            for (std::size_t k = 0; k < x.values.size(); ++k) {
                // Central difference with the step actually representable in float.
                Series xp = x, xm = x;
                xp.values[k] = x.values[k] + 1e-3f;
                xm.values[k] = x.values[k] - 1e-3f;
                const double h = double(xp.values[k]) - double(xm.values[k]);
                const double fd = (reference::softDtw(xp, y, absCost, gamma) - reference::softDtw(xm, y, absCost, gamma)) / h;
                QVERIFY2(std::fabs(fd - g[k]) <= 1e-4 * std::max(1.0, std::fabs(fd)),
                         qPrintable(QString("k=%1 fd=%2 grad=%3 abs=%4").arg(k).arg(fd).arg(g[k]).arg(absCost)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestMetricProperties)
#include "test_metric_properties.moc"
