// The offscreen soak (scripts/soak.sh; not a CTest test): the real main window driven through
// N random cycles of opening recordings and studies, marking regions, starting jobs of every
// kind and cancelling some of them, undo and redo. At the end no job or worker thread may be
// left, and the resident memory may have grown by at most a bound.
//   warplab-soak CYCLES [SEED]      env SOAK_DATA (default shared/data), SOAK_MAX_GROWTH_MB (200)
// Prints one line per 50 cycles and a summary line "soak: ..." that scripts/soak.sh keeps.
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QMessageBox>
#include <QThreadPool>
#include <QUndoStack>

#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include "app/gui/analysis_controller.h"
#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/study_controller.h"
#include "app/gui/unsaved_guard.h"
#include "io/recording.h"
#undef signals  // Qt's keyword macro; io::Recording::signals() is meant here

using namespace warplab;

namespace {

long rssKb() {
    std::ifstream in("/proc/self/status");
    std::string key;
    long value = 0;
    while (in >> key) {
        if (key == "VmRSS:") {
            in >> value;
            return value;
        }
        in.ignore(1 << 20, '\n');
    }
    return -1;
}

void pump(int ms) {
    QElapsedTimer t;
    t.start();
    do {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    } while (t.elapsed() < ms);
}

// Error dialogs are non-modal and delete themselves on close: close them as a user would.
int closeErrorDialogs() {
    int n = 0;
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) {
            box->close();
            ++n;
        }
    return n;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("WarpLabSoak");
    QCoreApplication::setApplicationName("warplab-soak");
    const int cycles = argc > 1 ? std::atoi(argv[1]) : 100;
    const unsigned seed = argc > 2 ? unsigned(std::strtoul(argv[2], nullptr, 10)) : 1u;
    const QString data = qEnvironmentVariableIsSet("SOAK_DATA") ? qEnvironmentVariable("SOAK_DATA") : QStringLiteral(WARPLAB_TEST_DATA);
    const long maxGrowthMb = qEnvironmentVariableIsSet("SOAK_MAX_GROWTH_MB") ? qEnvironmentVariableIntValue("SOAK_MAX_GROWTH_MB") : 200;

    QStringList recordings;
    for (const char* f : {"/chbmit/chb01_03_Seizure.edf", "/chbmit/chb01_03_NonSeizure.edf", "/eegmmidb/S001R03.edf",
                          "/bdf/Newtest17-256.bdf"})
        if (QFile::exists(data + f)) recordings << data + f;
    if (!app::MainWindow::samplePath().isEmpty()) recordings << app::MainWindow::samplePath();
    QStringList studies;
    for (const char* f : {"/chbmit", "/chbmit/chb01-summary.txt"})
        if (QFileInfo::exists(data + f)) studies << data + f;
    if (recordings.isEmpty()) {
        std::fprintf(stderr, "soak: no recording under %s (set SOAK_DATA)\n", qPrintable(data));
        return 2;
    }

