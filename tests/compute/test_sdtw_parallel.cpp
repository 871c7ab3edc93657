// Subsequence DTW on all cores (compute/cpu/sdtw_parallel.h, the CPU path of Engine::search):
// the reference swept as parallel stretches and chained must give the one-core sweep's
// (reference::sdtwTopK) matches bit for bit — random walks, a query repeated across stretch
// boundaries, the bundled EEG, both costs, excluded ends, 1 to 8 threads, k up to 50, a
// stretch that does not start at 0 (what an MPI rank sweeps); and cancel stops it.
#include "io/recording.h"

namespace {
// Before QtTest: Qt's `signals` macro would eat Recording::signals().
std::vector<float> eegChannel(int sig, long long maxLen) {
    auto rec = warplab::io::Recording::open(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf");
    return rec->read(sig, 0, std::min<long long>(rec->signals()[std::size_t(sig)].samples, maxLen));
}
}  // namespace

#include <QtTest>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <random>

#include "compute/core/preprocess.h"
#include "compute/cpu/reference.h"
#include "compute/cpu/sdtw_parallel.h"
#include "compute/engine/engine.h"

using namespace warplab::compute;
namespace ref = warplab::compute::reference;

namespace {

Series walk(std::mt19937& rng, std::size_t n) {
    std::normal_distribution<float> step(0.f, 1.f);
    std::vector<float> v(n);
    float x = 0;
    for (float& s : v) s = x += step(rng);
    return Series(std::move(v));
}

bool sameMatches(const std::vector<Match>& a, const std::vector<Match>& b, QString* why) {
    if (a.size() != b.size()) {
        *why = QString("%1 matches, want %2").arg(a.size()).arg(b.size());
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::memcmp(&a[i].cost, &b[i].cost, sizeof(double)) != 0 || a[i].start != b[i].start || a[i].end != b[i].end) {
            *why = QString("match %1: %2 %3..%4, want %5 %6..%7")
                       .arg(i).arg(a[i].cost, 0, 'g', 17).arg(a[i].start).arg(a[i].end)
                       .arg(b[i].cost, 0, 'g', 17).arg(b[i].start).arg(b[i].end);
            return false;
        }
    return true;
}

void check(const Series& x, const Series& y, bool absCost, int k,
           const std::vector<std::pair<std::size_t, std::size_t>>& excluded = {}) {
    const auto want = ref::sdtwTopK(x, y, absCost, k, excluded);
    for (int threads : {1, 2, 3, 8}) {
        QString why;
        QVERIFY2(sameMatches(ref::sdtwTopKParallel(x, y, absCost, k, excluded, threads), want, &why),
                 qPrintable(QString("n %1 m %2 k %3 abs %4 threads %5: ").arg(x.length).arg(y.length).arg(k).arg(absCost)
                                .arg(threads) + why));
    }
}

}  // namespace

class TestSdtwParallel : public QObject {
    Q_OBJECT
private slots:
    void randomWalks() {
        std::mt19937 rng(3);
        for (std::size_t n : {1, 2, 16, 100}) {
            for (std::size_t m : {n, n * 40, std::size_t(20000)}) {
                const Series x = znormalized(walk(rng, n)), y = znormalized(walk(rng, m));
                for (bool absCost : {false, true})
                    for (int k : {1, 7, 50}) check(x, y, absCost, k);
            }
        }
    }

    // Matches that straddle the stretch boundaries: the chaining must carry whole paths.
    void repeatedQuery() {
        std::mt19937 rng(11);
        const Series q = znormalized(walk(rng, 64));
        std::vector<float> v;
        for (int rep = 0; rep < 40; ++rep) {
            const Series noise = znormalized(walk(rng, 97 + rep));
            v.insert(v.end(), noise.values.begin(), noise.values.end());
            v.insert(v.end(), q.values.begin(), q.values.end());
        }
        const Series y(std::move(v));
        check(q, y, false, 20);
        check(q, y, false, 20, {{1000, 1300}, {4000, 4001}});
    }

    void bundledEeg() {
        for (int sig : {0, 7}) {
            const Series y(eegChannel(sig, 60000));
            const Series q(std::vector<float>(y.values.begin() + 20000, y.values.begin() + 20256));
            check(q, y, false, 10);
            check(q, y, false, 10, {{20255 - 128, 20255 + 128}});  // self-exclusion of its own end
            check(znormalized(q), znormalized(y), true, 5);
        }
    }

    // A stretch [a, b) that does not start at 0 (an MPI rank's): the same last row and end
    // column as the one-core sweep of that stretch.
    void midStretch() {
        std::mt19937 rng(5);
        const Series x = walk(rng, 30), y = walk(rng, 9000);
        const auto one = ref::sdtwStretch(x, y, false, 1234, 8765);
        for (int threads : {2, 5})
            for (bool simd : {true, false}) {
            const auto par = ref::sdtwStretchParallel(x, y, false, 1234, 8765, threads, nullptr, 0, simd);
            QCOMPARE(par.begin, one.begin);
            QCOMPARE(par.end, one.end);
            QVERIFY(std::memcmp(par.lastCost.data(), one.lastCost.data(), one.lastCost.size() * sizeof(double)) == 0);
            QVERIFY(par.lastStart == one.lastStart);
            QVERIFY(par.endColumn.start == one.endColumn.start);
            QVERIFY(std::memcmp(par.endColumn.cost.data(), one.endColumn.cost.data(), one.endColumn.cost.size() * sizeof(double)) == 0);
        }
    }

