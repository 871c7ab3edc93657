// Drives the real main window offscreen: open a recording of tests/data, mark a region with
// simulated mouse events, undo and redo it, run DTW and check the cost-matrix view against the
// scalar reference, cancel a long job, open a corrupt file and get the error dialog.
#include <QDockWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include "app/gui/analysis_controller.h"
#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/shortcut_help_dialog.h"
#include "app/gui/unsaved_guard.h"
#include "compute/engine/engine.h"
#include "io/matrix_io.h"
#include "widgets/alignment_view.h"
#include "widgets/cost_matrix_view.h"
#include "widgets/distance_matrix_view.h"
#include "widgets/job_progress_widget.h"
#include "widgets/kernel_comparison_view.h"
#include "widgets/metric_panel.h"
#include "widgets/patterns_view.h"
#include "widgets/plot_export.h"
#include "widgets/region_list.h"
#include <QLabel>

#include "widgets/search_options_bar.h"
#include "widgets/search_results_view.h"
#include "widgets/signal_view.h"

using namespace warplab;

namespace {
const QString kSeizure = QStringLiteral(WARPLAB_TEST_DATA "/chbmit/chb01_03_Seizure.edf");
constexpr double kRate = 256.0;  // CHB-MIT, PROVENANCE.md

// Samples of one channel read straight from the file (not through the GUI), for expectations.
compute::Series readSegment(const QString& path, int channel, long long first, long long count) {
    auto rec = io::Recording::open(path.toStdString());
    return compute::Series(rec->read(channel, first, count), 1);
}
// With WARPLAB_TEST_SCREENSHOTS=DIR, tests save the window there so that a person can look.
void snap(QWidget* w, const QString& name) {
    const QString dir = qEnvironmentVariable("WARPLAB_TEST_SCREENSHOTS");
    if (dir.isEmpty()) return;
    QTest::qWait(100);  // let queued replots run
    w->grab().save(dir + "/" + name + ".png");
}
}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void opensRecording();
    void keyboardNavigation();
    void marksRegionWithMouseAndUndoes();
    void movesRegionWithMouse();
    void dtwJobFillsCostMatrix();
    void lowMemoryPathKeepsNoMatrix();
    void cdtwShowsItsBand();
    void cancelsLongJob();
    void newerJobSupersedesOlder();
    void distanceMatrixAndExport();
    void searchFindsQueryItself();
    void corruptFileShowsErrorDialog();
    void shortcutHelpListsActionTable();
    void bipolarMontage();
    void dropOpensFile();
    void importsAnnotationSeizures();
    void plotsExportPngSvgPdf();
    void sessionRoundTrip();
    void filtersChangeAnalysedSamples();
    void seizurePatternsJob();
    void kernelComparisonJob();

private:
    app::MainWindow* w_ = nullptr;
};

void TestMainWindow::initTestCase() {
    QCoreApplication::setOrganizationName("WarpLabTests");
    QCoreApplication::setApplicationName("test_main_window");
    QVERIFY2(QFile::exists(kSeizure), qPrintable(kSeizure + " is missing (tests/data)"));
}

void TestMainWindow::init() {
    w_ = new app::MainWindow;
    w_->resize(1400, 900);
    w_->show();
    QVERIFY(QTest::qWaitForWindowExposed(w_));
    w_->unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });  // test_unsaved_marks asks
    QVERIFY(w_->openFile(kSeizure));
}

void TestMainWindow::cleanup() {
    w_->jobs()->cancelAll();
    w_->jobs()->waitForIdle(60000);
    delete w_;
    w_ = nullptr;
}

void TestMainWindow::opensRecording() {
    auto rec = w_->document()->recording();
    QVERIFY(rec);
    QCOMPARE(int(widgets::signalList(*rec).size()), 23);
    QVERIFY(w_->recentFiles().contains(QFileInfo(kSeizure).absoluteFilePath()));
    auto* sv = w_->signalView();
    QCOMPARE(sv->plot()->graphCount(), 23);
    // 10 s at 256 Hz is 2560 samples; min/max per pixel leaves at most two per column.
    const int columns = std::max(100, sv->plot()->axisRect()->width());
    QVERIFY(sv->drawnPointCount(0) > 0);
    QVERIFY2(sv->drawnPointCount(0) <= 2 * columns + 2, qPrintable(QString::number(sv->drawnPointCount(0))));
}

