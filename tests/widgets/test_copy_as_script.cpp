// "Copy as Python" and "Copy as command": the clipboard text for the sample's alignment, run by
// /usr/bin/python3 over the package of the build tree, gives the distance the cost view shows;
// a pair warplab-cli align can express (one channel and window) gives it through the CLI.
#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QProcess>
#include <QSignalSpy>
#include <QtTest>

#include "app/gui/analysis_controller.h"
#include "app/gui/copy_as_script.h"
#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/unsaved_guard.h"
#include "compute/engine/engine.h"
#include "widgets/cost_matrix_view.h"
#include "widgets/metric_panel.h"

using namespace warplab;

namespace {

const QString kSample = QStringLiteral(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf");

// Runs `program` with `args` (stdin: `input`); returns stdout, or fails the test.
QString run(const QString& program, const QStringList& args, const QByteArray& input = {}) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PYTHONPATH", WARPLAB_PYTHON_DIR);
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForStarted(10000)) return "did not start: " + program;
    p.write(input);
    p.closeWriteChannel();
    p.waitForFinished(120000);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    if (p.exitCode() != 0) return "failed: " + err;
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

}  // namespace

class TestCopyAsScript : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pythonReproducesTheAlignmentOnScreen() {
        for (const char* metric : {"dtw", "cdtw"}) {
            app::MainWindow w;
            w.unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });
            QVERIFY(w.openFile(kSample));
            compute::Params p = w.metricPanel()->params();
            p.metric = *compute::parseMetric(metric);
            p.band = 12;
            w.metricPanel()->setParams(p);
            QSignalSpy finished(w.jobs(), &app::JobRunner::jobFinished);
            QVERIFY(w.analysis()->alignExample() != 0);
            QVERIFY(finished.wait(60000));
            const double shown = w.costView()->alignment()->distance;
            QVERIFY(w.costView()->infoText().contains(QString::number(shown, 'g', 8)));

            QGuiApplication::clipboard()->clear();
            w.actions().action("edit.copyPython")->trigger();
            const QString script = QGuiApplication::clipboard()->text();
            QVERIFY2(script.startsWith("import warplab"), qPrintable(script));
            QVERIFY2(script.contains(QStringLiteral("metric=\"%1\"").arg(metric)), qPrintable(script));
            const QString out = run("/usr/bin/python3", {"-"}, script.toUtf8());
            bool ok = false;
            const double got = out.toDouble(&ok);
            QVERIFY2(ok, qPrintable(out + "\n" + script));
            QCOMPARE(got, shown);  // bit for bit: the same samples, the same scalar reference

            // The example's query and reference are different windows: one CLI command cannot
            // cut both, and the action says so instead of copying a wrong command.
            const app::Script command = app::alignmentAsCommand(*w.document(), p, 0);
            QVERIFY(command.text.isEmpty());
            QVERIFY2(command.why.contains("--window"), qPrintable(command.why));
        }
    }

    void commandReproducesAPairOfOneWindow() {
        app::MainWindow w;
        w.unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });
        QVERIFY(w.openFile(kSample));
        compute::Params p = w.metricPanel()->params();
        // soft-DTW: a series against itself still has a value (below zero), not a trivial 0.
        p.metric = compute::Metric::SoftDtw;
        p.gamma = 0.5;
        p.znorm = true;
        w.metricPanel()->setParams(p);
        // The same channel and window as query and reference: a pair the CLI can cut.
        w.document()->setRegions({{io::RegionKind::Query, 2, 3.0, 4.5, ""}, {io::RegionKind::Reference, 2, 3.0, 4.5, ""}});
        QSignalSpy finished(w.jobs(), &app::JobRunner::jobFinished);
        QVERIFY(w.analysis()->alignMarkedRegions() != 0);
        QVERIFY(finished.wait(60000));
        const double shown = w.costView()->alignment()->distance;
        QVERIFY(shown != 0.0);
        QGuiApplication::clipboard()->clear();
        w.actions().action("edit.copyCommand")->trigger();
        const QString command = QGuiApplication::clipboard()->text().trimmed();
        QVERIFY2(command.startsWith("warplab-cli align "), qPrintable(command));
        QVERIFY2(command.contains("--znorm") && command.contains("--gamma 0.5"), qPrintable(command));
        // Run through the built CLI: the words after the program name, unquoted by a shell.
        const QString out = run("/bin/sh", {"-c", QStringLiteral(WARPLAB_CLI_BINARY) + command.mid(QString("warplab-cli").size())});
        QVERIFY2(out.startsWith("distance "), qPrintable(out));
        QCOMPARE(out.mid(9).toDouble(), shown);
        // And the Python form of the same pair.
        w.actions().action("edit.copyPython")->trigger();
        QCOMPARE(run("/usr/bin/python3", {"-"}, QGuiApplication::clipboard()->text().toUtf8()).toDouble(), shown);
    }
};

QTEST_MAIN(TestCopyAsScript)
#include "test_copy_as_script.moc"
