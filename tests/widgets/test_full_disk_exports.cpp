// A full disk on every export the window writes: the distance matrix (.csv, .npy, .h5, with its
// order file), plots (.png, .svg, .pdf), the pattern ranking and the kernel comparison tables
// (.csv), and the regions exported as CSV or EDF+. The real main window offscreen, with real
// results of its jobs; a file-size limit (RLIMIT_FSIZE, SIGXFSZ ignored) stands for the full
// disk: writes past it fail with EFBIG as on a full device. Each export is written once with
// room, then again without: the second says which file and why, the first stays byte for byte,
// and nothing else is left in the folder. (Sessions, the regions saved beside the recording and
// the recovery file are tried the same way in test_unsaved_marks.)
#include <sys/resource.h>

#include <csignal>

#include <QDir>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include "app/gui/analysis_controller.h"
#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/region_exchange.h"
#include "app/gui/unsaved_guard.h"
#include "io/matrix_io.h"
#include "io/matrix_order_io.h"
#include "io/regions_exchange.h"
#include "widgets/alignment_view.h"
#include "widgets/distance_matrix_view.h"
#include "widgets/kernel_comparison_view.h"
#include "widgets/metric_panel.h"
#include "widgets/patterns_view.h"
#include "widgets/plot_export.h"
#include "widgets/recording_access.h"
#include "widgets/signal_view.h"

using namespace warplab;

namespace {

const QString kRecording = QStringLiteral(WARPLAB_TEST_DATA "/chbmit/chb01_03_Seizure.edf");
constexpr rlim_t kRoom = 512;  // bytes a file may grow to while the disk is "full"

struct FileSizeLimit {
    rlimit old{};
    explicit FileSizeLimit(rlim_t bytes) {
        std::signal(SIGXFSZ, SIG_IGN);
        getrlimit(RLIMIT_FSIZE, &old);
        rlimit r = old;
        r.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &r);
    }
    ~FileSizeLimit() { setrlimit(RLIMIT_FSIZE, &old); }
};