void TestMainWindow::keyboardNavigation() {
    auto* sv = w_->signalView();
    sv->setFocus();
    QCOMPARE(sv->windowStart(), 0.0);
    QTest::keyClick(sv, Qt::Key_PageDown);
    QCOMPARE(sv->windowStart(), sv->windowLength());
    QTest::keyClick(sv, Qt::Key_End);
    QCOMPARE(sv->windowStart(), 41.0 - sv->windowLength());
    QTest::keyClick(sv, Qt::Key_Home);
    QCOMPARE(sv->windowStart(), 0.0);
    QTest::keyClick(sv, Qt::Key_Right);
    QCOMPARE(sv->windowStart(), sv->windowLength() / 4);
    const double before = sv->unitsPerRow();
    QTest::keyClick(sv, Qt::Key_Plus);
    QVERIFY(sv->unitsPerRow() < before);
    QTest::keyClick(sv, Qt::Key_Down);  // longer window
    QVERIFY(sv->windowLength() > 10.0);
}

void TestMainWindow::marksRegionWithMouseAndUndoes() {
    auto* sv = w_->signalView();
    auto* doc = w_->document();
    QCustomPlot* plot = sv->plot();
    sv->setMarkKind(io::RegionKind::Query);
    const QPoint a = sv->plotPoint(2.0, 3), b = sv->plotPoint(5.0, 3);
    QTest::mousePress(plot, Qt::LeftButton, Qt::NoModifier, a);
    QTest::mouseMove(plot, (a + b) / 2);
    QTest::mouseMove(plot, b);
    QTest::mouseRelease(plot, Qt::LeftButton, Qt::NoModifier, b);
    QCOMPARE(int(doc->regions().size()), 1);
    const io::Region r = doc->regions()[0];
    const double pixel = sv->windowLength() / plot->axisRect()->width();
    QCOMPARE(r.kind, io::RegionKind::Query);
    QCOMPARE(r.channel, -1);
    QVERIFY2(std::abs(r.startS - 2.0) <= 2 * pixel, qPrintable(QString::number(r.startS)));
    QVERIFY2(std::abs(r.endS - 5.0) <= 2 * pixel, qPrintable(QString::number(r.endS)));

    // Ctrl+drag marks one channel only.
    const QPoint c = sv->plotPoint(6.0, 7), d = sv->plotPoint(8.0, 7);
    QTest::mousePress(plot, Qt::LeftButton, Qt::ControlModifier, c);
    QTest::mouseMove(plot, d);
    QTest::mouseRelease(plot, Qt::LeftButton, Qt::ControlModifier, d);
    QCOMPARE(int(doc->regions().size()), 2);
    QCOMPARE(doc->regions()[1].channel, 7);
    snap(w_, "regions");

    QCOMPARE(w_->regionList()->rowCount(), 2);
    doc->undoStack()->undo();
    QCOMPARE(int(doc->regions().size()), 1);
    doc->undoStack()->undo();
    QCOMPARE(int(doc->regions().size()), 0);
    QCOMPARE(w_->regionList()->rowCount(), 0);
    doc->undoStack()->redo();
    QCOMPARE(int(doc->regions().size()), 1);
    QCOMPARE(doc->regions()[0].startS, r.startS);

    // Select by clicking inside, delete with the Delete key, undo brings it back.
    const QPoint inside = sv->plotPoint(3.5, 10);
    QTest::mouseClick(plot, Qt::LeftButton, Qt::NoModifier, inside);
    QCOMPARE(sv->selectedRegion(), 0);
    QTest::keyClick(sv, Qt::Key_Delete);
    QCOMPARE(int(doc->regions().size()), 0);
    doc->undoStack()->undo();
    QCOMPARE(int(doc->regions().size()), 1);
}

void TestMainWindow::movesRegionWithMouse() {
    auto* sv = w_->signalView();
    auto* doc = w_->document();
    doc->addRegion({io::RegionKind::Seizure, -1, 2.0, 4.0, ""});
    const QPoint a = sv->plotPoint(3.0, 5), b = sv->plotPoint(6.0, 5);
    QTest::mousePress(sv->plot(), Qt::LeftButton, Qt::AltModifier, a);  // Alt+drag moves; a plain drag marks
    QTest::mouseMove(sv->plot(), b);
    QTest::mouseRelease(sv->plot(), Qt::LeftButton, Qt::AltModifier, b);
    QCOMPARE(int(doc->regions().size()), 1);
    const io::Region r = doc->regions().at(0);
    const double pixel = sv->windowLength() / sv->plot()->axisRect()->width();
    QVERIFY2(std::abs(r.startS - 5.0) <= 2 * pixel, qPrintable(QString::number(r.startS)));
    QVERIFY(std::abs((r.endS - r.startS) - 2.0) < 1e-9);
    doc->undoStack()->undo();
    QCOMPARE(doc->regions().at(0).startS, 2.0);
}