    app::MainWindow w;
    w.resize(1280, 800);
    w.show();
    pump(50);
    // The summary names recordings that are not there: open the study anyway, as a user would.
    w.studyController()->setConfirm([](const QString&, const QString&) { return true; });
    // Unsaved marks are asked about before another recording or study opens: the soak discards.
    w.unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });
    // Refusals are expected (a job on too little marked, a study without the channel): each is
    // listed once by its title, so that a new kind of error stands out in the log.
    QStringList errorTitles;
    QObject::connect(&w, &app::MainWindow::errorShown, [&](const QString& title, const QString& message) {
        if (!errorTitles.contains(title)) {
            errorTitles << title;
            std::printf("error shown: %s: %s\n", qPrintable(title), qPrintable(message.left(200)));
        }
    });
    w.openFile(recordings[0]);
    std::mt19937 rng(seed);
    auto pick = [&](int n) { return int(rng() % unsigned(n)); };
    auto uniform = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };

    long jobs = 0, cancelled = 0, errors = 0, opened = 0, studiesOpened = 0, undos = 0;
    long rssStart = 0;
    QElapsedTimer clock;
    clock.start();
    for (int c = 0; c < cycles; ++c) {
        if (c == 10) rssStart = rssKb();  // after the first opens and jobs have warmed the caches
        app::Document* doc = w.document();
        const auto rec = doc->recording();
        switch (pick(10)) {
        case 0:
            opened += w.openFile(recordings[pick(int(recordings.size()))]);
            break;
        case 1:
            if (!studies.isEmpty() && pick(3) != 0) studiesOpened += w.openStudy(studies[pick(int(studies.size()))]);
            else w.studyController()->close();
            break;
        case 2:
        case 3:
            if (rec && !rec->signals().empty()) {
                const double dur = std::max(1.0, rec->durationS());
                const double len = uniform(0.5, std::min(4.0, dur / 2));
                const double start = uniform(0, std::max(0.0, dur - len));
                const auto kind = pick(3) == 0 ? io::RegionKind::Seizure : pick(2) ? io::RegionKind::Query : io::RegionKind::Reference;
                doc->addRegion({kind, pick(3) == 0 ? -1 : pick(int(rec->signals().size())), start, start + len, "soak"});
            }
            break;
        case 4: {
            QUndoStack* u = doc->undoStack();
            for (int k = pick(4); k > 0; --k) {
                if (pick(2) && u->canUndo()) u->undo();
                else if (u->canRedo()) u->redo();
                ++undos;
            }
            break;
        }
        default: {  // a job of one of the kinds, cancelled at once, soon, or left to finish
            if (!rec) break;
            app::AnalysisController* a = w.analysis();
            quint64 id = 0;
            switch (pick(8)) {
            case 0: id = a->alignExample(); break;
            case 1: id = a->alignMarkedRegions(); break;
            case 2: id = a->channelDistanceMatrix(); break;
            case 3: id = a->searchQuery(3); break;
            case 4: id = a->findPatterns(0); break;
            case 5: id = a->epochDistanceMatrix(0, 2.0, 2.0); break;
            case 6: id = a->runKernelComparison(); break;
            case 7: id = w.studyController()->study() ? w.studyController()->searchQuery(app::SearchScope::StudyChannel, 3) : a->searchQuery(3); break;
            }
            if (id == 0) break;
            ++jobs;
            const int mode = pick(3);
            if (mode == 0) {
                w.jobs()->cancel(id);
                ++cancelled;
            } else if (mode == 1) {
                pump(pick(200));
                if (w.jobs()->isActive(id)) {
                    w.jobs()->cancel(id);
                    ++cancelled;
                }
            } else {
                QElapsedTimer t;
                t.start();
                while (w.jobs()->isActive(id) && t.elapsed() < 3000) pump(10);
                if (w.jobs()->isActive(id)) {
                    w.jobs()->cancel(id);
                    ++cancelled;
                }
            }
            break;
        }
        }
        pump(10);
        errors += closeErrorDialogs();
        if ((c + 1) % 50 == 0)
            std::printf("cycle %d: %ld jobs (%ld cancelled), %ld errors shown, rss %ld MB, %lld s\n", c + 1, jobs, cancelled,
                        errors, rssKb() / 1024, clock.elapsed() / 1000);
        std::fflush(stdout);
    }
    w.jobs()->cancelAll();
    const bool idle = w.jobs()->waitForIdle(120000);
    pump(100);
    errors += closeErrorDialogs();
    const long rssEnd = rssKb();
    const int workers = w.jobs()->runningWorkers(), pending = w.jobs()->activeCount();
    const int globalThreads = QThreadPool::globalInstance()->activeThreadCount();
    const long growthMb = (rssEnd - rssStart) / 1024;
    std::printf("soak: %d cycles (seed %u) in %lld s: %ld recordings and %ld studies opened, %ld jobs (%ld cancelled), "
                "%ld undo/redo, %ld error dialogs; workers left %d, jobs left %d, global pool threads %d; "
                "rss %ld MB after cycle 10, %ld MB at the end (growth %ld MB, bound %ld)\n",
                cycles, seed, clock.elapsed() / 1000, opened, studiesOpened, jobs, cancelled, undos, errors, workers, pending,
                globalThreads, rssStart / 1024, rssEnd / 1024, growthMb, maxGrowthMb);
    const bool ok = idle && workers == 0 && pending == 0 && globalThreads == 0 && (cycles <= 10 || growthMb <= maxGrowthMb);
    std::printf("soak: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
