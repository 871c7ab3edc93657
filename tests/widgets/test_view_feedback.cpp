// What a first-time user sees, driven offscreen through the real main window: mouse gestures
// that mark without moving, result views that never go stale (error dialogs, montage, another
// recording, an empty cost matrix), titles that say what a result was computed on, one unit
// spelling, feedback in the status bar and on the traces, annotation labels that do not
// overlap, and the keyboard back on the traces after a dialog.
#include <QApplication>
#include <QDockWidget>
#include <QScrollBar>
#include <QSplitter>
#include <QHeaderView>
#include <QTableWidget>
#include <QTabBar>
#include <QRegularExpression>
#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include "app/gui/analysis_controller.h"
#include "app/gui/dock_layout.h"
#include "app/gui/dock_tabs.h"
#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/montage_dialog.h"
#include "app/gui/region_exchange.h"
#include "app/gui/status_text.h"
#include "app/gui/unsaved_guard.h"
#include "widgets/alignment_view.h"
#include "widgets/cost_matrix_view.h"
#include "widgets/distance_matrix_view.h"
#include "widgets/elided_label.h"
#include "widgets/kernel_comparison_view.h"
#include "widgets/patterns_view.h"
#include "widgets/plot_export.h"
#include "widgets/recording_access.h"
#include "widgets/region_list.h"
#include "widgets/search_results_view.h"
#include "widgets/signal_view.h"
#include "widgets/uniform_ticker.h"

using namespace warplab;

namespace {
const QString kSeizure = QStringLiteral(WARPLAB_TEST_DATA "/chbmit/chb01_03_Seizure.edf");
const QString kNonSeizure = QStringLiteral(WARPLAB_TEST_DATA "/chbmit/chb01_03_NonSeizure.edf");
const QString kMotor = QStringLiteral(WARPLAB_TEST_DATA "/eegmmidb/S001R03.edf");

int visibleErrorDialogs(QWidget* w) {
    int n = 0;
    for (auto* box : w->findChildren<QMessageBox*>("errorDialog"))
        if (box->isVisible()) ++n;
    return n;
}

void drag(QWidget* plot, Qt::KeyboardModifiers mods, QPoint from, QPoint to) {
    QTest::mousePress(plot, Qt::LeftButton, mods, from);
    QTest::mouseMove(plot, (from + to) / 2);
    QTest::mouseMove(plot, to);
    QTest::mouseRelease(plot, Qt::LeftButton, mods, to);
}

int g_answered = 0;  // dialogs answered by answerNextDialog

// Counts the times the widget it filters is hidden itself (not with a dock or tab around it).
struct ShowHideCounter : QObject {
    int hides = 0;
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() == QEvent::Hide && static_cast<QWidget*>(o)->isHidden()) ++hides;
        return false;
    }
};

// Closes the next modal dialog once it is up: a file dialog gets `file` typed into its name
// field and accepts (empty: cancel); `typed` goes to the dialog's focused field first.
void answerNextDialog(const QString& file = {}, const QString& typed = {}, int triesLeft = 50) {
    QTimer::singleShot(100, [file, typed, triesLeft] {
        QWidget* modal = QApplication::activeModalWidget();
        if (!modal || !modal->isVisible()) {
            if (triesLeft > 0) answerNextDialog(file, typed, triesLeft - 1);
            return;
        }
        ++g_answered;
        if (!typed.isEmpty() && QApplication::focusWidget()) QTest::keyClicks(QApplication::focusWidget(), typed);
        auto* fd = qobject_cast<QFileDialog*>(modal);
        if (fd && !file.isEmpty()) {
            auto* name = fd->findChild<QLineEdit*>("fileNameEdit");
            if (name) name->setText(file);
            else fd->selectFile(file);
            QTest::keyClick(name ? static_cast<QWidget*>(name) : fd, Qt::Key_Return);
        } else if (auto* d = qobject_cast<QDialog*>(modal)) {
            d->reject();
        }
    });
}
}  // namespace