void TestMainWindow::dtwJobFillsCostMatrix() {
    auto* doc = w_->document();
    w_->metricPanel()->setMetric(compute::Metric::Dtw);
    doc->addRegion({io::RegionKind::Query, 0, 1.0, 3.0, ""});       // 512 samples of FP1-F7
    doc->addRegion({io::RegionKind::Reference, 0, 20.0, 21.5, ""});  // 384 samples
    QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
    QSignalSpy failed(w_->jobs(), &app::JobRunner::jobFailed);
    QVERIFY(w_->analysis()->alignMarkedRegions() != 0);
    QVERIFY(finished.wait(60000));
    QCOMPARE(failed.count(), 0);
    auto* cost = w_->costView();
    QCOMPARE(cost->rows(), std::size_t(512));
    QCOMPARE(cost->cols(), std::size_t(384));
    QVERIFY(cost->hasMatrix());
    QCOMPARE(cost->displayRows(), std::size_t(512));  // under 600 per axis: not averaged
    const auto& path = cost->alignment()->path;
    QVERIFY(!path.empty());
    QCOMPARE(path.front(), std::make_pair(std::size_t(0), std::size_t(0)));
    QCOMPARE(path.back(), std::make_pair(std::size_t(511), std::size_t(383)));
    // The distance equals the scalar reference on the same samples read independently.
    compute::Params p;
    p.metric = compute::Metric::Dtw;
    const double expected = compute::Engine::distance(readSegment(kSeizure, 0, 256, 512), readSegment(kSeizure, 0, 5120, 384), p);
    QCOMPARE(cost->alignment()->distance, expected);
    snap(w_, "cost_matrix");
    w_->findChild<QDockWidget*>("alignmentDock")->raise();
    snap(w_, "alignment");
    QVERIFY(w_->alignmentView()->joiningLineCount() > 0);
    QVERIFY(w_->alignmentView()->joiningLineCount() <= 200);
    // Hover reports (i, j, cost) of the cell under the mouse, the cost from the matrix.
    w_->findChild<QDockWidget*>("costDock")->raise();
    QTest::qWait(100);  // let the dock's layout settle before pixels are computed
    QTest::mouseMove(cost->plot(), cost->cellPoint(300, 200));
    const QString expectHover = QString("i = 300, j = 200 (samples), cost = %1 ").arg(cost->alignment()->matrix[300 * 384 + 200], 0, 'g', 8);
    QVERIFY2(cost->hoverText().startsWith(expectHover), qPrintable(cost->hoverText()));
    QVERIFY2(cost->hoverText().endsWith(QString::fromUtf8("\u00b5V\u00b2")), qPrintable(cost->hoverText()));  // names its unit
}

void TestMainWindow::cdtwShowsItsBand() {
    compute::Params p;
    p.metric = compute::Metric::Cdtw;
    p.band = 10;
    w_->metricPanel()->setParams(p);
    w_->document()->addRegion({io::RegionKind::Query, 1, 4.0, 5.0, ""});      // 256 samples
    w_->document()->addRegion({io::RegionKind::Reference, 1, 9.0, 10.5, ""});  // 384 samples
    QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
    QVERIFY(w_->analysis()->alignMarkedRegions() != 0);
    QVERIFY(finished.wait(60000));
    const compute::Alignment* a = w_->costView()->alignment();
    QCOMPARE(a->n, std::size_t(256));
    QCOMPARE(a->m, std::size_t(384));
    // METRICS.md band: j - i <= w + (m - n) = 138 and i - j <= w = 10; outside is +inf.
    QVERIFY(std::isinf(a->matrix[0 * 384 + 139]));
    QVERIFY(std::isfinite(a->matrix[0 * 384 + 138]));
    QVERIFY(std::isinf(a->matrix[100 * 384 + 89]));
    for (const auto& [i, j] : a->path) QVERIFY(long(j) - long(i) <= 138 && long(i) - long(j) <= 10);
    compute::Params ref = p;
    QCOMPARE(a->distance, compute::Engine::distance(readSegment(kSeizure, 1, 1024, 256), readSegment(kSeizure, 1, 2304, 384), ref));
}

void TestMainWindow::lowMemoryPathKeepsNoMatrix() {
    auto* doc = w_->document();
    w_->analysis()->setMemoryBudget(1024);  // 1 KiB: any real pair is "too large"
    doc->addRegion({io::RegionKind::Query, 2, 1.0, 2.0, ""});
    doc->addRegion({io::RegionKind::Reference, 2, 30.0, 31.0, ""});
    QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
    QVERIFY(w_->analysis()->alignMarkedRegions() != 0);
    QVERIFY(finished.wait(60000));
    QVERIFY(!w_->costView()->hasMatrix());
    compute::Params p;
    const double expected = compute::Engine::distance(readSegment(kSeizure, 2, 256, 256), readSegment(kSeizure, 2, 7680, 256), p);
    QVERIFY(std::abs(w_->costView()->alignment()->distance - expected) <= 1e-6 * std::abs(expected));
}

