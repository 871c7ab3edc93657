// The frequency side of the window on the bundled CHB-MIT sample: the Metric panel's band
// (presets, saved bands, refusals by name, applied to what is analysed and to the traces, kept
// in sessions), the spectrum (seizure against the rest equals Welch on the same samples, CSV
// and plot exports name the band), the spectrogram under the traces (same pixels per second
// as the traces, frames computed once while scrolling back and forth, cursor shared) and the
// per-band jobs (each band's result equals the analysis of the series filtered to it).
// Offscreen; with WARPLAB_TEST_SCREENSHOTS=DIR the views are saved there to be looked at.
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include "widgets/recording_access.h"

#include "app/gui/band_jobs.h"
#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/spectra_controller.h"
#include "app/gui/unsaved_guard.h"
#include "compute/engine/engine.h"
#include "compute/patterns/pattern_discovery.h"
#include "compute/spectral/band_filter.h"
#include "compute/spectral/welch.h"
#include "io/session.h"
#include "widgets/band_comparison_view.h"
#include "widgets/distance_matrix_view.h"
#include "widgets/frequency_band_box.h"
#include "widgets/metric_panel.h"
#include "widgets/plot_export.h"
#include "widgets/psd_view.h"
#include "widgets/signal_view.h"
#include "widgets/spectrogram_view.h"

using namespace warplab;
using compute::spectral::FrequencyBand;

namespace {

const QString kSample = QStringLiteral(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf");

void snap(QWidget* w, const QString& name) {
    const QString dir = qEnvironmentVariable("WARPLAB_TEST_SCREENSHOTS");
    if (dir.isEmpty()) return;
    QTest::qWait(150);
    w->grab().save(dir + "/" + name + ".png");
}

FrequencyBand preset(const char* name) { return *compute::spectral::findBand(name); }

}  // namespace

class TestSpectraGui : public QObject {
    Q_OBJECT
    app::MainWindow* w_ = nullptr;

    void choose(const FrequencyBand& b, bool display = false) {
        auto* box = w_->metricPanel()->frequencyBands();
        box->setFilterDisplay(display);
        box->setBand(b);
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("WarpLabTests");
        QCoreApplication::setApplicationName("test_spectra_gui");
        QSettings().clear();
    }

