// Engine::align is a job like the others: the reference recurrences report every
// row, the engine turns that into cancellation (EngineError Cancelled, within one row) and
// throttled progress, and results are unchanged by the watching.
#include <QTest>

#include <atomic>
#include <limits>
#include <thread>
#include <vector>

#include "compute/core/error.h"
#include "compute/cpu/reference.h"
#include "compute/engine/engine.h"
#include "compute_test_util.h"

using namespace warplab::compute;

namespace {
Params metric(Metric m) {
    Params p;
    p.metric = m;
    p.band = 8;
    p.gamma = 0.5;
    p.nu = 0.01;
    p.lambda = 0.1;
    return p;
}
}  // namespace

class TestAlignCancel : public QObject {
    Q_OBJECT
private slots:
    // Every full-matrix recurrence calls the hook once per row, in order, and a throw from the
    // hook stops it there (no further rows).
    void referenceRowsAreWatched_data() {
        QTest::addColumn<int>("m");
        for (Metric m : {Metric::Dtw, Metric::Cdtw, Metric::Sdtw, Metric::SoftDtw, Metric::Twed})
            QTest::newRow(metricName(m).data()) << int(m);
    }
    void referenceRowsAreWatched() {
        QFETCH(int, m);
        std::mt19937 rng(5);
        const Series x = testutil::randomWalk(50, rng), y = testutil::randomWalk(40, rng);
        const Params p = metric(Metric(m));
        std::vector<std::size_t> seen;
        Alignment whole = reference::align(x, y, p, true, [&](std::size_t done, std::size_t rows) {
            QCOMPARE(rows, std::size_t(50));
            seen.push_back(done);
        });
        QCOMPARE(seen.size(), std::size_t(50));
        for (std::size_t i = 0; i < seen.size(); ++i) QCOMPARE(seen[i], i + 1);
        // Watching changes nothing in the result.
        const Alignment plain = reference::align(x, y, p, true);
        QCOMPARE(whole.distance, plain.distance);
        QVERIFY(whole.path == plain.path);
        QVERIFY(whole.matrix == plain.matrix);

        std::size_t calls = 0;
        bool threw = false;
        try {
            reference::align(x, y, p, false, [&](std::size_t done, std::size_t) {
                ++calls;
                if (done == 10) throw EngineError(EngineError::Kind::Cancelled, "", "stop");
            });
        } catch (const EngineError& e) {
            threw = e.kind() == EngineError::Kind::Cancelled;
        }
        QVERIFY(threw);
        QCOMPARE(calls, std::size_t(10));
    }

    // A token cancelled before the call: Cancelled before any work.
    void cancelledBeforeStart() {
        std::mt19937 rng(6);
        const Series x = testutil::randomWalk(64, rng), y = testutil::randomWalk(64, rng);
        CancelToken token;
        token.cancel();
        RunOptions o;
        o.cancel = &token;
        bool progressed = false;
        o.progress = [&](double) { progressed = true; };
        try {
            Engine::align(x, y, Params{}, true, o);
            QFAIL("no exception");
        } catch (const EngineError& e) {
            QCOMPARE(int(e.kind()), int(EngineError::Kind::Cancelled));
        }
        QVERIFY(!progressed);
    }

    // A long soft-DTW alignment (3000 x 3000, exp/log per cell: far beyond the 40 ms of the
    // first progress report) cancelled from its progress callback stops at the next row: no
    // result, no report of 1, and the fraction seen was below 1.
    void cancelledWhileRunning() {
        std::mt19937 rng(7);
        const Series x = testutil::randomWalk(3000, rng), y = testutil::randomWalk(3000, rng);
        CancelToken token;
        RunOptions o;
        o.cancel = &token;
        std::vector<double> fractions;
        o.progress = [&](double f) {
            fractions.push_back(f);
            token.cancel();
        };
        try {
            Engine::align(x, y, metric(Metric::SoftDtw), false, o);
            QFAIL("no exception");
        } catch (const EngineError& e) {
            QCOMPARE(int(e.kind()), int(EngineError::Kind::Cancelled));
        }
        QCOMPARE(fractions.size(), std::size_t(1));  // the row after the cancel threw
        QVERIFY(fractions[0] > 0.0 && fractions[0] < 1.0);
    }

    // The same cancel from another thread, as the GUI's Cancel button does it.
    void cancelledFromAnotherThread() {
        std::mt19937 rng(8);
        const Series x = testutil::randomWalk(3000, rng), y = testutil::randomWalk(3000, rng);
        CancelToken token;
        RunOptions o;
        o.cancel = &token;
        std::atomic<bool> started{false};
        o.progress = [&](double) { started = true; };
        std::thread canceller([&] {
            while (!started) std::this_thread::yield();
            token.cancel();
        });
        bool cancelled = false;
        try {
            Engine::align(x, y, metric(Metric::SoftDtw), false, o);
        } catch (const EngineError& e) {
            cancelled = e.kind() == EngineError::Kind::Cancelled;
        }
        started = true;  // release the canceller if the job ended without a report
        canceller.join();
        QVERIFY(cancelled);
    }

    // Without a cancel, progress rises and ends at exactly 1; the result is the reference's.
    void progressReachesOne() {
        std::mt19937 rng(9);
        const Series x = testutil::randomWalk(2000, rng), y = testutil::randomWalk(2000, rng);
        RunOptions o;
        CancelToken token;
        o.cancel = &token;
        std::vector<double> fractions;
        o.progress = [&](double f) { fractions.push_back(f); };
        const Params p = metric(Metric::SoftDtw);
        const Alignment a = Engine::align(x, y, p, false, o);
        QVERIFY(!fractions.empty());
        QCOMPARE(fractions.back(), 1.0);
        for (std::size_t i = 1; i < fractions.size(); ++i) QVERIFY(fractions[i] >= fractions[i - 1]);
        QCOMPARE(a.distance, Engine::align(x, y, p, false).distance);
    }
};

QTEST_GUILESS_MAIN(TestAlignCancel)
#include "test_align_cancel.moc"