void TestMainWindow::cancelsLongJob() {
    // Epochs of 2 s every 0.05 s: ~780 epochs, ~300k DTW pairs, minutes of work.
    QSignalSpy started(w_->jobs(), &app::JobRunner::jobStarted);
    QSignalSpy cancelled(w_->jobs(), &app::JobRunner::jobCancelled);
    QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
    QSignalSpy stopped(w_->jobs(), &app::JobRunner::workerStopped);
    QSignalSpy progress(w_->jobs(), &app::JobRunner::jobProgress);
    const quint64 id = w_->analysis()->epochDistanceMatrix(0, 2.0, 0.05);
    QVERIFY(id != 0);
    QCOMPARE(started.count(), 1);
    QVERIFY(progress.wait(30000));  // tiles report progress while the window stays live
    const double fraction = progress.last().at(1).toDouble();
    QVERIFY(fraction >= 0 && fraction < 1);
    auto* strip = w_->findChild<widgets::JobProgressWidget*>();
    QVERIFY(strip && strip->isVisible());
    QCOMPARE(strip->currentJob(), id);
    QVERIFY(w_->jobs()->isActive(id));
    w_->findChild<QPushButton*>("cancelJob")->click();  // the Cancel button of the progress strip
    QCOMPARE(cancelled.count(), 1);
    QVERIFY(!w_->jobs()->isActive(id));
    QVERIFY(!strip->isVisible());
    // The worker honours the token between tiles and returns; no result reaches the view.
    QVERIFY(stopped.wait(60000));
    QCOMPARE(finished.count(), 0);
    QVERIFY(w_->distanceView()->matrix() == nullptr);

    // Opening another recording cancels what still runs for the previous one.
    QVERIFY(w_->analysis()->epochDistanceMatrix(0, 2.0, 0.05) != 0);
    QVERIFY(w_->openFile(QStringLiteral(WARPLAB_TEST_DATA "/chbmit/chb01_03_NonSeizure.edf")));
    QCOMPARE(cancelled.count(), 2);
    QCOMPARE(w_->jobs()->activeCount(), 0);
}

void TestMainWindow::newerJobSupersedesOlder() {
    auto* runner = w_->jobs();
    QSignalSpy finished(runner, &app::JobRunner::jobFinished);
    int applied = 0, which = 0;
    auto slow = [&](int tag, int ms) {
        return [&, tag, ms](const compute::RunOptions& o) -> app::JobRunner::Apply {
            for (int t = 0; t < ms && !o.cancel->cancelled(); t += 5) QThread::msleep(5);
            return [&, tag] { ++applied; which = tag; };
        };
    };
    const quint64 first = runner->submit("view", "first", {}, slow(1, 2000));
    const quint64 second = runner->submit("view", "second", {}, slow(2, 50));
    QVERIFY(!runner->isActive(first));
    QVERIFY(finished.wait(10000));
    QVERIFY(runner->waitForIdle(10000));
    QTest::qWait(50);
    QCOMPARE(applied, 1);
    QCOMPARE(which, 2);
    QCOMPARE(finished.first().at(0).toULongLong(), second);
}

