// `dm` without --out streams CSV rows (app/cli/csv_row_stream.h): the output is
// byte-identical to writing the whole matrix (csv_output.h's writeMatrixCsv of
// Engine::distanceMatrix) for every metric, kernel and band size, mirrors kept or recomputed;
// and the reorder buffer never holds more than one band of rows.
#include <QTest>

#include <random>
#include <sstream>
#include <stdexcept>

#include "app/cli/csv_output.h"
#include "app/cli/csv_row_stream.h"
#include "compute/core/error.h"
#include "compute/core/preprocess.h"
#include "compute/engine/engine.h"
#include "compute/registry/registry.h"

using namespace warplab;
using compute::Metric;

namespace {

compute::SeriesSet randomWalks(std::size_t count, std::size_t minLen, std::size_t maxLen, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> step(0.0f, 1.0f);
    std::uniform_int_distribution<std::size_t> len(minLen, maxLen);
    compute::SeriesSet set;
    for (std::size_t s = 0; s < count; ++s) {
        std::vector<float> v(len(rng));
        float x = 0;
        for (auto& e : v) e = (x += step(rng));
        set.emplace_back(std::move(v));
    }
    return set;
}

std::string wholeMatrixCsv(const compute::SeriesSet& q, const compute::SeriesSet* t, const compute::Params& p,
                           const compute::RunOptions& o) {
    std::ostringstream s;
    cli::writeMatrixCsv(s, compute::Engine::distanceMatrix(q, t, p, o));
    return s.str();
}

}  // namespace

class TestCsvRowStream : public QObject {
    Q_OBJECT
private slots:
    void identicalToTheWholeMatrix_data() {
        QTest::addColumn<int>("metric");
        QTest::addColumn<QString>("kernel");
        for (Metric m : {Metric::Euclidean, Metric::Dtw, Metric::Cdtw, Metric::Sdtw, Metric::SoftDtw, Metric::Twed})
            for (const char* k : {"cpu.reference", "cpu.simd"}) {
                compute::Kernel* kernel = compute::KernelRegistry::instance().find(k);
                if (kernel && kernel->supports(m))
                    QTest::addRow("%s/%s", compute::metricName(m).data(), k) << int(m) << QString(k);
            }
    }
    void identicalToTheWholeMatrix() {
        QFETCH(int, metric);
        QFETCH(QString, kernel);
        compute::Params p;
        p.metric = Metric(metric);
        p.band = 5;
        p.gamma = 0.3;
        p.nu = 0.01;
        p.lambda = 0.2;
        p.znorm = true;
        const bool equalLengths = p.metric == Metric::Euclidean;
        const compute::SeriesSet q = randomWalks(37, equalLengths ? 50 : 30, 50, 11);
        const compute::SeriesSet t = randomWalks(23, equalLengths ? 50 : 30, 50, 12);
        compute::RunOptions o;
        o.kernel = kernel.toStdString();
        const std::string allPairs = wholeMatrixCsv(q, nullptr, p, o), block = wholeMatrixCsv(q, &t, p, o);
        QVERIFY(!allPairs.empty());
        // Bands of 1, 5, 16 and 64 rows (one band); all pairs with mirrors kept and recomputed.
        for (std::size_t band : {std::size_t(1), std::size_t(5), std::size_t(16), std::size_t(64)}) {
            for (double memory : {1e12, 0.0}) {
                std::ostringstream s;
                const auto stats = cli::streamMatrixCsv(s, q, nullptr, p, o, memory, band);
                QVERIFY2(s.str() == allPairs, qPrintable(QString("all pairs, band %1, memory %2").arg(band).arg(memory)));
                QVERIFY(stats.peakBufferedRows <= band);
                const bool mirrorsRecomputed = memory == 0 && band < q.size() && compute::isSymmetric(p.metric);
                QCOMPARE(stats.recomputedPairs > 0, mirrorsRecomputed);
            }
            std::ostringstream s;
            const auto stats = cli::streamMatrixCsv(s, q, &t, p, o, 1e12, band);
            QVERIFY2(s.str() == block, qPrintable(QString("queries x targets, band %1").arg(band)));
            QVERIFY(stats.peakBufferedRows <= band);
        }
    }

    // The default band on a tall matrix: rows are written band by band, the buffer holds at
    // most one band (here 16 of 600 rows), and progress ends at 1.
    void boundedOnATallMatrix() {
        const compute::SeriesSet q = randomWalks(600, 16, 16, 3), t = randomWalks(9, 16, 16, 4);
        compute::Params p;
        compute::RunOptions o;
        std::vector<double> fractions;
        o.progress = [&](double f) { fractions.push_back(f); };
        std::ostringstream s;
        const auto stats = cli::streamMatrixCsv(s, q, &t, p, o, 1e12, 16);
        QCOMPARE(stats.peakBufferedRows, std::size_t(16));
        compute::RunOptions plain;
        QVERIFY(s.str() == wholeMatrixCsv(q, &t, p, plain));
        QVERIFY(!fractions.empty());
        QCOMPARE(fractions.back(), 1.0);
        for (std::size_t i = 1; i < fractions.size(); ++i) QVERIFY(fractions[i] >= fractions[i - 1] - 1e-12);
    }

    // The reorder buffer alone: tiles in any order come out as rows in order; a row more than
    // maxBufferedRows ahead is refused (that is the bound); missing rows are reported.
    void writerReordersAndRefusesTooFarAhead() {
        std::ostringstream s;
        cli::CsvRowWriter w(s, 4, 2, 2);
        const double a[] = {2.5, 3}, b[] = {0, 1, 1, 0};
        w.put(compute::Tile{1, 2, 0, 2}, a);  // row 1 before row 0
        QCOMPARE(s.str(), std::string());
        QCOMPARE(w.peakBufferedRows(), std::size_t(1));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, w.put(compute::Tile{2, 3, 0, 2}, a));  // 2 rows ahead of row 0
        w.put(compute::Tile{0, 1, 1, 2}, a);  // half of row 0
        QCOMPARE(s.str(), std::string());
        w.put(compute::Tile{0, 1, 0, 1}, a + 1);
        QCOMPARE(s.str(), std::string("3,2.5\n2.5,3\n"));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, w.finish());
        w.put(compute::Tile{2, 4, 0, 2}, b, true);  // transposed: rows 2 and 3 are (0,1) and (1,0)
        QCOMPARE(s.str(), std::string("3,2.5\n2.5,3\n0,1\n1,0\n"));
        w.finish();
        QCOMPARE(w.rowsWritten(), std::size_t(4));
        QCOMPARE(w.peakBufferedRows(), std::size_t(2));
    }

    // Bad input is refused before the first row, with the engine's field names for the whole set.
    void badInputBeforeAnyOutput() {
        compute::SeriesSet q = randomWalks(40, 20, 20, 5);
        q[33].values[3] = std::numeric_limits<float>::quiet_NaN();
        std::ostringstream s;
        try {
            cli::streamMatrixCsv(s, q, nullptr, compute::Params{}, compute::RunOptions{}, 1e12, 4);
            QFAIL("no error");
        } catch (const compute::EngineError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QString("queries[33]"));
        }
        QVERIFY(s.str().empty());
    }
};

QTEST_GUILESS_MAIN(TestCsvRowStream)
#include "test_csv_row_stream.moc"
