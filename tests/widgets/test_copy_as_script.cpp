// "Copy as Python" and "Copy as command" for each analysis the window runs on the bundled
// sample: the clipboard text, run by /usr/bin/python3 over the package of the build tree and by
// the built warplab-cli, gives the result the view shows. The alignment's cost is equal bit for
// bit (the same samples, the same scalar reference); the search's matches have the same places
// and costs within 1e-9 relative; the distance matrix equal within 1e-9 relative; the patterns the
// same ranking (pattern indices in order) with qualities within 1e-12.
#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QProcess>
#include <QSignalSpy>
#include <QtTest>

#include <cmath>

#include "app/gui/analysis_controller.h"
#include "app/gui/copy_as_script.h"
#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/unsaved_guard.h"
#include "compute/patterns/pattern_discovery.h"
#include "compute/spectral/frequency_band.h"
#include "io/matrix_band.h"
#include "widgets/cost_matrix_view.h"
#include "widgets/distance_matrix_view.h"
#include "widgets/metric_panel.h"
#include "widgets/patterns_view.h"
#include "widgets/search_options_bar.h"
#include "widgets/search_results_view.h"
#include "widgets/signal_view.h"

using namespace warplab;

namespace {

const QString kSample = QStringLiteral(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf");
const QString kPython = QStringLiteral("/usr/bin/python3");

// Under AddressSanitizer, the path of the runtime this test runs with (as mapped into the
// process); empty otherwise.
QString asanRuntime() {
#if defined(__SANITIZE_ADDRESS__)
    QFile maps("/proc/self/maps");
    if (maps.open(QIODevice::ReadOnly))
        for (const QByteArray& line : maps.readAll().split('\n'))
            if (const int at = line.indexOf('/'); at >= 0 && line.contains("/libasan.so")) return QString::fromUtf8(line.mid(at));
#endif
    return {};
}

// Runs `program` with `args` (stdin: `input`); returns stdout, or "failed: ..." with stderr.
QString run(const QString& program, const QStringList& args, const QByteArray& input = {}) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PYTHONPATH", WARPLAB_PYTHON_DIR);
    if (program == kPython && !asanRuntime().isEmpty()) {
        // A module built with ASan loads into an uninstrumented Python only behind its runtime;
        // Python's own memory kept to exit is not a leak of ours.
        env.insert("LD_PRELOAD", asanRuntime());
        env.insert("ASAN_OPTIONS", env.value("ASAN_OPTIONS") + ":detect_leaks=0");
    }
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForStarted(10000)) return "failed: did not start " + program;
    p.write(input);
    p.closeWriteChannel();
    p.waitForFinished(300000);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) return "failed: " + err;
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

// The Python snippet, run; or why it cannot be (no Python, no package built).
QString whyNoPython() {
    if (!QFileInfo(kPython).isExecutable()) return "no " + kPython;
    if (QDir(WARPLAB_PYTHON_DIR "/warplab").entryList({"_warplab*.so"}).isEmpty())
        return "the Python package is not built (target _warplab)";
    return {};
}
QString runPython(const QString& script) { return run(kPython, {"-"}, script.toUtf8()); }
// The command with the built warplab-cli for its first word, through a shell (its quoting).
QString runCommand(const QString& command) {
    if (!command.startsWith("warplab-cli ")) return "failed: not a warplab-cli command: " + command;
    return run("/bin/sh", {"-c", QStringLiteral(WARPLAB_CLI_BINARY) + command.mid(QString("warplab-cli").size())});
}

// CSV lines (after a header when `header`) as numbers.
std::vector<std::vector<double>> rows(const QString& text, bool header) {
    std::vector<std::vector<double>> out;
    QStringList lines = text.split('\n', Qt::SkipEmptyParts);
    if (header && !lines.isEmpty()) lines.removeFirst();
    for (const QString& line : lines) {
        if (line.startsWith('#')) continue;
        std::vector<double> r;
        for (const QString& f : line.split(',')) r.push_back(f.toDouble());
        out.push_back(r);
    }
    return out;
}

// The lines of a command's CSV without the frequency band column it starts with ("theta,").
QString withoutBand(const QString& text, const QString& band) {
    if (band.isEmpty()) return text;
    QStringList lines = text.split('\n');
    for (QString& l : lines) {
        if (l.startsWith(band + ',')) l = l.mid(band.size() + 1);
        else if (l.startsWith("band,")) l = l.mid(5);
    }
    return lines.join('\n');
}

