// Runs the real warplab binary under xvfb-run: it opens the bundled sample, aligns an example
// pair, grabs the main window with the cost matrix shown; the PNG must not be blank.
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

class TestScreenshot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void mainWindowWithCostMatrixIsNotBlank() {
        const QString xvfb = QStandardPaths::findExecutable("xvfb-run");
        if (xvfb.isEmpty()) QSKIP("xvfb-run is not installed");
        QTemporaryDir dir;
        const QString png = dir.filePath("warplab.png");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("QT_QPA_PLATFORM");  // CTest runs us offscreen; the app must use the X server
        env.insert("QT_QPA_PLATFORM", "xcb");
        p.setProcessEnvironment(env);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(xvfb, {"-a", "-s", "-screen 0 1600x1000x24", WARPLAB_GUI_BINARY, "--screenshot", png,
                       "--show-cost-matrix", "--size", "1400x880"});
        QVERIFY(p.waitForStarted());
        QVERIFY2(p.waitForFinished(180000), "warplab did not exit");
        const QByteArray log = p.readAll();
        QVERIFY2(p.exitCode() == 0, log.constData());
        QImage image(png);
        QVERIFY2(!image.isNull(), "no screenshot written");
        QVERIFY(image.width() >= 800 && image.height() >= 500);
        // A blank or failed window has a handful of colours; traces, a colour map and text
        // give thousands.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2) colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 500, qPrintable(QString("only %1 distinct colours").arg(colours.size())));
        // The cost-matrix colour map (right half) is not one flat colour either.
        QSet<QRgb> right;
        for (int y = image.height() / 4; y < 3 * image.height() / 4; y += 2)
            for (int x = image.width() * 2 / 3; x < image.width(); x += 2) right.insert(image.pixel(x, y));
        QVERIFY(right.size() > 100);
        const QString keep = qEnvironmentVariable("WARPLAB_SCREENSHOT_OUT");
        if (!keep.isEmpty()) QFile::copy(png, keep);
    }

    // `--run ACTION --timing`: a line per job, Run to result drawn, which includes the job's own
    // time from its start to its result in the views.
    void runTimingReportsRunToDrawn() {
        const QString xvfb = QStandardPaths::findExecutable("xvfb-run");
        if (xvfb.isEmpty()) QSKIP("xvfb-run is not installed");
        QTemporaryDir dir;
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "xcb");
        p.setProcessEnvironment(env);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(xvfb, {"-a", "-s", "-screen 0 1600x1000x24", WARPLAB_GUI_BINARY, "--screenshot", dir.filePath("m.png"),
                       "--run", "analysis.matrix", "--timing", "--size", "1400x880"});
        QVERIFY(p.waitForStarted());
        QVERIFY2(p.waitForFinished(180000), "warplab did not exit");
        const QString log = QString::fromUtf8(p.readAll());
        QVERIFY2(p.exitCode() == 0, qPrintable(log));
        const QRegularExpression line(R"(timing: (\S+): result drawn ([0-9.]+) s after Run \(the job, from its start to its result in the views: ([0-9.]+) s\))");
        const QRegularExpressionMatch m = line.match(log);
        QVERIFY2(m.hasMatch(), qPrintable(log));
        const double drawn = m.captured(2).toDouble(), job = m.captured(3).toDouble();
        QVERIFY2(drawn > 0 && drawn >= job, qPrintable(m.captured(0)));
    }
};

QTEST_GUILESS_MAIN(TestScreenshot)
#include "test_screenshot.moc"
