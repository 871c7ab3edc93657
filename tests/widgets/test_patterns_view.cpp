// The patterns view on a real run: pattern discovery on the bundled CHB-MIT sample (the one
// call the GUI's "Find patterns" makes), shown in the view; the table, the excerpt, the
// histogram, click-to-jump on the nearest epochs and both exports are checked against the
// ranking itself.
#include <QtTest/QtTest>

#include <qcustomplot.h>

// First: it includes io/recording.h with Qt's `signals` macro hidden (see that header).
#include "widgets/recording_access.h"

#include "compute/patterns/pattern_discovery.h"
#include "io/matrix_io.h"
#include "io/pattern_input.h"
#include "widgets/patterns_view.h"
#include "widgets/value_units.h"

using namespace warplab;

class TestPatternsView : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<io::Recording> rec_;
    std::shared_ptr<compute::PatternRanking> ranking_;
    int signal_ = -1;

private slots:
    void initTestCase() {
        rec_ = io::Recording::open(std::string(WARPLAB_SOURCE_DIR) + "/resources/sample/chb01_03_sample.edf");
        compute::PatternRequest r = io::defaultPatternRequest(*rec_);
        QCOMPARE(QString::fromStdString(r.channel), QString("FP1-F7"));
        QCOMPARE(r.seizures.size(), std::size_t(1));
        QVERIFY(!r.keepMatrix && r.keepMatrixUpToBytes > 0);  // small: kept without asking
        signal_ = rec_->findSignal("FP1-F7");
        r.epoch = 256;  // small, for speed
        r.stride = 128;
        compute::RunOptions o;
        o.backend = compute::Backend::Cpu;
        ranking_ = std::make_shared<compute::PatternRanking>(compute::findPatterns(r, o));
    }

    void tableListsTheRanking() {
        widgets::PatternsView view;
        view.setRanking(ranking_, [&](long long s, long long n) { return rec_->read(signal_, s, n); });
        QCOMPARE(view.table()->rowCount(), int(ranking_->ranked.size()));
        for (int k = 0; k < view.table()->rowCount(); ++k) {
            QCOMPARE(view.table()->item(k, 2)->text().toULongLong(), qulonglong(ranking_->ranked[std::size_t(k)].index));
            QCOMPARE(view.table()->item(k, 3)->data(Qt::UserRole).toDouble(), ranking_->ranked[std::size_t(k)].startS);
        }
        QCOMPARE(view.selectedRank(), 0);  // the best pattern is shown first
    }

    void selectedPatternIsDrawnOverItsPlace() {
        widgets::PatternsView view;
        QSignalSpy placed(&view, &widgets::PatternsView::patternSelected);
        view.setRanking(ranking_, [&](long long s, long long n) { return rec_->read(signal_, s, n); });
        view.selectRank(3);
        const auto& p = ranking_->ranked[3];
        QVERIFY(!placed.isEmpty());
        QCOMPARE(placed.last().at(0).toDouble(), p.startS);
        QCOMPARE(placed.last().at(1).toDouble(), 1.0);  // e = 256 samples at 256 Hz
        // Graph 1 is the pattern: e samples, starting at its start, equal to the recording there.
        QCPGraph* pattern = view.signalPlot()->graph(1);
        QCOMPARE(pattern->data()->size(), 256);
        QCOMPARE(pattern->data()->begin()->key, p.startS);
        const auto x = rec_->read(signal_, p.recordingSample, 256);
        QCOMPARE(float(pattern->data()->begin()->value), x.front());
        QCOMPARE(float((pattern->data()->end() - 1)->value), x.back());
        QVERIFY(view.signalPlot()->xAxis->label().contains("s"));
        QVERIFY(view.signalPlot()->yAxis->label().contains(QString::fromUtf8("\u00b5V")));  // as shown everywhere, never "uV"
    }

    void recordingOverloadFetchesAndLabels() {
        widgets::PatternsView view;
        std::shared_ptr<const io::Recording> shared(io::Recording::open(std::string(WARPLAB_SOURCE_DIR) +
                                                                        "/resources/sample/chb01_03_sample.edf"));
        view.setRanking(ranking_, shared, signal_);
        QCOMPARE(view.signalPlot()->graph(1)->data()->size(), 256);
        const auto& unit = widgets::signalList(*shared)[std::size_t(signal_)].unit;
        QVERIFY(view.signalPlot()->yAxis->label().contains(widgets::displayUnit(QString::fromStdString(unit))));
    }

    void histogramCountsEveryEpoch() {
        widgets::PatternsView view;
        view.setRanking(ranking_, {});
        const auto& p = ranking_->ranked[0];
        QCOMPARE(view.histogramPlot()->plottableCount(), 2);
        double total = 0;
        for (int b = 0; b < 2; ++b) {
            auto* bars = qobject_cast<QCPBars*>(view.histogramPlot()->plottable(b));
            QVERIFY(bars);
            for (auto it = bars->data()->begin(); it != bars->data()->end(); ++it) total += it->value;
        }
        QCOMPARE(total, double(ranking_->epochCount));
        QCOMPARE(p.histogram.ictal.size(), p.histogram.interictal.size());
        QVERIFY(view.histogramPlot()->xAxis->label().contains("distance"));
        QVERIFY(view.histogramPlot()->yAxis->label().contains("epochs"));
    }

    void nearestEpochJumps() {
        widgets::PatternsView view;
        QSignalSpy jumped(&view, &widgets::PatternsView::epochActivated);
        view.setRanking(ranking_, {});
        const auto& p = ranking_->ranked[0];
        QCOMPARE(view.nearestList()->count(), int(p.nearest.size()));
        emit view.nearestList()->itemActivated(view.nearestList()->item(2));
        QCOMPARE(jumped.count(), 1);
        QCOMPARE(jumped.first().at(0).toDouble(), p.nearest[2].startS);
        QCOMPARE(p.nearest[2].startS, double(p.nearest[2].epoch) * 128 / 256.0);
    }

    void exportsRankingAndMatrix() {
        widgets::PatternsView view;
        view.setRanking(ranking_, {});
        QTemporaryDir dir;
        const QString csv = dir.filePath("ranking.csv");
        QCOMPARE(view.exportRankingCsv(csv), QString());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), int(ranking_->ranked.size()) + 1);
        QCOMPARE(lines[0], QString("rank,quality,pattern_index,start_seconds"));
        const QStringList first = lines[1].split(',');
        QCOMPARE(first[1].toDouble(), ranking_->ranked[0].quality);
        QCOMPARE(first[2].toULongLong(), qulonglong(ranking_->ranked[0].index));

        const QString npy = dir.filePath("matrix.npy");
        QCOMPARE(view.exportMatrix(npy), QString());
        const auto back = io::readMatrix(npy.toStdString());
        QCOMPARE(back.rows, ranking_->patternCount);
        QCOMPARE(back.cols, ranking_->epochCount);
        QVERIFY(back.values == ranking_->matrix.values);
    }

    void withoutMatrixExportSaysWhy() {
        auto copy = std::make_shared<compute::PatternRanking>(*ranking_);
        copy->matrix = {};
        widgets::PatternsView view;
        view.setRanking(copy, {});
        QTemporaryDir dir;
        QVERIFY(view.exportMatrix(dir.filePath("m.npy")).contains("--dm-out"));
    }
};

QTEST_MAIN(TestPatternsView)
#include "test_patterns_view.moc"
