// Cancelling an alignment in the GUI stops its worker: the pair job passes its
// token to Engine::align, which checks it after every row. Runs the real main window offscreen
// on a CHB-MIT crop of shared/data.
#include <QElapsedTimer>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include "app/gui/analysis_controller.h"
#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "widgets/cost_matrix_view.h"
#include "widgets/metric_panel.h"

using namespace warplab;

class TestAlignJobCancel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName("WarpLabTests");
        QCoreApplication::setApplicationName("test_align_job_cancel");
    }

    void cancelStopsTheAlignmentWorker() {
        const QString file = QStringLiteral(WARPLAB_TEST_DATA "/chbmit/chb01_03_Seizure.edf");
        if (!QFile::exists(file)) QSKIP("shared/data is not beside the checkout");
        app::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(file));
        // soft-DTW of 25 s x 25 s at 256 Hz: 6400 x 6400 cells with exp/log each, about a
        // second or more of one core; the full matrix (330 MB) fits the default budget.
        compute::Params p;
        p.metric = compute::Metric::SoftDtw;
        p.gamma = 1.0;
        w.metricPanel()->setParams(p);
        w.document()->addRegion({io::RegionKind::Query, 0, 0.0, 25.0, ""});
        w.document()->addRegion({io::RegionKind::Reference, 0, 10.0, 35.0, ""});
        QSignalSpy progress(w.jobs(), &app::JobRunner::jobProgress);
        QSignalSpy cancelled(w.jobs(), &app::JobRunner::jobCancelled);
        QSignalSpy finished(w.jobs(), &app::JobRunner::jobFinished);
        QSignalSpy stopped(w.jobs(), &app::JobRunner::workerStopped);
        const quint64 id = w.analysis()->alignMarkedRegions();
        QVERIFY(id != 0);
        // The alignment reports progress by rows, like every job. The pace is measured between
        // two reports (the first comes after the matrix is allocated), once 5 % is done.
        QVERIFY(progress.wait(30000));
        const double f1 = progress.last().at(1).toDouble();
        const qint64 t1 = progress.last().at(2).toLongLong();
        double fraction = f1;
        qint64 elapsedMs = t1;
        while (fraction < 0.05) {
            QVERIFY(progress.wait(30000));
            fraction = progress.last().at(1).toDouble();
            elapsedMs = progress.last().at(2).toLongLong();
        }
        QVERIFY2(fraction > f1 && fraction < 1, qPrintable(QString::number(fraction)));
        // What the rest would take at the pace so far.
        const double remainingMs = double(elapsedMs - t1) / (fraction - f1) * (1 - fraction);
        QElapsedTimer sinceCancel;
        sinceCancel.start();
        w.findChild<QPushButton*>("cancelJob")->click();
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(stopped.wait(60000));
        const qint64 stopMs = sinceCancel.elapsed();
        qInfo("worker stopped %lld ms after the cancel; progress was %g at %lld ms, the rest would have taken about %.0f ms",
              stopMs, fraction, elapsedMs, remainingMs);
        // The worker returns at the next row, not after the rest of the matrix (before the
        // engine took a token it ran on for all of `remainingMs`).
        QVERIFY2(double(stopMs) < 0.5 * remainingMs,
                 qPrintable(QString("stopped %1 ms after the cancel; the rest would take %2 ms").arg(stopMs).arg(remainingMs)));
        QCOMPARE(finished.count(), 0);
        QVERIFY(w.costView()->alignment() == nullptr);
        QVERIFY(!w.jobs()->isActive(id));
    }
};

QTEST_MAIN(TestAlignJobCancel)
#include "test_align_job_cancel.moc"