void TestMainWindow::distanceMatrixAndExport() {
    w_->metricPanel()->setMetric(compute::Metric::Dtw);
    auto* sv = w_->signalView();
    sv->setWindow(0, 2);  // 512 samples per channel
    QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
    QVERIFY(w_->analysis()->channelDistanceMatrix() != 0);
    QVERIFY(finished.wait(120000));
    const compute::DistanceMatrix* m = w_->distanceView()->matrix();
    QVERIFY(m);
    QCOMPARE(m->rows, std::size_t(23));
    w_->findChild<QDockWidget*>("distanceDock")->raise();
    QTest::qWait(100);
    QCOMPARE(m->cols, std::size_t(23));
    QCOMPARE(QString::fromStdString(m->rowNames[1]), QString("F7-T7"));
    compute::Params p;
    const double expected = compute::Engine::distance(readSegment(kSeizure, 0, 0, 512), readSegment(kSeizure, 1, 0, 512), p);
    QVERIFY2(std::abs(m->at(0, 1) - expected) <= 1e-5 * expected, qPrintable(QString("%1 vs %2").arg(m->at(0, 1)).arg(expected)));
    QCOMPARE(m->at(3, 3), 0.0);

    snap(w_, "distance_matrix");
    QTemporaryDir dir;
    for (const char* ext : {"csv", "npy", "h5"}) {
        const QString file = dir.filePath(QStringLiteral("m.%1").arg(ext));
        QCOMPARE(w_->distanceView()->exportMatrix(file), QString());
        const compute::DistanceMatrix back = io::readMatrix(file.toStdString());
        QCOMPARE(back.rows, m->rows);
        QCOMPARE(back.values, m->values);
    }

    // Hover names the pair; clicking the cell opens it (channel 0 x channel 1, same window).
    auto* dv = w_->distanceView();
    QTest::mouseMove(dv->plot(), dv->cellPoint(0, 1));
    QVERIFY2(dv->hoverText().startsWith("FP1-F7 × F7-T7: "), qPrintable(dv->hoverText()));
    QSignalSpy again(w_->jobs(), &app::JobRunner::jobFinished);
    QTest::mouseClick(dv->plot(), Qt::LeftButton, Qt::NoModifier, dv->cellPoint(0, 1));
    QVERIFY(again.wait(60000));
    QCOMPARE(w_->costView()->rows(), std::size_t(512));
    QVERIFY(std::abs(w_->costView()->alignment()->distance - expected) <= 1e-5 * expected);
}

void TestMainWindow::searchFindsQueryItself() {
    auto* doc = w_->document();
    doc->addRegion({io::RegionKind::Query, 4, 10.0, 11.0, ""});  // 256 samples of FP1-F3 from sample 2560
    QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
    // "include the query itself" ticked: the query finds itself (opt-in).
    auto* opts = w_->searchView()->options();
    widgets::SearchChoice c = opts->choice();
    c.includeSelf = true;
    opts->setChoice(c);
    QVERIFY(w_->analysis()->searchQuery(3) != 0);
    QVERIFY(finished.wait(120000));
    QCOMPARE(w_->searchView()->matchCount(), 3);
    // The best match of a query in its own channel is itself: cost 0 at samples 2560..2815.
    const auto best = w_->searchView()->matches().front();
    QCOMPARE(best.start, std::size_t(2560));
    QCOMPARE(best.end, std::size_t(2815));
    QVERIFY(best.cost <= 1e-6);
    auto* sv = w_->signalView();  // and the signal view shows it
    QVERIFY(sv->windowStart() <= 10.0 && sv->windowStart() + sv->windowLength() >= 11.0);

    // By default no match overlaps the query (samples 2560..2815), and the title says so.
    auto titled = [&](const QString& text) {
        for (auto* l : w_->searchView()->findChildren<QLabel*>())
            if (l->text().contains(text)) return true;
        return false;
    };
    c.includeSelf = false;
    opts->setChoice(c);
    QVERIFY(w_->analysis()->searchQuery(3) != 0);
    QVERIFY(finished.wait(120000));
    QCOMPARE(w_->searchView()->matchCount(), 3);
    for (const auto& m : w_->searchView()->matches()) QVERIFY(m.end < 2560 || m.start > 2815);
    QVERIFY(titled("its own place excluded"));

    // Window mode (z-normalised, band 5 %): no window overlapping the query (starts 2305..2815); with the query itself
    // included it is found at 2560 with cost 0.
    c.window = true;
    opts->setChoice(c);
    QVERIFY(w_->analysis()->searchQuery(5) != 0);
    QVERIFY(finished.wait(120000));
    QCOMPARE(w_->searchView()->matchCount(), 5);
    for (const auto& m : w_->searchView()->matches()) {
        QVERIFY(m.start < 2305 || m.start > 2815);
        QCOMPARE(m.end, m.start + 255);
    }
    QVERIFY(titled("z-normalised window search, band 12"));
    snap(w_, "search");
    c.includeSelf = true;
    opts->setChoice(c);
    QVERIFY(w_->analysis()->searchQuery(1) != 0);
    QVERIFY(finished.wait(120000));
    QCOMPARE(w_->searchView()->matches().front().start, std::size_t(2560));
    QCOMPARE(w_->searchView()->matches().front().cost, 0.0);
    opts->setChoice(widgets::SearchChoice{});
}