    void init() {
        w_ = new app::MainWindow;
        w_->resize(1280, 800);
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_));
        w_->unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });
        QVERIFY(w_->openFile(kSample));
    }

    void cleanup() {
        w_->jobs()->waitForIdle(120000);
        delete w_;
        w_ = nullptr;
    }

    void bandBoxOffersPresetsAndRefusesByName() {
        widgets::FrequencyBandBox box;
        auto* combo = box.findChild<QComboBox*>("frequencyBand");
        QStringList items;
        for (int i = 0; i < combo->count(); ++i) items << combo->itemText(i);
        for (const char* name : {"delta", "theta", "alpha", "beta", "gamma"})
            QVERIFY2(items.filter(QString::fromLatin1(name)).size() == 1, qPrintable(items.join(" | ")));
        QVERIFY(!box.band());  // all frequencies at first
        // 100 Hz: gamma's 80 Hz edge lies above the 50 Hz Nyquist frequency.
        box.setRecording(100, 100000);
        box.setBand(preset("gamma"));
        QVERIFY(!box.band());
        QVERIFY(box.chosen().has_value());
        const QString why = box.refusal();
        QVERIFY2(why.contains("gamma") && why.contains("100 Hz"), qPrintable(why));
        QVERIFY(box.findChild<QLabel*>("frequencyBandRefusal")->text().contains("gamma"));
        // Too short for the filter: refused, naming the band.
        box.setRecording(256, 10);
        box.setBand(preset("alpha"));
        QVERIFY(!box.band());
        QVERIFY2(box.refusal().contains("alpha"), qPrintable(box.refusal()));
        box.setRecording(256, 100000);
        QVERIFY(box.band().has_value());
        QCOMPARE(box.band()->lowHz, 8.0);
        QVERIFY(box.refusal().isEmpty());
        // A custom range.
        box.setBand(FrequencyBand{"", 2, 20});
        QCOMPARE(combo->currentData().toString(), QString("custom"));
        QCOMPARE(box.band()->highHz, 20.0);
    }

    void userBandsAreKeptInSettings() {
        widgets::FrequencyBandBox::saveUserBands({FrequencyBand{"mu", 8, 12}});
        widgets::FrequencyBandBox box;
        const auto user = widgets::FrequencyBandBox::userBands();
        QCOMPARE(int(user.size()), 1);
        QCOMPARE(QString::fromStdString(user[0].name), QString("mu"));
        auto* combo = box.findChild<QComboBox*>("frequencyBand");
        QVERIFY(combo->findData("user:mu") >= 0);
        box.setBand(FrequencyBand{"mu", 8, 12});
        QCOMPARE(combo->currentData().toString(), QString("user:mu"));
        QCOMPARE(box.band()->highHz, 12.0);
        widgets::FrequencyBandBox::saveUserBands({});
    }

    void analysedSegmentsAreFilteredToTheBand() {
        choose(preset("alpha"));
        QVERIFY(w_->document()->frequencyBand().has_value());
        const compute::Series raw = w_->document()->segment(0, 10, 30, false);
        const compute::Series got = w_->document()->segment(0, 10, 30);
        const std::vector<float> want = compute::spectral::bandFilter(std::span<const float>(raw.values), 256, preset("alpha"));
        QCOMPARE(got.values, want);
        QVERIFY(got.values != raw.values);
        // Shown on the traces only when asked.
        QVERIFY(!w_->signalView()->filterText().contains("alpha"));
        choose(preset("alpha"), true);
        QVERIFY2(w_->signalView()->filterText().contains("alpha"), qPrintable(w_->signalView()->filterText()));
        // Every result names it: the channel matrix's title.
        QVERIFY(w_->analysis());
        w_->actions().action("analysis.matrix")->trigger();
        QVERIFY(w_->jobs()->waitForIdle(60000));
        QTRY_VERIFY(w_->distanceView()->plot()->property(widgets::kExportTitleProperty).toString().contains("alpha (8-13 Hz)"));
    }

    void spectrumOfSeizureAgainstTheRestIsWelchOfThoseSamples() {
        choose(preset("theta"));
        auto* psd = w_->psdView();
        psd->findChild<QComboBox*>("psdSource")->setCurrentIndex(2);  // regions of a kind vs the rest
        QCOMPARE(psd->source(), widgets::PsdView::Source::KindVsRest);
        const int channel = std::max(0, w_->signalView()->currentChannel());
        QVERIFY(w_->spectra()->computeSpectrum() != 0);
        QVERIFY(w_->jobs()->waitForIdle(60000));
        QTRY_COMPARE(int(psd->curves().size()), 2);
        QVERIFY(psd->curves()[0].label.startsWith("seizure"));
        QVERIFY(psd->curves()[1].label.startsWith("rest"));
        // The sample's seizure is 42-82 s; the rest is the two stretches either side.
        const auto rec = w_->document()->recording();
        const auto& info = widgets::signalList(*rec)[std::size_t(channel)];
        const std::vector<float> in = rec->read(channel, 42 * 256, 40 * 256);
        const std::vector<float> before = rec->read(channel, 0, 42 * 256);
        const std::vector<float> after = rec->read(channel, 82 * 256, info.samples - 82 * 256);
        compute::spectral::WelchOptions o;
        o.segmentLength = 512;
        const auto seizure = compute::spectral::welch(std::vector<std::span<const float>>{in}, 256, o);
        const auto rest = compute::spectral::welch(std::vector<std::span<const float>>{before, after}, 256, o);
        QCOMPARE(psd->curves()[0].power, seizure.power);
        QCOMPARE(psd->curves()[1].power, rest.power);
        QCOMPARE(psd->curves()[0].freqs, seizure.frequencyHz);
        QVERIFY(psd->plot()->yAxis->label().contains(QString::fromUtf8("µV²/Hz")));
        QCOMPARE(psd->plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
        // Exports: the CSV's header lines and the plot's title name the band and the unit.
        QTemporaryDir dir;
        const QString csv = dir.filePath("spectrum.csv");
        QCOMPARE(psd->exportCsv(csv), QString());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY2(text.contains("# band theta: 4-8 Hz"), qPrintable(text.left(400)));
        QVERIFY(text.contains(QString::fromUtf8("µV^2/Hz")));
        QVERIFY(text.contains("frequency_hz,"));
        const QStringList rows = text.split('\n', Qt::SkipEmptyParts).filter(QRegularExpression("^[0-9]"));
        QCOMPARE(rows.size(), int(seizure.frequencyHz.size()));
        QCOMPARE(rows[3].split(',')[1].toDouble(), seizure.power[3]);
        for (const char* ext : {"png", "svg"}) {
            const QString path = dir.filePath(QStringLiteral("spectrum.%1").arg(ext));
            QCOMPARE(widgets::exportPlot(psd->plot(), path), QString());
            QVERIFY(QFileInfo(path).size() > 1000);
        }
        QFile svg(dir.filePath("spectrum.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(svg.readAll()).contains("theta (4-8 Hz)"));
        w_->showMaximized();
        snap(w_, "spectrum");
    }

    void spectrogramFollowsTheTracesAndComputesOnce() {
        auto* spec = w_->spectrogramView();
        spec->show();
        QTest::qWait(50);
        auto* signal = w_->signalView();
        signal->setWindow(30, 30);
        QTRY_VERIFY(spec->shown().frames > 0);
        QVERIFY2(spec->message().isEmpty(), qPrintable(spec->message()));
        // Its columns lie under the window, one per frame of the grid.
        QVERIFY(spec->shown().frameCentreS(0) <= 30.5);
        QVERIFY(spec->shown().frameCentreS(spec->shown().frames - 1) >= 59.5);
        QCOMPARE(spec->plot()->xAxis->range().lower, 30.0);
        QCOMPARE(spec->plot()->xAxis->range().upper, 60.0);
        QVERIFY(spec->colorScale()->axis()->label().contains(QString::fromUtf8("µV²/Hz")));
        // A second lies under the same second: the plots' data areas share left and right edges.
        QCustomPlot* traces = signal->plot();
        traces->replot();
        QTest::qWait(50);
        spec->plot()->replot();
        const int tracesLeft = traces->mapToGlobal(traces->axisRect()->rect().topLeft()).x();
        const int specLeft = spec->plot()->mapToGlobal(spec->plot()->axisRect()->rect().topLeft()).x();
        const int tracesRight = traces->mapToGlobal(traces->axisRect()->rect().topRight()).x();
        const int specRight = spec->plot()->mapToGlobal(spec->plot()->axisRect()->rect().topRight()).x();
        QCOMPARE(specLeft, tracesLeft);
        QCOMPARE(specRight, tracesRight);
        // Scrolling back and forth computes each stretch once.
        signal->setWindow(60, 30);
        signal->setWindow(90, 30);
        const std::size_t computed = spec->cache().blocksComputed();
        const double missMs = spec->lastRedrawMs();
        signal->setWindow(60, 30);
        signal->setWindow(30, 30);
        signal->setWindow(90, 30);
        QCOMPARE(spec->cache().blocksComputed(), computed);
        qInfo("spectrogram redraw of a 30 s window: %.2f ms computing new frames, %.2f ms from the cache", missMs,
              spec->lastRedrawMs());
        // The frames on screen export as CSV: one row per frame, its centre and every bin's power.
        {
            QTemporaryDir dir;
            const QString csv = dir.filePath("spectrogram.csv");
            QCOMPARE(spec->exportCsv(csv), QString());
            QFile f(csv);
            QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
            const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
            const auto& shown = spec->shown();
            QCOMPARE(qsizetype(lines.size()), qsizetype(2 + 1 + shown.frames));
            QVERIFY2(lines[1].contains(QString::fromUtf8("µV^2/Hz")), qPrintable(lines[1]));
            const QStringList header = lines[2].split(',');
            QCOMPARE(qsizetype(header.size()), qsizetype(1 + shown.bins));
            QCOMPARE(header[0], QString("time_s"));
            QCOMPARE(header.last(), QString::number(shown.binHz(shown.bins - 1), 'g', 10) + " Hz");
            for (std::size_t fr : {std::size_t(0), shown.frames / 2, shown.frames - 1}) {
                const QStringList row = lines[qsizetype(3 + fr)].split(',');
                QCOMPARE(qsizetype(row.size()), qsizetype(1 + shown.bins));
                QVERIFY(std::abs(row[0].toDouble() - shown.frameCentreS(fr)) < 1e-9);
                for (std::size_t b = 0; b < shown.bins; ++b)
                    QVERIFY(std::abs(row[qsizetype(1 + b)].toDouble() - double(shown.at(fr, b))) <= 1e-7 * std::abs(double(shown.at(fr, b))));
            }
            widgets::SpectrogramView empty;
            QVERIFY(!empty.exportCsv(dir.filePath("none.csv")).isEmpty());
            QVERIFY(!QFile::exists(dir.filePath("none.csv")));
        }
        // The seizure region is outlined; the cursor is shared both ways.
        signal->setWindow(30, 30);
        QSignalSpy moved(signal, &widgets::SignalView::cursorMoved);
        const QPoint at = signal->plotPoint(45, 0);
        QMouseEvent move(QEvent::MouseMove, at, traces->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QCoreApplication::sendEvent(traces, &move);
        QVERIFY(!moved.isEmpty());
        QVERIFY2(std::abs(moved.last().at(0).toDouble() - 45) < 0.2, qPrintable(QString::number(moved.last().at(0).toDouble())));
        choose(preset("alpha"));
        snap(w_, "spectrogram");
        QVERIFY(spec->plot()->itemCount() >= 3);  // region outline + label, band edges, cursor
    }

    void patternsPerBandEqualPatternsOfTheFilteredChannel() {
        const int channel = 0;
        QVERIFY(w_->bandJobs()->findPatterns(channel, 256, 128) != 0);
        QVERIFY(w_->jobs()->waitForIdle(300000));
        auto* view = w_->bandView();
        QTRY_COMPARE(view->kind(), widgets::BandComparisonView::Kind::Patterns);
        QCOMPARE(view->table()->rowCount(), 5);
        QVERIFY(view->bestBand() >= 0);
        QVERIFY(view->source().contains("delta, theta, alpha, beta, gamma"));
        // Alpha, checked against pattern discovery on the channel filtered to alpha.
        const auto rec = w_->document()->recording();
        const auto& info = widgets::signalList(*rec)[channel];
        const std::vector<float> x = compute::spectral::bandFilter(std::span<const float>(rec->read(channel, 0, info.samples)), 256,
                                                                   preset("alpha"));
        compute::PatternRequest req;
        req.samples = x;
        req.rateHz = 256;
        req.channel = info.displayName;
        req.seizures = {{42, 82}};
        req.epoch = 256;
        req.stride = 128;
        req.band = w_->metricPanel()->params().band;
        const compute::PatternRanking want = compute::findPatterns(req, {});
        const QString q = view->table()->item(2, 1)->text();
        QCOMPARE(q, QString::number(want.ranked.front().quality, 'f', 4));
        QCOMPARE(view->table()->item(2, 2)->data(Qt::UserRole).toDouble(), want.ranked.front().startS);
        QTemporaryDir dir;
        QCOMPARE(view->exportCsv(dir.filePath("bands.csv")), QString());
        w_->showMaximized();
        snap(w_, "bands-patterns");
    }

    void searchPerBandEqualsSearchOfTheFilteredSeries() {
        io::Region q{io::RegionKind::Query, 0, 50, 52, ""};
        w_->document()->addRegion(q);
        QVERIFY(w_->bandJobs()->searchQuery(3) != 0);
        QVERIFY(w_->jobs()->waitForIdle(300000));
        auto* view = w_->bandView();
        QTRY_COMPARE(view->kind(), widgets::BandComparisonView::Kind::Search);
        QCOMPARE(view->table()->columnCount(), 5);
        const compute::Series query = w_->document()->segment(0, 50, 52, false);
        const auto rec = w_->document()->recording();
        const compute::Series ref = w_->document()->segment(0, 0, rec->durationS(), false);
        const auto beta = preset("beta");
        compute::Series qb(compute::spectral::bandFilter(std::span<const float>(query.values), 256, beta), 1, "q");
        compute::Series rb(compute::spectral::bandFilter(std::span<const float>(ref.values), 256, beta), 1, "r");
        compute::Params p = w_->metricPanel()->params();
        p.metric = compute::Metric::Sdtw;
        p.topk = 3;
        compute::SearchScope scope;
        scope.spans = {compute::ExcludedSpan{50 * 256, 50 * 256 + query.length - 1, 0}};
        const auto want = compute::Engine::search(qb, rb, p, {}, scope);
        QVERIFY(!want.empty());
        const QPointF got = view->table()->item(0, 3)->data(Qt::UserRole).toPointF();
        QCOMPARE(got.x(), double(want[0].start) / 256);
        snap(view, "bands-search");
    }

    void matricesPerBandEqualMatricesOfTheFilteredWindow() {
        w_->metricPanel()->frequencyBands()->setComparedBands({preset("alpha"), preset("gamma"), FrequencyBand{"", 30, 200}});
        w_->signalView()->setWindow(40, 10);
        QVERIFY(w_->bandJobs()->channelDistanceMatrix() != 0);
        QVERIFY(w_->jobs()->waitForIdle(300000));
        auto* view = w_->bandView();
        QTRY_COMPARE(view->kind(), widgets::BandComparisonView::Kind::Matrix);
        QCOMPARE(int(view->matrices().size()), 3);
        // 200 Hz lies above the 128 Hz Nyquist frequency: that band is refused by name, the others ran.
        QVERIFY(!view->matrices()[2].matrix);
        QVERIFY2(view->matrices()[2].error.contains("30-200 Hz"), qPrintable(view->matrices()[2].error));
        compute::SeriesSet set;
        for (int c = 0; c < 3; ++c) {
            const compute::Series raw = w_->document()->segment(c, 40, 50, false);
            set.emplace_back(compute::spectral::bandFilter(std::span<const float>(raw.values), 256, preset("gamma")), 1, raw.name);
        }
        const auto want = compute::Engine::distanceMatrix(set, nullptr, w_->metricPanel()->params(), {});
        const auto& got = *view->matrices()[1].matrix;
        QCOMPARE(got.at(0, 1), want.at(0, 1));
        QCOMPARE(got.at(1, 2), want.at(1, 2));
        snap(view, "bands-matrices");
    }

    void sessionsKeepTheBand() {
        choose(FrequencyBand{"", 3, 17}, true);
        QTemporaryDir dir;
        const QString path = dir.filePath("s.json");
        QVERIFY(w_->saveSession(path));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY(f.readAll().contains("frequency_bands"));
        }
        choose(preset("beta"));
        QVERIFY(w_->openSession(path));
        auto* box = w_->metricPanel()->frequencyBands();
        QVERIFY(box->band().has_value());
        QCOMPARE(box->band()->lowHz, 3.0);
        QCOMPARE(box->band()->highHz, 17.0);
        QVERIFY(box->filterDisplay());
        QCOMPARE(w_->document()->frequencyBand()->highHz, 17.0);
        // A session written before bands existed opens with all frequencies.
        io::Session old = io::loadSession(path.toStdString());
        old.original.erase("analysis");
        old.freqBands = {};
        nlohmann::json j = io::sessionToJson(old);
        j["analysis"].erase("frequency_bands");
        const QString oldPath = dir.filePath("old.json");
        QFile o(oldPath);
        QVERIFY(o.open(QIODevice::WriteOnly));
        o.write(QByteArray::fromStdString(j.dump()));
        o.close();
        QVERIFY(w_->openSession(oldPath));
        QVERIFY(!box->band().has_value());
        QVERIFY(!w_->document()->frequencyBand().has_value());
    }

    void windowFitsASmallScreen() {
        QVERIFY2(w_->minimumSizeHint().width() <= 1280, qPrintable(QString::number(w_->minimumSizeHint().width())));
    }
};

QTEST_MAIN(TestSpectraGui)
#include "test_spectra_gui.moc"
