// What a first-time user meets on the bundled sample: the search never returns its own place,
// ranges past the end of the recording are named as analysed (clipped), a montage keeps the
// time window and says what it cleared, its dialog speaks in lines and keeps the typed text,
// and the sample's annotated seizure is marked when it opens (a setting turns that off).
// Offscreen, on resources/sample.
#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QUndoStack>
#include <QtTest>

#include <cmath>

#include "app/gui/analysis_controller.h"
#include "app/gui/annotated_seizures.h"
#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/montage_dialog.h"
#include "compute/core/overlap_exclusion.h"
#include "widgets/cost_matrix_view.h"
#include "widgets/distance_matrix_view.h"
#include "widgets/metric_panel.h"
#include "widgets/recording_access.h"
#include "widgets/search_options_bar.h"
#include "widgets/search_results_view.h"
#include "widgets/signal_view.h"

using namespace warplab;

namespace {
const QString kSample = QStringLiteral(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf");

int channelNamed(app::MainWindow& w, const char* name) { return w.document()->recording()->findSignal(name); }

QString labelsText(QWidget* w) {
    QString all;
    for (QLabel* l : w->findChildren<QLabel*>()) all += l->text() + '\n';
    return all;
}
}  // namespace

class TestFirstUse : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("WarpLabTests");
        QCoreApplication::setApplicationName("test_first_use");
        QSettings().clear();
    }

    // F7-T7, query 47.98-51.93 s, "include the query itself" off: rank 1 was once
    // 47.977-49.770 s. No match may overlap the query now; with the tolerance at 0.5 s, none
    // overlaps by more than 0.5 s.
    void searchNeverReturnsItsOwnPlace() {
        app::MainWindow w;
        QVERIFY(w.openFile(kSample));
        w.document()->setRegions({});
        const int ch = channelNamed(w, "F7-T7");
        QVERIFY(ch >= 0);
        w.document()->addRegion({io::RegionKind::Query, ch, 47.98, 51.93, ""});
        QSignalSpy finished(w.jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w.analysis()->searchQuery(10) != 0);
        QVERIFY(finished.wait(120000));
        const auto& m = w.searchView()->matches();
        QCOMPARE(m.size(), std::size_t(10));
        for (const auto& x : m) {
            const double s = double(x.start) / 256.0, e = double(x.end + 1) / 256.0;
            QVERIFY2(e <= 47.98 || s >= 51.93, qPrintable(QString("%1-%2 s").arg(s).arg(e)));
        }
        // Tolerance 0.5 s (128 samples) set in the Search panel.
        widgets::SearchChoice c = w.searchView()->options()->choice();
        c.toleranceS = 0.5;
        w.searchView()->options()->setChoice(c);
        QVERIFY(w.analysis()->searchQuery(10) != 0);
        QVERIFY(finished.wait(120000));
        const compute::ExcludedSpan span{std::size_t(std::floor(47.98 * 256)), std::size_t(std::floor(51.93 * 256)) - 1, 128};
        for (const auto& x : w.searchView()->matches()) QVERIFY(!compute::overlapsBeyond(x.start, x.end, span));
        // With the query included, it finds itself (cost 0 at its own place).
        c.includeSelf = true;
        w.searchView()->options()->setChoice(c);
        QVERIFY(w.analysis()->searchQuery(1) != 0);
        QVERIFY(finished.wait(120000));
        QCOMPARE(w.searchView()->matches().front().cost, 0.0);
    }

    // A 2-minute window on the 82 s sample: the progress title, the distance matrix's title and
    // the cost matrix opened from it name 0.0-82.0 s (euclidean, so that the whole recording
    // computes in a moment).
    void rangesClippedToRecording() {
        app::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(kSample));
        w.metricPanel()->setMetric(compute::Metric::Euclidean);
        w.signalView()->setWindow(0, 120);
        QCOMPARE(w.signalView()->windowLength(), 120.0);  // the view keeps the 2-minute window
        QSignalSpy started(w.jobs(), &app::JobRunner::jobStarted);
        QSignalSpy finished(w.jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w.analysis()->channelDistanceMatrix() != 0);
        QVERIFY(finished.wait(120000));
        QVERIFY(!started.isEmpty());
        const QString progressTitle = started.back().at(2).toString();
        QVERIFY2(progressTitle.contains(QString::fromUtf8("0.0–82.0 s")), qPrintable(progressTitle));
        QVERIFY(!progressTitle.contains("120"));
        const QString matrixText = labelsText(w.distanceView()) + w.distanceView()->toolTip();
        QVERIFY2(matrixText.contains(QString::fromUtf8("0.0–82.0 s")) && !matrixText.contains("120.0"),
                 qPrintable(matrixText));
        // A cell opens the pair over the clipped range.
        QVERIFY(w.analysis()->openMatrixCell(0, 1) != 0);
        QVERIFY(finished.wait(120000));
        QCOMPARE(w.costView()->rows(), std::size_t(82 * 256));
        const QString pairTitle = started.back().at(2).toString();
        QVERIFY2(pairTitle.contains(QString::fromUtf8("0.00–82.00 s")) && !pairTitle.contains("120"), qPrintable(pairTitle));
    }

    // A montage keeps the time window, says in the status bar what it cleared, and reads
    // "F7-T7-T7-P7" as (F7-T7) minus (T7-P7), saying so.
    void montageKeepsWindowAndSaysWhatChanged() {
        app::MainWindow w;
        QVERIFY(w.openFile(kSample));
        w.document()->addRegion({io::RegionKind::Query, 0, 10.0, 12.0, ""});  // something to undo
        w.signalView()->setWindow(30, 5);
        app::MontageDialog dialog(w.document()->recordedRecording(), {});
        dialog.findChild<QPlainTextEdit*>("montageText")->setPlainText("F7-T7\n\nF7-T7-T7-P7\n");
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const QString text = app::applyMontage(*w.document(), *w.signalView(), dialog.expressions(), dialog.readings());
        QCOMPARE(widgets::signalList(*w.document()->recording()).size(), std::size_t(2));
        QCOMPARE(w.signalView()->windowStart(), 30.0);
        QCOMPARE(w.signalView()->windowLength(), 5.0);
        QVERIFY2(text.contains("time window kept"), qPrintable(text));
        QVERIFY2(text.contains("undo history cleared"), qPrintable(text));
        QVERIFY2(text.contains(QString("line 3: \"F7-T7-T7-P7\" read as (F7-T7) minus (T7-P7)")), qPrintable(text));
        // The derivation is what it says: F7-T7 minus T7-P7.
        auto rec = w.document()->recordedRecording();
        const auto a = rec->read(rec->findSignal("F7-T7"), 100, 8), b = rec->read(rec->findSignal("T7-P7"), 100, 8);
        const auto d = w.document()->recording()->read(1, 100, 8);
        for (int i = 0; i < 8; ++i) QCOMPARE(d[i], a[i] - b[i]);
    }

    // The dialog: the example uses the open recording's channels; an error names its line
    // (blank lines counted), 1-based, and the typed text stays.
    void montageDialogErrorsByLine() {
        app::MainWindow w;
        QVERIFY(w.openFile(kSample));
        app::MontageDialog dialog(w.document()->recordedRecording(), {});
        const QString intro = dialog.findChild<QLabel*>("montageIntro")->text();
        QVERIFY2(intro.contains("FP1-F7") && intro.contains("FP1-F7-F7-T7"), qPrintable(intro));
        QVERIFY(!intro.contains("Fp1."));
        auto* text = dialog.findChild<QPlainTextEdit*>("montageText");
        const QString typed = "FP1-F7\n\nC3-XX\n";
        text->setPlainText(typed);
        dialog.accept();
        QVERIFY(dialog.result() != int(QDialog::Accepted));
        auto* error = dialog.findChild<QLabel*>("montageError");
        QVERIFY2(error->text().startsWith("line 3: "), qPrintable(error->text()));
        QVERIFY(!error->text().contains("montage["));
        QCOMPARE(text->toPlainText(), typed);
    }

    // The sample carries its seizure as the annotation "seizure" at 42 s for 40 s: opening it
    // shows one Seizure region there; with the setting off, none.
    void sampleSeizureMarkedOnOpen() {
        app::setMarkAnnotatedSeizuresOnOpen(true);
        {
            app::MainWindow w;
            QVERIFY(w.openFile(kSample));
            const auto& r = w.document()->regions();
            QCOMPARE(r.size(), std::size_t(1));
            QVERIFY(r[0].kind == io::RegionKind::Seizure);
            QCOMPARE(r[0].channel, -1);
            QCOMPARE(r[0].startS, 42.0);
            QCOMPARE(r[0].endS, 82.0);
            QVERIFY2(w.statusBar()->currentMessage().contains("1 seizure marked"), qPrintable(w.statusBar()->currentMessage()));
            QVERIFY(!w.document()->undoStack()->canUndo());  // what the file says, not an edit
            // The setting is a checkable View menu entry, on.
            QAction* a = w.actions().action("view.annotatedSeizures");
            QVERIFY(a && a->isCheckable() && a->isChecked());
            QVERIFY(w.actions().menu(QObject::tr("&View"))->actions().contains(a));
            a->trigger();  // off, kept in QSettings
            QVERIFY(!app::markAnnotatedSeizuresOnOpen());
        }
        app::MainWindow w;
        QVERIFY(!w.actions().action("view.annotatedSeizures")->isChecked());
        QVERIFY(w.openFile(kSample));
        QVERIFY(w.document()->regions().empty());
        app::setMarkAnnotatedSeizuresOnOpen(true);
    }
};

QTEST_MAIN(TestFirstUse)
#include "test_first_use.moc"
