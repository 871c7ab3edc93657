// warplab: the desktop application. Opens the file given on the command line, else the
// bundled sample recording (`--study PATH`: a study instead). `--screenshot OUT.png [--show-cost-matrix]` grabs the main window
// once loaded (and once the example alignment finished) and exits: the Xvfb check uses it.
// `--run ACTION_ID` (repeatable, ids of the action table such as analysis.matrix) triggers
// actions first and grabs once their jobs are done; `--matrix-order average` orders the
// distance matrix (file, average, complete, single, label) before the grab; `--timing` prints,
// for each job of those actions, the time from Run to its result drawn. Without
// --screenshot, the states a crash left are offered first (restored: instead of the file).
#include <cstdio>

#include <QApplication>
#include <QFileInfo>
#include <QScreen>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QIcon>
#include <QTimer>

#include "app/gui/analysis_controller.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "widgets/atomic_file.h"
#include "widgets/distance_matrix_view.h"
#include <QAction>
#include <QComboBox>
#include "app/gui/study_controller.h"
#include "app/gui/recovery_dialog.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("WarpLab");
    QApplication::setApplicationName("warplab");
    QApplication::setApplicationVersion("0.1.0");
    QApplication::setWindowIcon(QIcon(":/icons/warplab.svg"));

    QCommandLineParser parser;
    parser.setApplicationDescription("WarpLab: elastic time-series distances on EEG recordings");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("file", "EDF/EDF+/BDF recording or series file (UCR text, CSV, NPY) to open");
    QCommandLineOption shot("screenshot", "Save a screenshot of the main window to <png> and exit.", "png");
    QCommandLineOption showCost("show-cost-matrix", "Before the screenshot, align an example pair and show its cost matrix.");
    QCommandLineOption size("size", "Window size WIDTHxHEIGHT.", "size", "1400x880");
    QCommandLineOption run("run", "Trigger the action ACTION_ID (repeatable) before the screenshot.", "id");
    QCommandLineOption order("matrix-order", "Distance matrix order before the screenshot: file, average, complete, single, label.", "order");
    QCommandLineOption study("study", "Open a study: a folder of recordings or a CHB-MIT summary file.", "path");
    QCommandLineOption skipMissing("skip-missing", "With --study: go on without the missing or damaged files, without asking.");
    QCommandLineOption timing("timing", "With --run: print on stderr, for each job, the seconds from Run to its result drawn.");
    parser.addOptions({shot, showCost, size, run, order, study, skipMissing, timing});
    parser.process(app);

    warplab::app::MainWindow window;
    const QStringList wh = parser.value(size).split('x');
    bool fill = false;
    if (wh.size() == 2) {
        QSize wanted(wh[0].toInt(), wh[1].toInt());
        // The default must fit a 1280 x 800 screen (a laptop): never larger than the screen.
        // Where it is cut to the screen it is shown maximised, so that a window manager fits
        // its title bar in too (else the status bar fell below the screen's edge).
        if (!parser.isSet(size))
            if (const QScreen* screen = QGuiApplication::primaryScreen()) {
                const QSize room = screen->availableSize();
                fill = wanted.width() > room.width() || wanted.height() > room.height();
                wanted = wanted.boundedTo(room);
            }
        window.resize(wanted);
    }
    if (fill) window.showMaximized();
    else window.show();
    const QStringList files = parser.positionalArguments();
    if (parser.isSet(skipMissing)) window.studyController()->setConfirm([](const QString&, const QString&) { return true; });
    const bool restored = !parser.isSet(shot) && window.offerRecovery() == warplab::app::RecoveryDialog::Restore;
    const bool opened = restored                ? true
                        : parser.isSet(study)   ? window.openStudy(parser.value(study))
                        : files.isEmpty()   ? window.openSample()
                                            : window.openFile(files.first());

    if (parser.isSet(shot)) {
        const QString out = parser.value(shot);
        auto grab = [&window, &app, out, opened] {
            // Let pending queued replots of the plots run before grabbing.
            QTimer::singleShot(400, &window, [&window, &app, out, opened] {
                // Whole or not at all, like every file the window writes; a failure says why.
                const QByteArray format = QFileInfo(out).suffix().toUpper().toLatin1();
                const QString error = warplab::widgets::writeFileAtomically(out, [&window, &format](QIODevice& d) {
                    return window.grab().save(&d, format.isEmpty() ? "PNG" : format.constData());
                });
                if (!error.isEmpty()) std::fprintf(stderr, "%s\n", qPrintable(error));
                app.exit(error.isEmpty() && opened ? 0 : 1);
            });
        };
        const QStringList ids = parser.values(run);
        if (opened && !ids.isEmpty()) {
            auto* jobs = window.jobs();
            const QString wanted = parser.value(order);
            auto whenIdle = [&window, jobs, grab, wanted] {
                if (jobs->activeCount() > 0) return;
                auto* box = window.distanceView()->orderBox();
                for (int i = 0; i < box->count(); ++i)
                    if (!wanted.isEmpty() && box->itemText(i).contains(wanted)) {
                        box->setCurrentIndex(i);
                        Q_EMIT box->activated(i);
                    }
                grab();
            };
            // Run to result drawn: the result applied to the views (jobFinished), the updates that
            // queued run (plots replot on the next turn of the event loop), then the window painted.
            static QElapsedTimer sinceRun;
            if (parser.isSet(timing))
                QObject::connect(jobs, &warplab::app::JobRunner::jobFinished, &window,
                                 [&window](quint64, const QString& slot, qint64 jobMs) {
                                     QTimer::singleShot(0, &window, [&window, slot, jobMs] {
                                         window.repaint();
                                         std::fprintf(stderr,
                                                      "timing: %s: result drawn %.3f s after Run (the job, from its start "
                                                      "to its result in the views: %.3f s)\n",
                                                      qPrintable(slot), double(sinceRun.nsecsElapsed()) / 1e9,
                                                      double(jobMs) / 1e3);
                                     });
                                 });
            QObject::connect(jobs, &warplab::app::JobRunner::jobFinished, &window, [whenIdle] { QTimer::singleShot(0, whenIdle); });
            QObject::connect(jobs, &warplab::app::JobRunner::jobFailed, &window, [&app] { app.exit(1); });
            sinceRun.start();
            for (const QString& id : ids) {
                QAction* a = window.actions().action(id);
                if (!a) return 2;
                a->trigger();
            }
        } else if (opened && parser.isSet(showCost)) {
            auto* jobs = window.jobs();
            QObject::connect(jobs, &warplab::app::JobRunner::jobFinished, &window, grab);
            QObject::connect(jobs, &warplab::app::JobRunner::jobFailed, &window, [&app] { app.exit(1); });
            if (window.analysis()->alignExample() == 0) return 1;
        } else {
            grab();
        }
        QTimer::singleShot(120000, &app, [&app] { app.exit(2); });  // never hang a CI run
    }
    return app.exec();
}