void TestMainWindow::corruptFileShowsErrorDialog() {
    QTemporaryDir dir;
    // A truncated EDF: the header promises 41 records that are not there.
    QFile in(kSeizure);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QByteArray head = in.read(6144 + 1000);
    const QString truncated = dir.filePath("truncated.edf");
    QFile out(truncated);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(head);
    out.close();
    const QString garbage = dir.filePath("garbage.edf");
    QFile g(garbage);
    QVERIFY(g.open(QIODevice::WriteOnly));
    g.write("this is not a recording at all\n");
    g.close();

    QSignalSpy errors(w_, &app::MainWindow::errorShown);
    const auto before = w_->document()->recording();
    QVERIFY(!w_->openFile(garbage));
    QCOMPARE(errors.count(), 1);
    QVERIFY2(errors.first().at(1).toString().contains("garbage.edf"), qPrintable(errors.first().at(1).toString()));
    auto* box = w_->findChild<QMessageBox*>("errorDialog");
    QVERIFY(box);
    QVERIFY(box->isVisible());
    QCOMPARE(box->textFormat(), Qt::PlainText);  // file text ("<img src=...>" in a label) is never HTML
    snap(box, "error_dialog");
    QCOMPARE(w_->document()->recording(), before);  // the open recording stays

    w_->openFile(truncated);  // either refused with a dialog, or opened leniently: never a crash
    QVERIFY(errors.count() == 2 || w_->document()->path() == truncated);
    if (w_->document()->path() == truncated) w_->signalView()->setWindow(30, 10);  // reading past the data
}

void TestMainWindow::shortcutHelpListsActionTable() {
    app::ShortcutHelpDialog dialog(w_->actions());
    int withKeys = 0;
    for (const auto& spec : w_->actions().specs()) withKeys += spec.shortcuts.isEmpty() && spec.keysText.isEmpty() ? 0 : 1;
    QCOMPARE(dialog.rowCount(), withKeys);
    dialog.show();
    snap(&dialog, "shortcuts");
    QVERIFY(withKeys >= 15);
    QVERIFY(w_->findChild<QAction*>("help.shortcuts"));
    QVERIFY(w_->findChild<QAction*>("help.shortcuts")->shortcuts().contains(QKeySequence(Qt::Key_F1)));
}

void TestMainWindow::sessionRoundTrip() {
    auto* doc = w_->document();
    doc->addRegion({io::RegionKind::Seizure, -1, 1.0, 41.0, "onset"});
    doc->addRegion({io::RegionKind::Query, 5, 2.5, 3.25, ""});
    compute::Params p;
    p.metric = compute::Metric::Cdtw;
    p.band = 7;
    p.znorm = true;
    w_->metricPanel()->setParams(p);
    io::FilterSettings f;
    f.highpassHz = 0.5;
    f.notchHz = 60;
    doc->setFilters(f);
    QTemporaryDir dir;
    const QString path = dir.filePath("s.warplab.json");
    w_->signalView()->setVisibleChannels({2, 0, 7});  // a channel selection, in this order
    w_->signalView()->setCurrentChannel(7);
    QCOMPARE(w_->signalView()->drawnPointCount(5), 0);  // hidden channels are not read
    QVERIFY(w_->signalView()->drawnPointCount(7) > 0);
    QVERIFY(w_->saveSession(path));

    QVERIFY(w_->openFile(QStringLiteral(WARPLAB_TEST_DATA "/chbmit/chb01_03_NonSeizure.edf")));
    w_->metricPanel()->setParams(compute::Params{});
    doc->setFilters({});
    QCOMPARE(int(doc->regions().size()), 0);

    QVERIFY(w_->openSession(path));
    QCOMPARE(doc->path(), kSeizure);
    QCOMPARE(int(doc->regions().size()), 2);
    QCOMPARE(doc->regions()[0].note, std::string("onset"));
    QCOMPARE(doc->regions()[1].channel, 5);
    QCOMPARE(doc->regions()[1].endS, 3.25);
    QCOMPARE(w_->metricPanel()->params().metric, compute::Metric::Cdtw);
    QCOMPARE(w_->metricPanel()->params().band, 7);
    QVERIFY(w_->metricPanel()->params().znorm);
    QCOMPARE(doc->filters().highpassHz, 0.5);
    QCOMPARE(doc->filters().notchHz, 60.0);
    QCOMPARE(w_->signalView()->visibleChannels(), (std::vector<int>{2, 0, 7}));
    QCOMPARE(w_->signalView()->currentChannel(), 7);

    QSignalSpy errors(w_, &app::MainWindow::errorShown);
    QVERIFY(!w_->openSession(dir.filePath("missing.json")));
    QCOMPARE(errors.count(), 1);
}