QByteArray bytesOf(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TestFullDiskExports : public QObject {
    Q_OBJECT
    QTemporaryDir data_, out_;
    std::unique_ptr<app::MainWindow> w_;

    void runJob(quint64 id) {
        QVERIFY(id != 0);
        QSignalSpy failed(w_->jobs(), &app::JobRunner::jobFailed);
        QTRY_VERIFY_WITH_TIMEOUT(!w_->jobs()->isActive(id), 120000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.isEmpty() ? QString() : failed.front().at(3).toString()));
    }

    // Writes `name` with room, then on a full disk; `write` returns "" or why it failed.
    // `companions` are files written with it (the matrix's order file), kept the same way.
    void tryExport(const QString& name, const std::function<QString(const QString& path)>& write,
                   const QStringList& companions = {}) {
        const QString path = out_.filePath(name);
        const QString first = write(path);
        QVERIFY2(first.isEmpty(), qPrintable(name + ": " + first));
        const QByteArray before = bytesOf(path);
        QVERIFY2(before.size() > qsizetype(kRoom), qPrintable(QString("%1: %2 bytes, not more than the room left").arg(name).arg(before.size())));
        QList<QByteArray> companionsBefore;
        for (const QString& c : companions) companionsBefore << bytesOf(out_.filePath(c));
        const QStringList filesBefore = QDir(out_.path()).entryList(QDir::Files, QDir::Name);
        QString error;
        {
            FileSizeLimit full(kRoom);
            error = write(path);
        }
        QVERIFY2(!error.isEmpty(), qPrintable(name + ": a full disk was not reported"));
        QVERIFY2(error.contains(name), qPrintable(error));  // which file
        QVERIFY2(error.contains("File too large") || error.contains("disk full"), qPrintable(error));  // and why
        QVERIFY2(bytesOf(path) == before, qPrintable(name + " was changed by the failed write"));
        for (int i = 0; i < companions.size(); ++i)
            QVERIFY2(bytesOf(out_.filePath(companions[i])) == companionsBefore[i], qPrintable(companions[i] + " was changed"));
        QCOMPARE(QDir(out_.path()).entryList(QDir::Files, QDir::Name), filesBefore);  // no temporary left
        qInfo("%s: %s", qPrintable(name), qPrintable(error));
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(QFile::exists(kRecording), qPrintable(kRecording + " is missing (tests/data)"));
        qputenv("XDG_DATA_HOME", data_.path().toLocal8Bit());
        QCoreApplication::setOrganizationName("WarpLabTests");
        QCoreApplication::setApplicationName("test_full_disk_exports");
        w_ = std::make_unique<app::MainWindow>();
        w_->resize(1300, 850);
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
        QVERIFY(w_->openFile(kRecording));
        w_->document()->addRegion({io::RegionKind::Query, 0, 3.0, 5.0, std::string(600, 'q')});
        w_->document()->addRegion({io::RegionKind::Reference, 0, 20.0, 23.0, "r"});
        w_->document()->addRegion({io::RegionKind::Seizure, -1, 1.0, 30.0, "onset"});
        // Enough annotations that the EDF+ file needs more room than the disk has left.
        for (int i = 0; i < 40; ++i) w_->document()->addRegion({io::RegionKind::Seizure, i % 4, 1.0 + i * 0.5, 1.4 + i * 0.5, "spike"});
        compute::Params p;
        p.metric = compute::Metric::Cdtw;
        p.band = 16;
        w_->metricPanel()->setParams(p);
        w_->metricPanel()->setBackend(compute::Backend::Cpu);
        runJob(w_->analysis()->channelDistanceMatrix());
        runJob(w_->analysis()->alignMarkedRegions());
        runJob(w_->analysis()->findPatterns(0, 256, 128));
        w_->kernelView()->setLengths("32,48");
        runJob(w_->analysis()->runKernelComparison());
    }

    void cleanupTestCase() {
        w_->unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });
        w_->close();
        w_.reset();
    }

    void distanceMatrix_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("csv") << "distances.csv";
        QTest::newRow("npy") << "distances.npy";
        QTest::newRow("h5") << "distances.h5";
    }
    void distanceMatrix() {
        QFETCH(QString, name);
        auto* view = w_->distanceView();
        QVERIFY(view->matrix());
        tryExport(name, [view](const QString& path) { return view->exportMatrix(path); }, {name + ".order.csv"});
        // The pair stays a pair: the order file beside the kept matrix is the one written with it.
        const auto m = io::readMatrix(out_.filePath(name).toStdString());
        QCOMPARE(m.rows, view->matrix()->rows);
    }

    void plots_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("png") << "signals.png";
        QTest::newRow("svg") << "signals.svg";
        QTest::newRow("pdf") << "signals.pdf";
    }
    void plots() {
        QFETCH(QString, name);
        for (QCustomPlot* plot : {w_->signalView()->findChild<QCustomPlot*>(), w_->distanceView()->plot(), w_->alignmentView()->findChild<QCustomPlot*>()}) {
            QVERIFY(plot);
            const QString each = QString("%1-%2").arg(plot->parent()->metaObject()->className()).arg(name).replace("::", "_");
            tryExport(each, [plot](const QString& path) { return widgets::exportPlot(plot, path); });
        }
    }

    void tables() {
        auto* patterns = w_->patternsView();
        QVERIFY(patterns->ranking());
        tryExport("patterns.csv", [patterns](const QString& path) { return patterns->exportRankingCsv(path); });
        auto* kernels = w_->kernelView();
        QVERIFY(!kernels->results().empty());
        tryExport("bench.csv", [kernels](const QString& path) { return kernels->exportCsv(path); });
    }

    void regions_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("csv") << "marks.csv";
        QTest::newRow("edf") << "marks.edf";
    }
    void regions() {
        QFETCH(QString, name);
        const app::Document* doc = w_->document();
        tryExport(name, [doc](const QString& path) {
            const app::RegionExchangeResult r = app::exportRegions(*doc, path);
            return r.ok ? QString() : r.message;
        });
        // What is kept reads back whole.
        std::vector<std::string> names;
        for (const auto& s : widgets::signalList(*doc->recording())) names.push_back(s.displayName);
        const std::string kept = out_.filePath(name).toStdString();
        const std::size_t n = name.endsWith(".csv") ? io::readRegionsCsv(kept, names).size() : io::readRegionsEdf(kept, names).regions.size();
        QCOMPARE(n, doc->regions().size());
    }
};

QTEST_MAIN(TestFullDiskExports)
#include "test_full_disk_exports.moc"
