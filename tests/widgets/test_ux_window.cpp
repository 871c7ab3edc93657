// The main window as a new user meets it: the traces take the room until a result
// arrives and the user's dock layout survives a restart; results name their units; regions go
// out to CSV / EDF+ and come back in as one undoable step, bad files named. Offscreen, on the
// bundled sample and tests/data.
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <cmath>
#include <functional>
#include <fstream>

#include "app/gui/analysis_controller.h"
#include "app/gui/dock_layout.h"
#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/unsaved_guard.h"
#include "app/gui/region_exchange.h"
#include "widgets/alignment_view.h"
#include "widgets/cost_matrix_view.h"
#include "widgets/distance_matrix_view.h"
#include "widgets/search_results_view.h"
#include "widgets/signal_view.h"

using namespace warplab;

namespace {
const QString kSample = QStringLiteral(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf");
const QString kChb = QStringLiteral(WARPLAB_TEST_DATA "/chbmit/chb01_03_Seizure.edf");
const QStringList kResultDocks = {"costDock", "alignmentDock", "distanceDock", "searchDock", "patternsDock", "kernelsDock"};
const QString kSquaredUv = QString::fromUtf8("accumulated squared cost, \u00b5V\u00b2");

void snap(QWidget* w, const QString& name) {
    const QString dir = qEnvironmentVariable("WARPLAB_TEST_SCREENSHOTS");
    if (dir.isEmpty()) return;
    QTest::qWait(150);
    w->grab().save(dir + "/" + name + ".png");
}

int visibleResultDocks(app::MainWindow* w) {
    int n = 0;
    for (const QString& name : kResultDocks) n += w->findChild<QDockWidget*>(name)->isVisible();
    return n;
}

bool sameRegions(const std::vector<io::Region>& a, const std::vector<io::Region>& b, double tol) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].kind != b[i].kind || a[i].channel != b[i].channel || std::fabs(a[i].startS - b[i].startS) > tol ||
            std::fabs(a[i].endS - b[i].endS) > tol)
            return false;
    return true;
}
}  // namespace

class TestUxWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("WarpLabTests");
        QCoreApplication::setApplicationName("test_ux_window");
        QSettings().clear();
        QVERIFY2(QFile::exists(kChb), qPrintable(kChb + " is missing (tests/data)"));
    }
    void tracesTakeTheRoomUntilAResult() {
        QSettings().remove(app::DockLayout::settingsKey());
        app::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(kSample));
        QTest::qWait(100);
        QCOMPARE(visibleResultDocks(&w), 0);  // no "No pair aligned yet" panel
        const int before = w.signalView()->width();
        QVERIFY2(before > 0.7 * w.width(), qPrintable(QString::number(before)));
        snap(&w, "start_layout");
        QSignalSpy finished(w.jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w.analysis()->alignExample() != 0);
        QVERIFY(finished.wait(60000));
        QTest::qWait(100);
        QVERIFY(w.findChild<QDockWidget*>("costDock")->isVisible());
        QCOMPARE(visibleResultDocks(&w), 6);  // all result tabs open on first use, the cost matrix raised
        QVERIFY(w.signalView()->width() < before - 200);
        // The result area takes about 45 % of the window on first use.
        const int dockWidth = w.findChild<QDockWidget*>("costDock")->width();
        QVERIFY2(dockWidth > 0.3 * w.width() && dockWidth < 0.6 * w.width(), qPrintable(QString::number(dockWidth)));
    }
    void layoutIsKeptBetweenRuns() {
        QSettings().remove(app::DockLayout::settingsKey());
        {
            app::MainWindow w;
            w.resize(1400, 900);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(w.openFile(kSample));
            // After a first result the user moves the Regions panel to the right and closes
            // the Search tab.
            QSignalSpy finished(w.jobs(), &app::JobRunner::jobFinished);
            QVERIFY(w.analysis()->alignExample() != 0);
            QVERIFY(finished.wait(60000));
            auto* regions = w.findChild<QDockWidget*>("regionsDock");
            w.addDockWidget(Qt::RightDockWidgetArea, regions);
            w.findChild<QDockWidget*>("searchDock")->close();
            // The example pair's regions are unsaved marks: answered here, tested in test_unsaved_marks.
            w.unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });
            w.close();  // closeEvent saves
        }
        QVERIFY(!QSettings().value(app::DockLayout::settingsKey()).toByteArray().isEmpty());
        app::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(kSample));
        QCOMPARE(w.dockWidgetArea(w.findChild<QDockWidget*>("regionsDock")), Qt::RightDockWidgetArea);
        QCOMPARE(visibleResultDocks(&w), 0);  // still collapsed until a result
        QSignalSpy finished(w.jobs(), &app::JobRunner::jobFinished);
        w.signalView()->setWindow(0, 1);
        QVERIFY(w.analysis()->channelDistanceMatrix() != 0);
        QVERIFY(finished.wait(120000));
        QTest::qWait(100);
        QVERIFY(w.findChild<QDockWidget*>("distanceDock")->isVisible());
        // The tab the user closed stays closed: its toggle in the View menu is unchecked.
        QVERIFY(!w.findChild<QDockWidget*>("searchDock")->toggleViewAction()->isChecked());
        QVERIFY(w.findChild<QDockWidget*>("costDock")->toggleViewAction()->isChecked());
        QSettings().remove(app::DockLayout::settingsKey());
    }
    void epochMatrixOpensItsDockAndGroupsByRegionKind() {
        QSettings().remove(app::DockLayout::settingsKey());
        app::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(kSample));
        w.document()->addRegion({io::RegionKind::Seizure, -1, 42.0, 82.0, ""});
        w.document()->addRegion({io::RegionKind::Reference, 0, 0.0, 10.0, ""});
        QSignalSpy finished(w.jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w.analysis()->epochDistanceMatrix(0, 8, 8) != 0);  // 10 epochs of 8 s
        QVERIFY(finished.wait(120000));
        QTest::qWait(100);
        QVERIFY(w.findChild<QDockWidget*>("distanceDock")->isVisible());
        auto* dv = w.distanceView();
        QCOMPARE(dv->matrix()->rows, std::size_t(10));
        QCOMPARE(dv->setOrder(widgets::DistanceMatrixView::Order::Label), QString());
        // Epochs at 0 and 8 s lie in the reference (0-10 s), 40 s straddles 42 s by 6 s,
        // 48..72 s in the seizure; the rest in none, last.
        QCOMPARE(dv->rowOrder(), (std::vector<std::size_t>{0, 1, 5, 6, 7, 8, 9, 2, 3, 4}));
        snap(&w, "epochs_by_region_kind");
    }
    void resultsNameTheirUnits() {
        QSettings().remove(app::DockLayout::settingsKey());
        app::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(kSample));
        QSignalSpy finished(w.jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w.analysis()->alignExample() != 0);
        QVERIFY(finished.wait(60000));
        QCOMPARE(w.costView()->colorScaleLabel(), QString::fromUtf8("accumulated cost (\u00b5V\u00b2)"));
        QVERIFY2(w.costView()->infoText().contains("(" + kSquaredUv + ")"), qPrintable(w.costView()->infoText()));
        QVERIFY2(w.alignmentView()->infoText().contains("(" + kSquaredUv + ")"), qPrintable(w.alignmentView()->infoText()));
        w.signalView()->setWindow(0, 1);
        QVERIFY(w.analysis()->channelDistanceMatrix() != 0);
        QVERIFY(finished.wait(120000));
        QCOMPARE(w.distanceView()->colorScaleLabel(), QString::fromUtf8("dtw distance (\u00b5V\u00b2)"));
        w.document()->addRegion({io::RegionKind::Query, 0, 10.0, 10.5, ""});
        QVERIFY(w.analysis()->searchQuery() != 0);
        QVERIFY(finished.wait(120000));
        QCOMPARE(w.searchView()->headers().at(1), QString::fromUtf8("cost (\u00b5V\u00b2)"));  // the whole unit in its tooltip
        QVERIFY(w.statusBar()->currentMessage().endsWith(" s"));  // "Finished in 0.1 s"
    }
    void regionsOutAndInWithUndo() {
        for (const QString& file : {kSample, kChb}) {
            app::MainWindow w;
            QVERIFY(w.openFile(file));
            auto* doc = w.document();
            doc->setRegions({});  // the sample's annotated seizure, marked on open, is not part of this
            const int last = 22;  // the 23rd channel (the sample's "T8-P8 (2)")
            const std::vector<io::Region> regions = {{io::RegionKind::Seizure, -1, 30.0, 40.0, "onset"},
                                                     {io::RegionKind::Query, last, 1.0 / 3.0, 2.5, "spike, \"sharp\""},
                                                     {io::RegionKind::Reference, 0, 12.25, 14.0, ""}};
            for (const auto& r : regions) doc->addRegion(r);
            QTemporaryDir dir;
            for (const char* ext : {"csv", "edf"}) {
                const QString path = dir.filePath(QString("out_regions.%1").arg(ext));
                const app::RegionExchangeResult out = app::exportRegions(*doc, path);
                QVERIFY2(out.ok, qPrintable(out.message));
                QCOMPARE(out.count, 3);
                doc->setRegions({});
                const int undoBefore = doc->undoStack()->count();
                const app::RegionExchangeResult in = app::importRegions(*doc, path);
                QVERIFY2(in.ok, qPrintable(in.message));
                QCOMPARE(in.count, 3);
                const double tol = QString(ext) == "csv" ? 0.0 : 1e-4;  // EDF+: 0.1 ms units
                QVERIFY(sameRegions(doc->regions(), regions, tol));
                if (QString(ext) == "csv") QCOMPARE(doc->regions()[1].note, regions[1].note);
                QCOMPARE(doc->undoStack()->count(), undoBefore + 1);  // one step
                doc->undoStack()->undo();
                QVERIFY(doc->regions().empty());
                doc->undoStack()->redo();
                QCOMPARE(doc->regions().size(), std::size_t(3));
                doc->setRegions(regions);
            }
            // Bad input: named, and nothing is added.
            const QString bad = dir.filePath("bad.csv");
            {
                std::ofstream f(bad.toStdString());
                f << "kind,channel,start_s,end_s,note\nseizure,,1,2,ok\nquery,Cz,1,2,\n";
            }
            const std::size_t before = doc->regions().size();
            app::RegionExchangeResult r = app::importRegions(*doc, bad);
            QVERIFY(!r.ok);
            QVERIFY2(r.message.contains("bad.csv: line 3, column 'channel': no channel 'Cz'"), qPrintable(r.message));
            QCOMPARE(doc->regions().size(), before);
            {
                std::ofstream f(bad.toStdString());
                f << "kind,channel,start_s,end_s,note\nseizure,,1,9999,past the end\n";
            }
            r = app::importRegions(*doc, bad);
            QVERIFY(!r.ok);
            QVERIFY2(r.message.contains("ends after the recording's end"), qPrintable(r.message));
        }
    }
    void sampleOwnAnnotationsAndMenu() {
        app::MainWindow w;
        QVERIFY(w.openFile(kSample));
        // The open recording itself: its "seizure" annotation (42 s + 40 s), the markers left out.
        const app::RegionExchangeResult r = app::importRegions(*w.document(), kSample);
        QVERIFY2(r.ok, qPrintable(r.message));
        QCOMPARE(r.count, 1);
        QVERIFY2(r.message.contains("2 other annotations left out"), qPrintable(r.message));
        QCOMPARE(w.document()->regions()[0].startS, 42.0);
        // Both actions are in the action table and the File menu.
        QMenu* file = w.actions().menu(QObject::tr("&File"));
        QVERIFY(file);
        QVERIFY(file->actions().contains(w.actions().action("file.exportRegions")));
        QVERIFY(file->actions().contains(w.actions().action("file.importRegions")));
    }

    // Alt+letter reaches one item of a menu: no two items of a menu share their mnemonic.
    void menusHaveUniqueMnemonics() {
        app::MainWindow w;
        QVERIFY(w.openFile(kSample));
        QStringList clashes;
        std::function<void(QMenu*)> check = [&](QMenu* menu) {
            QMap<QChar, QStringList> byKey;
            for (QAction* a : menu->actions()) {
                if (a->isSeparator() || a->text().isEmpty()) continue;
                const QString t = a->text();
                for (qsizetype i = t.indexOf('&'); i >= 0 && i + 1 < t.size(); i = t.indexOf('&', i + 2)) {
                    if (t[i + 1] == '&') continue;  // a literal ampersand
                    byKey[t[i + 1].toLower()] << t;
                    break;
                }
                if (a->menu()) check(a->menu());
            }
            for (auto it = byKey.cbegin(); it != byKey.cend(); ++it)
                if (it.value().size() > 1)
                    clashes << menu->title() + ": '" + it.key() + "' in " + it.value().join(" | ");
        };
        for (QAction* top : w.menuBar()->actions())
            if (top->menu()) check(top->menu());
        QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join("\n")));
    }
};

QTEST_MAIN(TestUxWindow)
#include "test_ux_window.moc"