void TestMainWindow::filtersChangeAnalysedSamples() {
    auto* doc = w_->document();
    const compute::Series raw = doc->segment(0, 0, 4);
    io::FilterSettings f;
    f.highpassHz = 1.0;
    f.lowpassHz = 30.0;
    doc->setFilters(f);  // view only
    QCOMPARE(doc->segment(0, 0, 4).values, raw.values);
    QVERIFY(w_->signalView()->drawnPointCount(0) > 0);
    f.applyToAnalysis = true;
    doc->setFilters(f);
    const compute::Series filtered = doc->segment(0, 0, 4);
    QCOMPARE(filtered.length, raw.length);
    // A 1 Hz high-pass removes the mean: the filtered mean is near zero, the raw one is not.
    double mean = 0;
    for (float v : filtered.values) mean += v;
    mean /= filtered.length;
    QVERIFY(filtered.values != raw.values);
    QVERIFY2(std::abs(mean) < 5.0, qPrintable(QString::number(mean)));
}

void TestMainWindow::seizurePatternsJob() {
    auto* doc = w_->document();
    w_->metricPanel()->setMetric(compute::Metric::Cdtw);
    doc->addRegion({io::RegionKind::Seizure, -1, 20.0, 41.0, ""});
    QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
    QSignalSpy failed(w_->jobs(), &app::JobRunner::jobFailed);
    QVERIFY(w_->analysis()->findPatterns(0) != 0);
    QVERIFY(finished.wait(120000));
    QCOMPARE(failed.count(), 0);
    auto ranking = w_->patternsView()->ranking();
    QVERIFY(ranking);
    // Query 20..41 s = 5376 samples: floor((5376 - 1024) / 256) + 1 = 18 patterns;
    // channel of 10496 samples: floor((10496 - 1024) / 256) + 1 = 38 epochs.
    QCOMPARE(ranking->patternCount, std::size_t(18));
    QCOMPARE(ranking->epochCount, std::size_t(38));
    QCOMPARE(ranking->ranked.size(), std::size_t(18));
    snap(w_, "patterns");

    // No seizure marked on a fresh recording: refused with a reason, no job.
    QVERIFY(w_->openFile(kSeizure));
    QSignalSpy errors(w_, &app::MainWindow::errorShown);
    QCOMPARE(w_->analysis()->findPatterns(0), quint64(0));
    QCOMPARE(errors.count(), 1);
}

void TestMainWindow::kernelComparisonJob() {
    auto* view = w_->kernelView();
    const QStringList kernels = view->checkedKernels();
    QVERIFY(kernels.contains("cpu.reference"));
    view->setLengths("32, 64");
    view->setPairs(16);
    QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
    QSignalSpy failed(w_->jobs(), &app::JobRunner::jobFailed);
    QVERIFY(w_->analysis()->runKernelComparison() != 0);
    QVERIFY(finished.wait(120000));
    QCOMPARE(failed.count(), 0);
    const auto& rows = view->results();
    QCOMPARE(int(rows.size()), 2 * kernels.size());
    snap(w_, "kernels");
    for (const auto& r : rows) {
        QVERIFY2(r.cells_per_s > 0, r.kernel.c_str());
        QVERIFY2(r.max_rel_error < 1e-3, r.kernel.c_str());  // every kernel agrees with the reference
    }
    QTemporaryDir dir;
    const QString csv = dir.filePath("bench.csv");
    QCOMPARE(view->exportCsv(csv), QString());
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll().count('\n'), qsizetype(rows.size() + 1));

    // Bad lengths are refused with a reason naming the field.
    view->setLengths("32,abc");
    QSignalSpy errors(w_, &app::MainWindow::errorShown);
    QCOMPARE(w_->analysis()->runKernelComparison(), quint64(0));
    QCOMPARE(errors.count(), 1);
    QVERIFY(errors.first().at(1).toString().contains("lengths"));
}

void TestMainWindow::dropOpensFile() {
    const QString other = QStringLiteral(WARPLAB_TEST_DATA "/eegmmidb/S001R03.edf");
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(other)});
    QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(w_, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(w_, &drop);
    QCOMPARE(w_->document()->path(), other);
    // EDF+ with 64 EEG channels; its annotation signal is not a channel. T0/T1/T2 events.
    QCOMPARE(int(widgets::signalList(*w_->document()->recording()).size()), 64);
    QCOMPARE(w_->signalView()->plot()->graphCount(), 64);
    // 64 channels: a page of 32 is drawn and read, the rest is a scroll away.
    auto* sv = w_->signalView();
    QCOMPARE(sv->channelsShown(), 32);
    QVERIFY(sv->drawnPointCount(0) > 0);
    QCOMPARE(sv->drawnPointCount(40), 0);
    sv->setFirstChannel(32);
    QVERIFY(sv->drawnPointCount(40) > 0);
    QCOMPARE(sv->drawnPointCount(0), 0);
    const QPoint p = sv->plotPoint(1.0, 40);
    QVERIFY(sv->plot()->axisRect()->rect().contains(p));
    QVERIFY(w_->document()->recording()->annotations().size() >= 30);
    snap(w_, "eegmmidb");
}