    // The AVX2 lanes against the scalar sweep on both costs, 4 pieces of a real channel:
    // the same last row bit for bit (the lanes run where the CPU has AVX2; elsewhere both are
    // the scalar sweep and this is trivially true).
    void lanesEqualScalar() {
        const Series y(eegChannel(3, 60000));  // 20,992 samples
        const Series q(std::vector<float>(y.values.begin() + 10000, y.values.begin() + 10100));
        for (bool absCost : {false, true}) {
            const auto one = ref::sdtwStretch(q, y, absCost, 0, y.length);
            const auto par = ref::sdtwStretchParallel(q, y, absCost, 0, y.length, 1, nullptr, 0, true);
            QVERIFY(std::memcmp(par.lastCost.data(), one.lastCost.data(), one.lastCost.size() * sizeof(double)) == 0);
            QVERIFY(par.lastStart == one.lastStart);
        }
    }

    // Pieces shorter than the query: the corrections cannot agree inside a piece, so the
    // pieces after it must be redone in order from the exact column (the slow path).
    void piecesShorterThanTheQuery() {
        std::mt19937 rng(21);
        const Series x = walk(rng, 200), y = walk(rng, 3000);
        const auto one = ref::sdtwStretch(x, y, false, 0, 3000);
        for (std::size_t piece : {7, 50, 150, 199})
            for (bool simd : {true, false}) {
            const auto par = ref::sdtwStretchParallel(x, y, false, 0, 3000, 8, nullptr, piece, simd);
            QVERIFY2(std::memcmp(par.lastCost.data(), one.lastCost.data(), one.lastCost.size() * sizeof(double)) == 0,
                     qPrintable(QString("pieces of %1").arg(piece)));
            QVERIFY(par.lastStart == one.lastStart);
            QVERIFY(par.endColumn.cost == one.endColumn.cost && par.endColumn.start == one.endColumn.start);
        }
    }

    // Engine::search's CPU path is the parallel one; cpu.reference the one-core sweep.
    void engineDefaultEqualsReference() {
        std::mt19937 rng(8);
        const Series q = walk(rng, 128), y = walk(rng, 50000);
        Params p;
        p.metric = Metric::Sdtw;
        p.topk = 10;
        p.znorm = true;
        RunOptions cpu, reference;
        cpu.backend = reference.backend = Backend::Cpu;
        reference.kernel = "cpu.reference";
        QString why;
        QVERIFY2(sameMatches(Engine::search(q, y, p, cpu), Engine::search(q, y, p, reference), &why), qPrintable(why));
        SearchScope self;
        self.excluded = {{100, 400}};
        QVERIFY2(sameMatches(Engine::search(q, y, p, cpu, self), Engine::search(q, y, p, reference, self), &why),
                 qPrintable(why));
    }

    // Progress as the columns are swept, from every worker: non-decreasing per thread is not
    // promised, but the fractions stay in (0, 1], arrive many times before the end, and the
    // columns told add up to the reference exactly (lanes, scalar pieces and one piece), with
    // the same matches as without progress; Engine::search ends at 1.
    void progressAsItGoes() {
        std::mt19937 rng(12);
        const Series x = walk(rng, 64), y = walk(rng, 400000);
        const auto want = ref::sdtwTopK(x, y, false, 3);
        for (int threads : {1, 2})
            for (bool simd : {true, false}) {
                std::mutex mu;
                std::vector<double> seen;
                const ProgressFn tell = [&](double f) { std::lock_guard l(mu); seen.push_back(f); };
                ref::SdtwStretch s = ref::sdtwStretchParallel(x, y, false, 0, y.length, threads, nullptr, 0, simd, tell);
                QVERIFY2(seen.size() >= 10, qPrintable(QString("%1 progress calls").arg(seen.size())));
                double top = 0;
                for (double f : seen) {
                    QVERIFY(f > 0 && f <= 1);
                    top = std::max(top, f);
                }
                QCOMPARE(top, 1.0);  // every column told once: the last call reaches exactly 1
                int below = 0;
                for (double f : seen) below += f < 0.5;
                QVERIFY2(below >= 5, "progress arrives during the sweep, not only at its end");
                const Match best = ref::sdtwStretchBest(s);  // the same sweep as without progress
                QVERIFY(best.cost == want.front().cost && best.start == want.front().start && best.end == want.front().end);
            }
        Params p;
        p.metric = Metric::Sdtw;
        std::vector<double> fractions;
        std::mutex mu;
        RunOptions o;
        o.backend = Backend::Cpu;
        o.progress = [&](double f) { std::lock_guard l(mu); fractions.push_back(f); };
        Engine::search(x, y, p, o);
        QVERIFY(fractions.size() >= 20);
        QCOMPARE(fractions.back(), 1.0);
    }

    void cancel() {
        std::mt19937 rng(2);
        const Series x = walk(rng, 64), y = walk(rng, 200000);
        CancelToken token;
        token.cancel();
        try {
            ref::sdtwTopKParallel(x, y, false, 1, {}, 2, &token);
            QFAIL("a cancelled search went on");
        } catch (const EngineError& e) {
            QCOMPARE(e.kind(), EngineError::Kind::Cancelled);
        }
    }
};

QTEST_GUILESS_MAIN(TestSdtwParallel)
#include "test_sdtw_parallel.moc"