class TestViewFeedback : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName("WarpLabTests");
        QCoreApplication::setApplicationName("test_view_feedback");
        QSettings().remove(app::DockLayout::settingsKey());
        QApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
        if (!QFile::exists(kSeizure)) QSKIP("shared/data is not beside the checkout");
    }
    void init() {
        w_ = new app::MainWindow;
        w_->resize(1280, 800);
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_));
        w_->unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });  // test_unsaved_marks asks
        QVERIFY(w_->openFile(kSeizure));
    }
    void cleanup() {
        w_->jobs()->cancelAll();
        w_->jobs()->waitForIdle(60000);
        delete w_;
        w_ = nullptr;
    }

    void ctrlDragInsideSeizureMarksQueryAltDragMoves() {
        auto* sv = w_->signalView();
        auto* doc = w_->document();
        QCustomPlot* plot = sv->plot();
        doc->addRegion({io::RegionKind::Seizure, -1, 2.0, 8.0, ""});
        sv->setMarkKind(io::RegionKind::Query);
        drag(plot, Qt::ControlModifier, sv->plotPoint(3.0, 5), sv->plotPoint(5.0, 5));
        QCOMPARE(int(doc->regions().size()), 2);
        QCOMPARE(doc->regions()[0].kind, io::RegionKind::Seizure);
        QCOMPARE(doc->regions()[0].startS, 2.0);  // where it was
        QCOMPARE(doc->regions()[0].endS, 8.0);
        const io::Region q = doc->regions()[1];
        QCOMPARE(q.kind, io::RegionKind::Query);
        QCOMPARE(q.channel, 5);
        const double pixel = sv->windowLength() / plot->axisRect()->width();
        QVERIFY2(std::abs(q.startS - 3.0) <= 2 * pixel && std::abs(q.endS - 5.0) <= 2 * pixel, qPrintable(QString::number(q.startS)));
        // A plain drag inside marks too (over all channels), never moves.
        drag(plot, Qt::NoModifier, sv->plotPoint(6.0, 9), sv->plotPoint(7.0, 9));
        QCOMPARE(int(doc->regions().size()), 3);
        QCOMPARE(doc->regions()[0].startS, 2.0);
        // Alt+drag inside the seizure (away from the query) moves it by the drag.
        drag(plot, Qt::AltModifier, sv->plotPoint(2.5, 12), sv->plotPoint(3.5, 12));
        QCOMPARE(int(doc->regions().size()), 3);
        QVERIFY2(std::abs(doc->regions()[0].startS - 3.0) <= 2 * pixel, qPrintable(QString::number(doc->regions()[0].startS)));
        QVERIFY(std::abs((doc->regions()[0].endS - doc->regions()[0].startS) - 6.0) < 1e-9);
        QCOMPARE(doc->regions()[1].startS, q.startS);  // the query stayed
        // Both gestures are in the help (built from the action table).
        QString move, mark;
        for (const auto& s : w_->actions().specs()) {
            if (s.id == "signal.move") move = s.keysText;
            if (s.id == "signal.ctrlDrag") mark = s.keysText;
        }
        QVERIFY2(move.contains("Alt"), qPrintable(move));
        QVERIFY2(mark.contains("Ctrl"), qPrintable(mark));
    }

    void missingReferenceDialogClosesOnceAlignRuns() {
        auto* doc = w_->document();
        doc->addRegion({io::RegionKind::Query, 0, 1.0, 2.0, ""});
        QCOMPARE(w_->analysis()->alignMarkedRegions(), quint64(0));
        QCOMPARE(visibleErrorDialogs(w_), 1);
        QCOMPARE(w_->analysis()->alignMarkedRegions(), quint64(0));  // a second try replaces, no pile
        QTest::qWait(50);
        QCOMPARE(visibleErrorDialogs(w_), 1);
        // Another error's dialog is not this analysis's business.
        w_->showError("Cannot open x.edf", "unrelated");
        QCOMPARE(visibleErrorDialogs(w_), 2);
        doc->addRegion({io::RegionKind::Reference, 0, 5.0, 6.0, ""});
        QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w_->analysis()->alignMarkedRegions() != 0);
        QTRY_COMPARE(visibleErrorDialogs(w_), 1);
        for (auto* box : w_->findChildren<QMessageBox*>("errorDialog"))
            if (box->isVisible()) QCOMPARE(box->windowTitle(), QString("Cannot open x.edf"));
        QVERIFY(finished.wait(60000));
    }

    void montageClearsTheDistanceMatrix() {
        QVERIFY(w_->openFile(kMotor));
        w_->signalView()->setWindow(0, 2);
        QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w_->analysis()->channelDistanceMatrix() != 0);
        QVERIFY(finished.wait(120000));
        auto* dm = w_->distanceView();
        QVERIFY(dm->matrix());
        QVERIFY2(dm->source().contains("S001R03.edf"), qPrintable(dm->source()));
        QVERIFY(w_->document()->setMontage({"Fc5.-Fc3.", "Fc1."}));
        QVERIFY(!dm->matrix());
        QVERIFY(dm->source().isEmpty());
        // Hovering where a cell was names nothing.
        QTest::mouseMove(dm->plot(), dm->plot()->rect().center());
        QCOMPARE(dm->hoverText().trimmed(), QString());
    }

    // Another recording: the distance matrix goes with its axes (no stale ranges, no channel
    // names), the view says there is none; the next matrix brings axes named for its channels.
    void anotherRecordingLeavesNoEmptyMatrixAxes() {
        QVERIFY(w_->openFile(kMotor));
        w_->signalView()->setWindow(0, 2);
        QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w_->analysis()->channelDistanceMatrix() != 0);
        QVERIFY(finished.wait(120000));
        auto* dm = w_->distanceView();
        QTRY_VERIFY(dm->axesShown());
        QVERIFY(w_->openFile(kSeizure));
        QVERIFY(!dm->matrix());
        QVERIFY(!dm->axesShown());
        const auto* info = dm->findChild<QLabel*>("matrixInfo");
        QVERIFY(info);
        QVERIFY2(info->text().startsWith("No distance matrix"), qPrintable(info->text()));
        if (const QString dir = qEnvironmentVariable("WARPLAB_TEST_SCREENSHOTS"); !dir.isEmpty())
            dm->grab().save(dir + "/distance_matrix_cleared.png");
        w_->signalView()->setWindow(0, 2);
        QVERIFY(w_->analysis()->channelDistanceMatrix() != 0);
        QVERIFY(finished.wait(120000));
        QTRY_VERIFY(dm->axesShown());
        dm->plot()->replot();
        QVERIFY(dm->plot()->yAxis->tickVectorLabels().contains("F7-T7"));
        QVERIFY2(dm->source().contains("chb01_03_Seizure.edf"), qPrintable(dm->source()));
    }

    // A colour bar's numbers share one format (fixed with the same decimals, or scientific
    // with the same mantissa digits), and the bar names its unit.
    void colourBarsHaveOneNumberFormat() {
        using L = QVector<QString>;
        QCOMPARE(widgets::uniformTickLabels({0, 500, 1000, 1500}), (L{"0", "500", "1000", "1500"}));
        QCOMPARE(widgets::uniformTickLabels({0.5, 1, 1.5}), (L{"0.5", "1.0", "1.5"}));
        QCOMPARE(widgets::uniformTickLabels({-1e-17, 0.25, 0.5}), (L{"0", "0.25", "0.50"}));
        QCOMPARE(widgets::uniformTickLabels({0, 5e5, 1e6, 1.5e6}), (L{"0", "5.0e+05", "1.0e+06", "1.5e+06"}));
        QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w_->analysis()->alignExample() != 0);
        QVERIFY(finished.wait(60000));
        QCPColorScale* bar = nullptr;
        for (QCPLayoutElement* e : w_->costView()->plot()->plotLayout()->elements(true))
            if (auto* s = dynamic_cast<QCPColorScale*>(e)) bar = s;
        QVERIFY(bar && bar->visible());
        w_->costView()->plot()->replot();
        const QVector<QString> labels = bar->axis()->tickVectorLabels();
        QVERIFY(labels.size() >= 2);
        const QString first = labels.front() == "0" ? labels[1] : labels.front();
        const bool scientific = first.contains('e');
        const int decimals = first.contains('.') ? int(first.section('e', 0, 0).section('.', 1).size()) : 0;
        for (const QString& l : labels) {
            if (l == "0") continue;
            QVERIFY2(l.contains('e') == scientific, qPrintable(QStringList(labels.toList()).join(" ")));
            const int d = l.contains('.') ? int(l.section('e', 0, 0).section('.', 1).size()) : 0;
            QVERIFY2(d == decimals, qPrintable(QStringList(labels.toList()).join(" ")));
        }
        QVERIFY2(w_->costView()->colorScaleLabel().contains("µV"), qPrintable(w_->costView()->colorScaleLabel()));
        if (const QString dir = qEnvironmentVariable("WARPLAB_TEST_SCREENSHOTS"); !dir.isEmpty())
            w_->costView()->grab().save(dir + "/cost_matrix_colour_bar.png");
    }

    // At 1280 x 800 the regions list fits its dock: every column in view, the header "note"
    // whole, one line a region; a long note is cut with "…", whole in its tooltip and, for
    // the selected region, on the line below the table.
    void regionListFitsItsDock() {
        auto* doc = w_->document();
        const std::string note = "annotation: seizure onset on the left temporal chain";
        doc->addRegion({io::RegionKind::Reference, doc->recording()->findSignal("FT10-T8"), 142.5, 182.25, note});
        auto* list = w_->regionList();
        QTableWidget* table = list->table();
        QTRY_VERIFY(table->rowCount() >= 1);
        const int row = table->rowCount() - 1;
        QTest::qWait(100);  // the header lays its sections out on the next event loop pass
        int used = 0;
        QStringList widths;
        for (int c = 0; c < table->columnCount(); ++c) {
            used += table->columnWidth(c);
            widths << QString::number(table->columnWidth(c));
        }
        QVERIFY2(used <= table->viewport()->width() + 1,
                 qPrintable(QString("%1 > %2 (%3) min %4 header %5 visible %6").arg(used).arg(table->viewport()->width()).arg(widths.join(" + "))
                 .arg(table->horizontalHeader()->minimumSectionSize()).arg(table->horizontalHeader()->width()).arg(table->isVisible())));
        const QFontMetrics fm(table->horizontalHeader()->font());
        for (int c = 0; c < table->columnCount(); ++c) {
            const QString header = table->horizontalHeaderItem(c)->text();
            QVERIFY2(table->columnWidth(c) >= fm.horizontalAdvance(header), qPrintable(header));
        }
        for (int c = 0; c < 3; ++c) {  // kind, channel, time: whole
            const QString text = table->item(row, c)->text();
            QVERIFY2(table->columnWidth(c) >= QFontMetrics(table->font()).horizontalAdvance(text), qPrintable(text));
        }
        QVERIFY(!table->wordWrap());
        QCOMPARE(table->item(row, 3)->toolTip(), QString::fromStdString(note));
        list->selectRegion(row);
        auto* whole = list->findChild<QLabel*>("regionNote");
        QVERIFY(whole && whole->isVisible());
        QVERIFY2(whole->text().contains(QString::fromStdString(note)), qPrintable(whole->text()));
        QVERIFY(whole->width() <= list->width());
        if (const QString dir = qEnvironmentVariable("WARPLAB_TEST_SCREENSHOTS"); !dir.isEmpty())
            list->grab().save(dir + "/regions_list.png");
    }

    // The walkthrough's afternoon: a three-channel montage, filters, then the distance matrix.
    void distanceMatrixOfAFilteredMontage() {
        auto* doc = w_->document();
        // The plot widget is never hidden or shown again on the way (only its axes are): a
        // widget shown from inside a job's result re-lays out the whole window at once.
        ShowHideCounter shows;
        w_->distanceView()->plot()->installEventFilter(&shows);
        quint64 bench = 0;
        {  // the matrix of every channel first, as the walkthrough has it before the montage
            QSignalSpy done(w_->jobs(), &app::JobRunner::jobFinished);
            QVERIFY(w_->analysis()->channelDistanceMatrix() != 0);
            QVERIFY(done.wait(60000));
            bench = w_->analysis()->runKernelComparison();
            QVERIFY(bench != 0);
        }
        w_->signalView()->setWindow(68.5, 10);
        QVERIFY(!app::applyMontage(*doc, *w_->signalView(), {"FP1-F7", "F7-T7", "T7-P7"}, {}).isEmpty());
        io::FilterSettings f;
        f.highpassHz = 1;
        f.lowpassHz = 30;
        f.notchHz = 60;
        doc->setFilters(f);
        QVERIFY(!w_->distanceView()->axesShown());
        const quint64 matrix = w_->analysis()->channelDistanceMatrix();
        QVERIFY(matrix != 0);
        // Both results land (the kernel comparison still running while the matrix starts).
        QTRY_VERIFY_WITH_TIMEOUT(!w_->jobs()->isActive(matrix) && !w_->jobs()->isActive(bench), 300000);
        QVERIFY(w_->distanceView()->matrix());
        QCOMPARE(int(w_->distanceView()->matrix()->rows), 3);
        QVERIFY(w_->distanceView()->axesShown());
        QVERIFY(!w_->distanceView()->plot()->isHidden());
        QCOMPARE(shows.hides, 0);
    }

    void anotherRecordingClearsEveryResult() {
        QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w_->analysis()->alignExample() != 0);
        QVERIFY(finished.wait(60000));
        QVERIFY(w_->costView()->alignment());
        QVERIFY(w_->costView()->source().contains("chb01_03_Seizure.edf"));
        QVERIFY(w_->analysis()->searchQuery() != 0);
        QVERIFY(finished.wait(120000));
        QVERIFY(w_->searchView()->matchCount() > 0);
        QVERIFY(w_->openFile(kNonSeizure));
        QVERIFY(!w_->costView()->alignment());
        QVERIFY(w_->costView()->source().isEmpty());
        QVERIFY(w_->alignmentView()->source().isEmpty());
        QCOMPARE(w_->searchView()->matchCount(), 0);
        QVERIFY(w_->searchView()->source().isEmpty());
        QVERIFY(!w_->distanceView()->matrix());
        QVERIFY(!w_->patternsView()->ranking());
    }

    void emptyCostMatrixShowsNoColourBar() {
        QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w_->analysis()->alignExample() != 0);
        QVERIFY(finished.wait(60000));
        QVERIFY(w_->costView()->hasMatrix());
        QVERIFY(w_->costView()->colorScaleShown());
        w_->analysis()->setMemoryBudget(16);  // the low-memory path: a distance, no matrix
        QVERIFY(w_->analysis()->alignMarkedRegions() != 0);
        QVERIFY(finished.wait(60000));
        QVERIFY(!w_->costView()->hasMatrix());
        QVERIFY(!w_->costView()->colorScaleShown());
    }

    void resultTitlesNameRecordingChannelsMetricBandAndRange() {
        QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w_->analysis()->alignExample() != 0);
        QVERIFY(finished.wait(60000));
        for (const QString& s : {w_->costView()->source(), w_->alignmentView()->source()}) {
            QVERIFY2(s.contains("chb01_03_Seizure.edf"), qPrintable(s));
            QVERIFY2(s.contains("23 channels as recorded"), qPrintable(s));
            QVERIFY2(s.contains("dtw, no band"), qPrintable(s));
            QVERIFY2(s.contains(" s]"), qPrintable(s));  // the time ranges of x and y
        }
        // Shown whole at 1280 x 800, on two lines where one is too short: the metric and band
        // come last and were cut off.
        for (QWidget* view : {static_cast<QWidget*>(w_->costView()), static_cast<QWidget*>(w_->alignmentView())}) {
            auto* dock = qobject_cast<QDockWidget*>(view->parentWidget());
            if (dock) dock->raise();
            QTest::qWait(100);
            auto* label = view->findChild<widgets::ElidedLabel*>("resultSource");
            QVERIFY(label && label->isVisible());
            QVERIFY2(!label->isElided(), qPrintable(label->text()));
            QVERIFY2(label->text().contains("dtw, no band"), qPrintable(label->text()));
            for (const QString& line : label->text().split('\n'))
                QVERIFY2(label->fontMetrics().horizontalAdvance(line) <= label->contentsRect().width(), qPrintable(line));
            QVERIFY(label->height() >= label->fontMetrics().height() * int(label->text().split('\n').size()));
        }
        w_->signalView()->setWindow(10, 1);
        QVERIFY(w_->analysis()->channelDistanceMatrix() != 0);
        QVERIFY(finished.wait(120000));
        const QString dm = w_->distanceView()->source();
        QVERIFY2(dm.startsWith("from chb01_03_Seizure.edf") && dm.contains("dtw"), qPrintable(dm));
        const QString dmTitle = w_->distanceView()->plot()->property(widgets::kExportTitleProperty).toString();
        QVERIFY2(dmTitle.contains("10.0–11.0 s") && dmTitle.contains("chb01_03_Seizure.edf"), qPrintable(dmTitle));
        QVERIFY(w_->analysis()->searchQuery() != 0);
        QVERIFY(finished.wait(120000));
        const QString se = w_->searchView()->source();
        QVERIFY2(se.contains("sdtw") && se.contains("chb01_03_Seizure.edf") && se.contains("channels as recorded"), qPrintable(se));
    }

    void nearestEpochsInTheAxisClockTime() {
        auto* doc = w_->document();
        doc->addRegion({io::RegionKind::Seizure, -1, 20.0, 41.0, ""});
        QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w_->analysis()->findPatterns(0) != 0);
        QVERIFY(finished.wait(120000));
        auto ranking = w_->patternsView()->ranking();
        QVERIFY(ranking && !ranking->ranked.empty());
        const QString source = w_->patternsView()->source();
        QVERIFY2(source.contains("cdtw, band") && source.contains("chb01_03_Seizure.edf"), qPrintable(source));
        // The recording's clock, as the traces' top axis: its start plus the epoch's time.
        QDateTime start = QDateTime::fromString(QString::fromStdString(doc->recording()->startIso()), Qt::ISODate);
        QVERIFY(start.isValid());
        start.setTimeSpec(Qt::UTC);
        const auto& first = ranking->ranked[0].nearest.at(0);
        const QString expected = start.addMSecs(qint64(std::llround(first.startS * 1000))).toString("hh:mm:ss.zzz");
        const QString item = w_->patternsView()->nearestList()->item(0)->text();
        QVERIFY2(item.startsWith(expected.section('.', 0, 0) + " "), qPrintable(item + " / " + expected));  // to the second, as the table
        QVERIFY2(w_->patternsView()->nearestList()->item(0)->toolTip().startsWith(expected), qPrintable(expected));
        const QString heading = w_->patternsView()->nearestHeading()->text();
        QVERIFY2(heading.contains(QString::fromUtf8("\u00b5V\u00b2")), qPrintable(heading));  // µV, never uV
    }

    // The nearest epochs in one number format (the histogram's power of ten, two decimals),
    // each on one line that fits the list at 1280 x 800, the whole entry in its tooltip; the
    // histogram's axis title fits its plot.
    void nearestEpochsFitInOneFormat() {
        w_->document()->addRegion({io::RegionKind::Seizure, -1, 20.0, 41.0, ""});
        QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w_->analysis()->findPatterns(0) != 0);
        QVERIFY(finished.wait(120000));
        w_->findChild<QDockWidget*>("patternsDock")->raise();
        QTest::qWait(200);
        auto* view = w_->patternsView();
        QListWidget* list = view->nearestList();
        QVERIFY(list->isVisible() && list->count() >= 2);
        QVERIFY(!list->wordWrap());
        const QRegularExpression format(QStringLiteral("^\\d\\d:\\d\\d:\\d\\d · #\\d+ · \\d+\\.\\d\\d · (ictal|interictal)$"));
        const QFontMetrics fm(list->font());
        for (int k = 0; k < list->count(); ++k) {
            const QListWidgetItem* item = list->item(k);
            QVERIFY2(format.match(item->text()).hasMatch(), qPrintable(item->text()));
            QVERIFY2(fm.horizontalAdvance(item->text()) <= list->viewport()->width() - 8,
                     qPrintable(QString("%1 > %2").arg(fm.horizontalAdvance(item->text())).arg(list->viewport()->width())));
            QVERIFY2(item->toolTip().contains("distance") && item->toolTip().contains(QString::fromUtf8("\u00b5V\u00b2")), qPrintable(item->toolTip()));
        }
        const QString heading = view->nearestHeading()->text();
        QVERIFY2(heading.contains(QString::fromUtf8("\u00d710")), qPrintable(heading));  // millions of µV², as the axis
        QCustomPlot* hist = view->histogramPlot();
        hist->replot();
        const QString title = hist->xAxis->label();
        const QString unit = heading.section('(', 1).section(')', 0, 0);  // "×10⁶ µV²"
        QVERIFY2(title.endsWith("(" + unit + ")"), qPrintable(title + " / " + heading));
        QVERIFY2(QFontMetrics(hist->xAxis->labelFont()).horizontalAdvance(title) <= hist->xAxis->axisRect()->width(),
                 qPrintable(QString("%1: %2 px").arg(title).arg(hist->xAxis->axisRect()->width())));
        // The legend's row above the bars holds both entries whole.
        QVERIFY2(hist->legend->minimumOuterSizeHint().width() <= hist->legend->outerRect().width(),
                 qPrintable(QString("legend %1 > %2 px").arg(hist->legend->minimumOuterSizeHint().width()).arg(hist->legend->outerRect().width())));
        QVERIFY(!hist->legend->outerRect().intersects(hist->xAxis->axisRect()->rect()));
        if (const QString dir = qEnvironmentVariable("WARPLAB_TEST_SCREENSHOTS"); !dir.isEmpty())
            view->grab().save(dir + "/patterns_nearest.png");
    }

    // Every tab of the result docks reads whole at 1280 x 800: no scroll arrows, the tabs under
    // the docks where they fit across, beside them where they do not; each names its dock in
    // full in its tooltip. Then with the study, spectrum and band docks open too.
    void dockTabsReadableAt1280() {
        auto check = [this](const char* when) {
            QTest::qWait(200);  // DockTabs arranges them on the next pass
            int bars = 0;
            for (QTabBar* bar : w_->findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
                if (!bar->isVisible() || bar->count() < 2) continue;
                ++bars;
                const bool vertical = bar->shape() == QTabBar::RoundedEast || bar->shape() == QTabBar::RoundedWest;
                const int room = vertical ? bar->height() : bar->width();
                QVERIFY2(app::DockTabs::tabsLength(bar) <= room,
                         qPrintable(QString("%1: tabs %2 px > %3 px (%4)").arg(when).arg(app::DockTabs::tabsLength(bar)).arg(room).arg(vertical)));
                for (int i = 0; i < bar->count(); ++i) {
                    QVERIFY2(!bar->tabToolTip(i).isEmpty(), qPrintable(bar->tabText(i)));
                    const QRect r = bar->tabRect(i);
                    const int length = vertical ? r.height() : r.width();
                    QVERIFY2(length >= bar->fontMetrics().horizontalAdvance(bar->tabText(i)), qPrintable(bar->tabText(i)));
                }
            }
            QVERIFY2(bars >= 1, when);
            // The tabs beside the docks take width: the window still fits the screen's.
            QVERIFY2(w_->width() <= 1280 && w_->minimumSizeHint().width() <= 1280,
                     qPrintable(QString("%1: window %2 px, at least %3 px").arg(when).arg(w_->width()).arg(w_->minimumSizeHint().width())));
        };
        QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w_->analysis()->alignExample() != 0);
        QVERIFY(finished.wait(60000));
        check("first result");
        auto* patterns = w_->findChild<QDockWidget*>("patternsDock");
        QVERIFY2(patterns->property("tabToolTip").toString().contains("Seizure patterns"), "the tab's tooltip has the whole name");
        for (const char* name : {"studyResultsDock", "spectrumDock", "bandsDock"}) w_->findChild<QDockWidget*>(name)->show();
        check("every result dock open");
        w_->findChild<QDockWidget*>("studyDock")->show();  // the study strip above, as with a study open
        check("every result dock and the study strip open");
        w_->findChild<QDockWidget*>("detectionDock")->show();
        check("every result dock, the Detection dock too, and the study strip open");
        if (const QString dir = qEnvironmentVariable("WARPLAB_TEST_SCREENSHOTS"); !dir.isEmpty())
            w_->grab().save(dir + "/dock_tabs_1280.png");
    }

    // A status message longer than the room beside the progress strip is cut with "…" (not
    // mid-letter), the whole message in the status bar's tooltip; the Devices row fits.
    void statusMessagesAndDevicesFit() {
        auto* text = w_->statusBar()->findChild<app::StatusText*>();
        QVERIFY(text);
        const QString message = QString("Montage applied: 3 channels; time window kept; ").repeated(12) + "end";
        w_->statusBar()->showMessage(message, 10000);
        QTest::qWait(50);
        const QString shown = text->shownText();
        QVERIFY2(shown.endsWith(QChar(0x2026)), qPrintable(shown));
        QVERIFY(w_->statusBar()->fontMetrics().horizontalAdvance(shown) <= text->messageRect().width());
        QCOMPARE(w_->statusBar()->toolTip(), message);
        w_->statusBar()->grab();  // paints through StatusText
        w_->statusBar()->showMessage("Cancelled", 5000);
        QCOMPARE(text->shownText(), QString("Cancelled"));
        QCOMPARE(w_->statusBar()->toolTip(), QString("Cancelled"));
        auto* devices = w_->findChild<widgets::ElidedLabel*>("devices");
        QVERIFY(devices && devices->isVisible());
        QVERIFY2(!devices->isElided(), qPrintable(devices->fullText()));
    }

    void exportedPlotCarriesItsTitle() {
        QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w_->analysis()->alignExample() != 0);
        QVERIFY(finished.wait(60000));
        QTemporaryDir dir;
        QCustomPlot* plot = w_->costView()->plot();
        const QString title = w_->costView()->source();
        QVERIFY(!title.isEmpty());
        QCOMPARE(widgets::exportPlot(plot, dir.filePath("c.png")), QString());
        const QImage png(dir.filePath("c.png"));
        QVERIFY(png.height() > plot->height());  // the title block above the plot
        QCOMPARE(png.text("Title"), title);
        QCOMPARE(widgets::exportPlot(plot, dir.filePath("c.svg")), QString());
        QFile svg(dir.filePath("c.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(svg.readAll()).contains(title.toHtmlEscaped()));
        QCOMPARE(widgets::exportPlot(plot, dir.filePath("c.pdf")), QString());
        QVERIFY(QFileInfo(dir.filePath("c.pdf")).size() > 1000);
        // The traces export with the recording and the window.
        QCOMPARE(widgets::exportPlot(w_->signalView()->plot(), dir.filePath("t.png")), QString());
        QVERIFY(QImage(dir.filePath("t.png")).text("Title").contains("chb01_03_Seizure.edf · 23 channels · 0.0–10.0 s"));
    }

    void matrixExportAndSessionOpenSaySo() {
        QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
        w_->signalView()->setWindow(0, 1);
        QVERIFY(w_->analysis()->channelDistanceMatrix() != 0);
        QVERIFY(finished.wait(120000));
        QTemporaryDir dir;
        const QString path = dir.filePath("m.csv");
        QPushButton* button = nullptr;
        for (auto* b : w_->distanceView()->findChildren<QPushButton*>())
            if (QString(b->text()).remove('&').startsWith("Export matrix")) button = b;
        QVERIFY(button);
        answerNextDialog(path);
        button->click();
        QVERIFY(QFile::exists(path));
        QVERIFY2(w_->statusBar()->currentMessage().contains(path), qPrintable(w_->statusBar()->currentMessage()));

        const QString session = dir.filePath("s.warplab.json");
        w_->document()->addRegion({io::RegionKind::Seizure, -1, 1.0, 3.0, ""});
        QVERIFY(w_->saveSession(session));
        w_->statusBar()->clearMessage();
        QVERIFY(w_->openSession(session));
        const QString said = w_->statusBar()->currentMessage();
        QVERIFY2(said.contains("Session opened") && said.contains(session) && said.contains("1 region"), qPrintable(said));
    }

    void filtersAreShownOnTheTraces() {
        auto* label = w_->signalView()->findChild<widgets::ElidedLabel*>("filterLabel");
        QVERIFY(label);
        QVERIFY(!label->isVisible());
        io::FilterSettings f;
        f.highpassHz = 1;
        f.lowpassHz = 30;
        f.notchHz = 60;
        w_->document()->setFilters(f);
        QCOMPARE(w_->signalView()->filterText(), QString::fromUtf8("Filters: 1\u201330 Hz, notch 60 Hz"));
        QVERIFY(label->isVisible());
        QCOMPARE(label->fullText(), w_->signalView()->filterText());
        w_->document()->setFilters({});
        QVERIFY(!label->isVisible());
    }

    void annotationLabelsDoNotOverlap() {
        if (!QFile::exists(kMotor)) QSKIP("eegmmidb not in shared/data");
        QVERIFY(w_->openFile(kMotor));  // task markers every ~4 s
        auto* sv = w_->signalView();
        sv->setWindow(0, 300);  // 125 s of markers in 40 % of the width: crowded
        QTest::qWait(50);
        const auto labels = sv->annotationLabels();
        QVERIFY(labels.size() > 20);
        int shown = 0;
        bool staggered = false;
        for (std::size_t a = 0; a < labels.size(); ++a) {
            if (labels[a].shown.isEmpty()) continue;
            ++shown;
            staggered = staggered || labels[a].row > 0;
            const int width = QFontMetrics(QFont(sv->font().family(), 8, QFont::Bold)).horizontalAdvance(labels[a].shown);
            const QRect ra(labels[a].rect.left() + 3, labels[a].rect.top(), width, labels[a].rect.height());
            for (std::size_t b = a + 1; b < labels.size(); ++b) {
                if (labels[b].shown.isEmpty() || labels[b].row != labels[a].row) continue;
                const QRect rb(labels[b].rect.left() + 3, labels[b].rect.top(), 1, labels[b].rect.height());
                QVERIFY2(ra.right() < rb.left(), qPrintable(QString("%1 over %2").arg(labels[a].shown, labels[b].shown)));
            }
        }
        QVERIFY(shown > 10);
        QVERIFY(staggered);
    }

    void focusReturnsToTheTracesAfterADialog() {
        auto* sv = w_->signalView();
        w_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w_));
        // A file dialog opened and cancelled.
        g_answered = 0;
        answerNextDialog();
        w_->actions().action("file.open")->trigger();
        QCOMPARE(g_answered, 1);
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(sv));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Q);
        QCOMPARE(sv->markKind(), io::RegionKind::Query);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_S);
        QCOMPARE(sv->markKind(), io::RegionKind::Seizure);
        // Typed text in a dialog stays there: "-" in the montage text does not change the scale.
        const double scale = sv->unitsPerRow();
        answerNextDialog({}, "-T7");
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_M, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(sv));
        QCOMPARE(g_answered, 2);  // Ctrl+Shift+M opened the montage dialog
        QCOMPARE(sv->unitsPerRow(), scale);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_R);
        QCOMPARE(sv->markKind(), io::RegionKind::Reference);
    }

    // At 1280 x 800 with the result docks open the traces narrow; the filters keep a row of
    // their own, shown whole, the tooltip with the whole text.
    void filtersLegibleWithTheResultDocksOpen() {
        io::FilterSettings f;
        f.highpassHz = 1;
        f.lowpassHz = 30;
        f.notchHz = 60;
        w_->document()->setFilters(f);
        QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w_->analysis()->alignExample() != 0);
        QVERIFY(finished.wait(60000));
        QTest::qWait(100);
        QVERIFY(w_->findChild<QDockWidget*>("costDock")->isVisible());
        QVERIFY(w_->signalView()->width() < 0.7 * w_->width());  // the docks took their room
        auto* label = w_->signalView()->findChild<widgets::ElidedLabel*>("filterLabel");
        QVERIFY(label && label->isVisible());
        QVERIFY2(!label->isElided(), qPrintable(label->text()));
        QCOMPARE(label->text(), w_->signalView()->filterText());
        QVERIFY(label->contentsRect().width() >= label->fontMetrics().horizontalAdvance(label->text()));
        QVERIFY2(label->toolTip().contains(w_->signalView()->filterText()), qPrintable(label->toolTip()));
    }

    // The patterns table fits its share of the dock (no sideways scrolling) and the histogram's
    // tick labels do not run into each other.
    void patternsTableAndHistogramFitAt1280() {
        w_->document()->addRegion({io::RegionKind::Seizure, -1, 20.0, 41.0, ""});
        QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w_->analysis()->findPatterns(0) != 0);
        QVERIFY(finished.wait(120000));
        auto* dock = w_->findChild<QDockWidget*>("patternsDock");
        QVERIFY(dock);
        dock->raise();
        QTest::qWait(200);
        auto* view = w_->patternsView();
        QVERIFY(view->ranking() && !view->ranking()->ranked.empty());
        auto* table = view->findChild<QTableWidget*>();
        QVERIFY(table && table->isVisible());
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        QCustomPlot* hist = nullptr;
        for (auto* p : view->findChildren<QCustomPlot*>())
            if (p->yAxis->label() == "epochs") hist = p;
        QVERIFY(hist);
        hist->replot();
        QCPAxis* x = hist->xAxis;
        const QVector<double> ticks = x->tickVector();
        const QVector<QString> labels = x->tickVectorLabels();
        QVERIFY(ticks.size() >= 2);
        const QFontMetrics fm(x->tickLabelFont());
        for (int i = 1; i < ticks.size(); ++i) {
            const double gap = x->coordToPixel(ticks[i]) - x->coordToPixel(ticks[i - 1]);
            const double need = (fm.horizontalAdvance(labels[i - 1]) + fm.horizontalAdvance(labels[i])) / 2.0;
            QVERIFY2(gap > need, qPrintable(labels[i - 1] + " / " + labels[i]));
        }
    }

    // A one-channel region on a channel the montage lacks is kept aside with its channel, never
    // turned into an all-channel region; it comes back with a montage that has the channel, and
    // the status bar says both.
    void oneChannelRegionsKeepTheirChannelThroughAMontage() {
        auto* doc = w_->document();
        const int f7t7 = doc->recording()->findSignal("F7-T7");
        QVERIFY(f7t7 >= 0);
        doc->addRegion({io::RegionKind::Query, f7t7, 3.0, 4.0, "mine"});
        doc->addRegion({io::RegionKind::Seizure, -1, 5.0, 9.0, ""});
        QString said = app::applyMontage(*doc, *w_->signalView(), {"FP1-F7", "T7-P7"}, {});
        QCOMPARE(int(doc->regions().size()), 1);
        QCOMPARE(doc->regions()[0].channel, -1);
        QCOMPARE(doc->regions()[0].kind, io::RegionKind::Seizure);
        QCOMPARE(int(doc->parkedRegions().size()), 1);
        QVERIFY2(said.contains("F7-T7") && said.contains("hidden"), qPrintable(said));
        // Back with a montage that has F7-T7 (at another index), then as recorded.
        said = app::applyMontage(*doc, *w_->signalView(), {"T7-P7", "F7-T7"}, {});
        QCOMPARE(int(doc->regions().size()), 2);
        QCOMPARE(doc->regions()[1].kind, io::RegionKind::Query);
        QCOMPARE(doc->regions()[1].channel, 1);
        QCOMPARE(doc->regions()[1].note, std::string("mine"));
        QCOMPARE(doc->regions()[1].startS, 3.0);
        QVERIFY(doc->parkedRegions().empty());
        QVERIFY2(said.contains("shown again"), qPrintable(said));
        app::applyMontage(*doc, *w_->signalView(), {}, {});
        QCOMPARE(doc->regions()[1].channel, f7t7);
        QVERIFY(doc->montageRegionNote().isEmpty());
        // Opening another recording drops what was kept aside with the old one.
        QVERIFY(doc->setMontage({"FP1-F7"}));
        QCOMPARE(int(doc->parkedRegions().size()), 1);
        QVERIFY(w_->openFile(kNonSeizure));
        QVERIFY(doc->parkedRegions().empty());
    }

    // Counts read as words: "1 channel", "1 region", "2 regions", never "(s)".
    void countsAreSingularOrPlural() {
        auto* doc = w_->document();
        QString said = app::applyMontage(*doc, *w_->signalView(), {"F7-T7"}, {});
        QVERIFY2(said.contains("Montage applied: 1 channel;"), qPrintable(said));
        said = app::applyMontage(*doc, *w_->signalView(), {"F7-T7", "T7-P7"}, {});
        QVERIFY2(said.contains("Montage applied: 2 channels;"), qPrintable(said));
        QTemporaryDir dir;
        doc->addRegion({io::RegionKind::Seizure, -1, 5.0, 9.0, ""});
        app::RegionExchangeResult r = app::exportRegions(*doc, dir.filePath("one.csv"));
        QVERIFY2(r.ok && r.message.startsWith("1 region exported"), qPrintable(r.message));
        doc->addRegion({io::RegionKind::Seizure, -1, 10.0, 12.0, ""});
        r = app::exportRegions(*doc, dir.filePath("two.csv"));
        QVERIFY2(r.ok && r.message.startsWith("2 regions exported"), qPrintable(r.message));
        const QString session = dir.filePath("s.json");
        QVERIFY(w_->saveSession(session));
        QVERIFY(w_->openSession(session));
        said = w_->statusBar()->currentMessage();
        QVERIFY2(said.contains(", 2 regions") && !said.contains("(s)"), qPrintable(said));
        for (const QString& text : {said, r.message}) QVERIFY2(!text.contains("(s)"), qPrintable(text));
    }

    // The kernel comparison times synthetic series: a montage (or another recording) leaves it
    // running, while the recording's own jobs are cancelled.
    void kernelComparisonOutlivesAMontage() {
        auto* view = w_->kernelView();
        view->setLengths("2048");
        view->setPairs(64);
        QSignalSpy cancelled(w_->jobs(), &app::JobRunner::jobCancelled);
        QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
        const quint64 bench = w_->analysis()->runKernelComparison();
        QVERIFY(bench != 0);
        w_->document()->addRegion({io::RegionKind::Seizure, -1, 20.0, 41.0, ""});
        const quint64 patterns = w_->analysis()->findPatterns(0);
        QVERIFY(patterns != 0);
        QVERIFY2(w_->jobs()->isActive(bench), "the comparison ended before the montage: make it longer");
        QVERIFY(w_->document()->setMontage({"FP1-F7", "F7-T7"}));
        QVERIFY(w_->jobs()->isActive(bench));
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(cancelled.first().at(1).toString(), QString("patterns"));
        QTRY_VERIFY_WITH_TIMEOUT(!w_->jobs()->isActive(bench), 300000);
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(!view->results().empty());
    }

private:
    app::MainWindow* w_ = nullptr;
};

QTEST_MAIN(TestViewFeedback)
#include "test_view_feedback.moc"