// The frequency band analysed ("" none), as the metric panel's band box sets it.
void setFreqBand(app::MainWindow& w, const QString& band) {
    if (band.isEmpty()) return;
    w.document()->setFrequencyBand(compute::spectral::parseFrequencyBand(band.toStdString()));
}

bool near(double a, double b, double rel) { return std::abs(a - b) <= rel * std::max(1.0, std::abs(b)); }

QString copied(app::MainWindow& w, const char* id) {
    QGuiApplication::clipboard()->clear();
    w.actions().action(id)->trigger();
    return QGuiApplication::clipboard()->text();
}

}  // namespace

class TestCopyAsScript : public QObject {
    Q_OBJECT
    std::unique_ptr<app::MainWindow> w_;

    // Waits for the job `id` to deliver its result.
    bool finished(quint64 id) {
        if (id == 0) return false;
        QSignalSpy spy(w_->jobs(), &app::JobRunner::jobFinished);
        return spy.wait(120000) && spy.first().at(0).toULongLong() == id;
    }
    void setParams(compute::Metric metric, int band, bool znorm = false) {
        compute::Params p = w_->metricPanel()->params();
        p.metric = metric;
        p.band = band;
        p.znorm = znorm;
        w_->metricPanel()->setParams(p);
    }

private Q_SLOTS:
    void init() {
        w_ = std::make_unique<app::MainWindow>();
        w_->unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });
        QVERIFY(w_->openFile(kSample));
    }
    void cleanup() { w_.reset(); }

    // Query and reference on different channels and windows: both the snippet and the command
    // (--reference-channel, --reference-window) give the cost on screen, bit for bit.
    void alignment_data() {
        QTest::addColumn<QString>("metric");
        QTest::addColumn<QString>("band");
        QTest::addRow("dtw") << "dtw" << "";
        QTest::addRow("cdtw znorm") << "cdtw" << "";
        QTest::addRow("softdtw") << "softdtw" << "";
        QTest::addRow("dtw alpha") << "dtw" << "alpha";
    }
    void alignment() {
        QFETCH(QString, metric);
        QFETCH(QString, band);
        setFreqBand(*w_, band);
        compute::Params p = w_->metricPanel()->params();
        p.metric = *compute::parseMetric(metric.toStdString());
        p.band = 12;
        p.gamma = 0.5;
        p.znorm = metric == "cdtw";
        w_->metricPanel()->setParams(p);
        w_->document()->setRegions({{io::RegionKind::Query, 2, 3.0, 4.5, ""}, {io::RegionKind::Reference, 5, 50.3, 52.1, ""}});
        QVERIFY(finished(w_->analysis()->alignMarkedRegions()));
        const double shown = w_->costView()->alignment()->distance;
        QVERIFY(shown != 0.0);
        QCOMPARE(w_->actions().action("edit.copyPython")->text(), QString("Copy alignment as &Python"));

        // The panel changes after the run: the scripts still write the analysis on screen.
        p.metric = compute::Metric::Euclidean;
        w_->metricPanel()->setParams(p);

        if (band.isEmpty()) {
            const QString command = copied(*w_, "edit.copyCommand").trimmed();
            QVERIFY2(command.contains("--reference-channel") && command.contains("--reference-window"), qPrintable(command));
            const QString out = runCommand(command);
            QVERIFY2(out.startsWith("distance "), qPrintable(out + "\n" + command));
            QCOMPARE(out.mid(9).toDouble(), shown);
        } else {  // align has no --freq-band: no command, and the action says why
            const app::Script command = app::asCommand(*w_->analysis()->shownRecipe(w_->costView()));
            QVERIFY(command.text.isEmpty());
            QVERIFY2(command.why.contains("frequency band"), qPrintable(command.why));
        }

        if (const QString why = whyNoPython(); !why.isEmpty()) QSKIP(qPrintable(why));
        const QString script = copied(*w_, "edit.copyPython");
        QVERIFY2(script.contains(QStringLiteral("metric=\"%1\"").arg(metric)), qPrintable(script));
        if (!band.isEmpty()) QVERIFY2(script.contains("warplab.filter(") && script.contains('"' + band + '"'), qPrintable(script));
        const QString py = runPython(script);
        bool ok = false;
        QCOMPARE(py.toDouble(&ok), shown);
        QVERIFY2(ok, qPrintable(py + "\n" + script));
    }

    // The query region searched in its channel, top 5, its own place excluded (with an overlap
    // allowed), in both modes.
    void search_data() {
        QTest::addColumn<bool>("window");
        QTest::addColumn<QString>("band");
        QTest::addRow("subsequence") << false << "";
        QTest::addRow("window") << true << "";
        QTest::addRow("subsequence theta") << false << "theta";
        QTest::addRow("window 8-13") << true << "8-13";
    }
    void search() {
        QFETCH(bool, window);
        QFETCH(QString, band);
        setFreqBand(*w_, band);
        setParams(compute::Metric::Dtw, 0);  // raw samples: the query's own place costs 0 unless excluded
        widgets::SearchChoice c;
        c.window = window;
        c.bandPercent = 10;
        c.toleranceS = 0.25;
        w_->searchView()->options()->setChoice(c);
        w_->document()->setRegions({{io::RegionKind::Query, 3, 20.0, 21.0, ""}});
        QVERIFY(finished(w_->analysis()->searchQuery(5)));
        const std::vector<compute::Match> shown = w_->searchView()->matches();
        QCOMPARE(shown.size(), std::size_t(5));
        QCOMPARE(w_->actions().action("edit.copyCommand")->text(), QString("Copy search as co&mmand"));
        auto same = [&](const std::vector<std::vector<double>>& got, const QString& what) {
            QVERIFY2(got.size() == shown.size(), qPrintable(what));
            for (std::size_t k = 0; k < shown.size(); ++k) {
                QCOMPARE(got[k][0], double(k + 1));
                QVERIFY2(near(got[k][1], shown[k].cost, 1e-9), qPrintable(what));
                QCOMPARE(got[k][2], double(shown[k].start));
                QCOMPARE(got[k][3], double(shown[k].end));
            }
        };
        const QString command = copied(*w_, "edit.copyCommand").trimmed();
        QVERIFY2(command.contains("--exclusion-tolerance 64"), qPrintable(command));  // 0.25 s at 256 Hz
        if (!band.isEmpty()) QVERIFY2(command.contains("--freq-band " + band), qPrintable(command));
        const QString out = runCommand(command);
        const QString key = band == "8-13" ? "8-13Hz" : band;  // the band column names an unnamed range by its key
        if (!band.isEmpty()) QVERIFY2(out.startsWith("band,rank") && out.contains('\n' + key + ",1,"), qPrintable(out));
        same(rows(withoutBand(out, key), true), out + "\n" + command);

        if (const QString why = whyNoPython(); !why.isEmpty()) QSKIP(qPrintable(why));
        const QString script = copied(*w_, "edit.copyPython");
        const QString py = runPython(script);
        same(rows(py, true), py + "\n" + script);
    }

    // Channels x channels over the visible window, and the epochs of one channel.
    void matrix_data() {
        QTest::addColumn<bool>("epochs");
        QTest::addColumn<QString>("band");
        QTest::addRow("channels") << false << "";
        QTest::addRow("epochs") << true << "";
        QTest::addRow("channels beta") << false << "beta";
        QTest::addRow("epochs mu=8-12") << true << "mu=8-12";
    }
    void matrix() {
        QFETCH(bool, epochs);
        QFETCH(QString, band);
        setFreqBand(*w_, band);
        setParams(compute::Metric::Cdtw, 8);
        w_->signalView()->setWindow(30.25, 1.5);
        QVERIFY(finished(epochs ? w_->analysis()->epochDistanceMatrix(4, 1.3, 0.7) : w_->analysis()->channelDistanceMatrix()));
        const compute::DistanceMatrix* shown = w_->distanceView()->matrix();
        QVERIFY(shown && shown->rows > 5);
        QCOMPARE(w_->actions().action("edit.copyPython")->text(), QString("Copy distance matrix as &Python"));
        if (!band.isEmpty()) {  // the exported matrix records its band (FILE.json beside a .npy)
            QTemporaryDir dir;
            const QString file = dir.filePath("m.npy");
            QCOMPARE(w_->distanceView()->exportMatrix(file), QString());
            const auto b = io::readMatrixBand(file.toStdString());
            QVERIFY(b && b->band == compute::spectral::parseFrequencyBand(band.toStdString()));
        }
        // No command: warplab-cli dm reads one channel of a recording; the action says so.
        const app::Script command = app::asCommand(*w_->analysis()->shownRecipe(w_->distanceView()));
        QVERIFY(command.text.isEmpty());
        QVERIFY2(command.why.contains("Copy as Python"), qPrintable(command.why));

        if (const QString why = whyNoPython(); !why.isEmpty()) QSKIP(qPrintable(why));
        const QString script = copied(*w_, "edit.copyPython");
        if (!band.isEmpty()) QVERIFY2(script.contains("warplab.filter(") && script.contains('"' + band + '"'), qPrintable(script));
        const QString py = runPython(script);
        const auto got = rows(py, false);
        QVERIFY2(got.size() == shown->rows, qPrintable(py.left(2000) + "\n" + script));
        for (std::size_t i = 0; i < shown->rows; ++i) {
            QCOMPARE(got[i].size(), shown->cols);
            for (std::size_t j = 0; j < shown->cols; ++j) QVERIFY(near(got[i][j], shown->at(i, j), 1e-9));
        }
    }

    // The sample's seizure, on all channels, and the patterns of one.
    void patterns_data() {
        QTest::addColumn<QString>("band");
        QTest::addRow("as recorded") << "";
        QTest::addRow("delta") << "delta";
    }
    void patterns() {
        QFETCH(QString, band);
        setFreqBand(*w_, band);
        setParams(compute::Metric::Cdtw, 10);
        w_->document()->setRegions({{io::RegionKind::Seizure, -1, 42.0, 82.0, ""}});
        QVERIFY(finished(w_->analysis()->findPatterns(1, 512, 256)));
        const auto shown = w_->patternsView()->ranking();
        QVERIFY(shown && shown->ranked.size() > 10);
        QCOMPARE(w_->actions().action("edit.copyCommand")->text(), QString("Copy seizure patterns as co&mmand"));
        auto same = [&](const std::vector<std::vector<double>>& got, const QString& what) {
            QVERIFY2(got.size() == shown->ranked.size(), qPrintable(what));
            for (std::size_t k = 0; k < got.size(); ++k) {
                QCOMPARE(got[k][2], double(shown->ranked[k].index));
                QVERIFY2(near(got[k][1], shown->ranked[k].quality, 1e-12), qPrintable(what));
                QVERIFY(near(got[k][3], shown->ranked[k].startS, 1e-12));
            }
        };
        if (!band.isEmpty()) {  // the exported ranking starts with the band column, as the CLI's
            QTemporaryDir dir;
            QCOMPARE(w_->patternsView()->exportRankingCsv(dir.filePath("r.csv")), QString());
            QFile f(dir.filePath("r.csv"));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray text = f.readAll();
            QVERIFY2(text.startsWith("band,rank,quality,pattern_index,start_seconds\n" + band.toUtf8() + ",1,"), text.left(200).constData());
        }
        const QString command = copied(*w_, "edit.copyCommand").trimmed();
        QVERIFY2(command.contains("--seizures 42-82"), qPrintable(command));
        if (!band.isEmpty()) QVERIFY2(command.contains("--freq-band " + band), qPrintable(command));
        const QString out = runCommand(command);
        same(rows(withoutBand(out, band), true), out.left(2000) + "\n" + command);

        if (const QString why = whyNoPython(); !why.isEmpty()) QSKIP(qPrintable(why));
        const QString script = copied(*w_, "edit.copyPython");
        if (!band.isEmpty()) QVERIFY2(script.contains("freq_band=\"" + band + "\""), qPrintable(script));
        const QString py = runPython(script);
        same(rows(py, true), py.left(2000) + "\n" + script);
    }

    // A montage: the scripts would read other samples, and both actions say why instead.
    void montageRefuses() {
        QVERIFY(w_->document()->setMontage({"#0", "#1"}));
        w_->document()->setRegions({{io::RegionKind::Query, 0, 3.0, 4.0, ""}, {io::RegionKind::Reference, 1, 5.0, 6.0, ""}});
        QVERIFY(finished(w_->analysis()->alignMarkedRegions()));
        const app::AnalysisRecipe* r = w_->analysis()->shownRecipe(w_->costView());
        QVERIFY(r);
        QVERIFY(app::asPython(*r).text.isEmpty());
        QVERIFY2(app::asCommand(*r).why.contains("montage"), qPrintable(app::asCommand(*r).why));
    }
};

QTEST_MAIN(TestCopyAsScript)
#include "test_copy_as_script.moc"