void TestMainWindow::importsAnnotationSeizures() {
    QVERIFY(w_->openFile(QStringLiteral(WARPLAB_TEST_DATA "/eegmmidb/S001R03.edf")));
    auto* doc = w_->document();
    // PROVENANCE.md: 8 T1 events of 4.1 s in this run.
    QCOMPARE(doc->importAnnotationSeizures("T1"), 8);
    QCOMPARE(int(doc->regions().size()), 8);
    for (const auto& r : doc->regions()) {
        QCOMPARE(r.kind, io::RegionKind::Seizure);
        QVERIFY(std::abs((r.endS - r.startS) - 4.1) < 0.05);
    }
    doc->undoStack()->undo();  // one step for the whole import
    QCOMPARE(int(doc->regions().size()), 0);
}

void TestMainWindow::plotsExportPngSvgPdf() {
    w_->document()->addRegion({io::RegionKind::Query, 0, 1.0, 2.0, ""});
    w_->document()->addRegion({io::RegionKind::Reference, 0, 5.0, 6.0, ""});
    QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
    QVERIFY(w_->analysis()->alignMarkedRegions() != 0);
    QVERIFY(finished.wait(60000));
    QTemporaryDir dir;
    for (QCustomPlot* plot : {w_->costView()->plot(), w_->signalView()->plot(), w_->alignmentView()->plot()})
        for (const char* ext : {"png", "svg", "pdf"}) {
            const QString path = dir.filePath(QStringLiteral("plot.%1").arg(ext));
            QCOMPARE(widgets::exportPlot(plot, path), QString());
            QVERIFY(QFileInfo(path).size() > 1000);
        }
    QVERIFY(!QImage(dir.filePath("plot.png")).isNull());
    QFile svg(dir.filePath("plot.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));
    QVERIFY(!widgets::exportPlot(w_->costView()->plot(), dir.filePath("plot.bmpx")).isEmpty());
}

void TestMainWindow::bipolarMontage() {
    // EEG Motor Movement/Imagery: referential channels, so "Fc5.-Fc3." is a real bipolar pair.
    const QString mmi = QStringLiteral(WARPLAB_TEST_DATA "/eegmmidb/S001R03.edf");
    QVERIFY(w_->openFile(mmi));
    auto* doc = w_->document();
    doc->addRegion({io::RegionKind::Query, 2, 1.0, 2.0, ""});  // on Fc1.
    QVERIFY(doc->setMontage({"Fc5.-Fc3.", "Fc1."}));
    const auto rec = doc->recording();
    QCOMPARE(int(widgets::signalList(*rec).size()), 2);
    QCOMPARE(QString::fromStdString(widgets::signalList(*rec)[0].displayName), QString("Fc5.-Fc3."));
    QCOMPARE(w_->signalView()->plot()->graphCount(), 2);
    QCOMPARE(doc->regions().at(0).channel, 1);  // followed Fc1. into the montage
    snap(w_, "montage");
    // The derivation is the difference of the two channels read independently.
    auto raw = io::Recording::open(mmi.toStdString());
    const auto a = raw->read(raw->findSignal("Fc5."), 160, 320), b = raw->read(raw->findSignal("Fc3."), 160, 320);
    const compute::Series seg = doc->segment(0, 1.0, 3.0);
    QCOMPARE(seg.length, std::size_t(320));
    for (std::size_t i = 0; i < 320; ++i) QCOMPARE(seg.values[i], a[i] - b[i]);
    QCOMPARE(doc->montage(), (std::vector<std::string>{"Fc5.-Fc3.", "Fc1."}));

    // Sessions keep it.
    QTemporaryDir dir;
    QVERIFY(w_->saveSession(dir.filePath("m.json")));
    QVERIFY(doc->setMontage({}));
    QCOMPARE(int(widgets::signalList(*doc->recording()).size()), 64);
    QVERIFY(w_->openSession(dir.filePath("m.json")));
    QCOMPARE(doc->montage(), (std::vector<std::string>{"Fc5.-Fc3.", "Fc1."}));

    // An unknown channel is refused with a reason; the montage stays.
    QSignalSpy errors(w_, &app::MainWindow::errorShown);
    QVERIFY(!doc->setMontage({"Nope-Fc1."}));
    QCOMPARE(errors.count(), 1);
    QCOMPARE(int(widgets::signalList(*doc->recording()).size()), 2);
}

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
