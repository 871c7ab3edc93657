// A device error or an allocation that fails in the middle of a GUI job: the real main window
// offscreen, every job kind (distance matrix, patterns, align, search, kernel comparison, and
// the study-wide search and patterns). The
// fault comes through the engine's own seams: a GPU kernel stand-in registered in the kernel
// registry that computes a few tiles and then throws the out-of-memory error every GPU path
// throws (compute/core/device_error.h), the job runner's progress probe throwing it from
// inside the engine's threads, and an address-space limit that makes the alignment's real
// allocation fail. Each time the window stays live (its event loop runs through the job, the
// error dialog is not modal), the job ends with the reason shown (naming the device and the
// size asked), the results shown before and the regions are intact, and the next job runs.
#include <sys/resource.h>

#include <atomic>
#include <fstream>
#include <memory>
#include <new>
#include <stdexcept>

#include <QMessageBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>

#include "app/gui/analysis_controller.h"
#include "app/gui/document.h"
#include "app/gui/job_runner.h"
#include "app/gui/main_window.h"
#include "app/gui/study_controller.h"
#include "app/gui/unsaved_guard.h"
#include "compute/core/device_error.h"
#include "compute/engine/device_list.h"
#include "compute/registry/registry.h"
#include "widgets/cost_matrix_view.h"
#include "widgets/distance_matrix_view.h"
#include "widgets/kernel_comparison_view.h"
#include "widgets/metric_panel.h"
#include "widgets/patterns_view.h"
#include "widgets/search_results_view.h"
#include "widgets/study_results_view.h"

using namespace warplab;

namespace {

const QString kRecording = QStringLiteral(WARPLAB_TEST_DATA "/chbmit/chb01_03_Seizure.edf");
const QString kOther = QStringLiteral(WARPLAB_TEST_DATA "/chbmit/chb01_03_NonSeizure.edf");
constexpr const char* kStandIn = "cuda.fault-stand-in";
#if WARPLAB_HAVE_GPU
constexpr bool kGpuBuild = true;
#else
constexpr bool kGpuBuild = false;
#endif
constexpr std::size_t kAsked = std::size_t(3) << 30;  // what the stand-in's allocation asks

compute::EngineError deviceFault() {
    return compute::deviceOutOfMemory(0, "Stand-in GPU", kAsked, std::size_t(1) << 30, std::size_t(80) << 30, "tile buffers");
}

// A GPU kernel as the registry lists it: tiles computed by cpu.reference until `tilesLeft`
// runs out, then the device refuses an allocation. Disarmed (tilesLeft < 0) it never fails.
class FaultyGpuKernel : public compute::Kernel {
public:
    static inline std::atomic<int> tilesLeft{-1};
    std::string name() const override { return kStandIn; }
    std::string description() const override { return "a GPU kernel that runs out of device memory (tests only)"; }
    // A GPU build on a machine without a usable device refuses every CUDA kernel before its
    // first tile (no device to spread the tiles over); there the stand-in goes as a CPU kernel
    // and its tiles fail all the same.
    compute::Backend backend() const override {
        static const bool anyDevice = !compute::gpuDeviceLabels().empty();
        return anyDevice || !kGpuBuild ? compute::Backend::Cuda : compute::Backend::Cpu;
    }
    bool supports(compute::Metric m) const override { return reference()->supports(m); }
    int priority() const override { return -1000; }
    std::size_t preferredTileRows() const override { return 4; }
    std::size_t preferredTileCols() const override { return 4; }
    void computeTile(const compute::TileTask& task) override {
        if (tilesLeft.load() >= 0 && tilesLeft.fetch_sub(1) <= 0) throw deviceFault();
        reference()->computeTile(task);
    }
private:
    static compute::Kernel* reference() { return compute::KernelRegistry::instance().find("cpu.reference"); }
};

bool sameRegions(const std::vector<io::Region>& a, const std::vector<io::Region>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].kind != b[i].kind || a[i].channel != b[i].channel || a[i].startS != b[i].startS || a[i].endS != b[i].endS ||
            a[i].note != b[i].note)
            return false;
    return true;
}

// An address-space limit (RLIMIT_AS) while it lives: allocations past it fail as on a host
// whose memory ran out.
struct AddressSpaceLimit {
    rlimit old{};
    bool set = false;
    explicit AddressSpaceLimit(std::uint64_t bytes) {
        getrlimit(RLIMIT_AS, &old);
        rlimit tight = old;
        tight.rlim_cur = rlim_t(bytes);
        set = setrlimit(RLIMIT_AS, &tight) == 0;
    }
    ~AddressSpaceLimit() { setrlimit(RLIMIT_AS, &old); }
};

// Bytes of address space the process has mapped now (/proc/self/statm, first field in pages).
std::uint64_t mappedBytes() {
    std::ifstream f("/proc/self/statm");
    std::uint64_t pages = 0;
    f >> pages;
    return pages * std::uint64_t(sysconf(_SC_PAGE_SIZE));
}

}  // namespace

class TestJobFaults : public QObject {
    Q_OBJECT
    QTemporaryDir data_;
    std::unique_ptr<app::MainWindow> w_;

    void useCpu() {
        w_->metricPanel()->setBackend(compute::Backend::Cpu);
        w_->metricPanel()->setKernel({});
    }
    void useStandIn(int tiles) {
        FaultyGpuKernel::tilesLeft = tiles;
        w_->metricPanel()->setBackend(compute::Backend::Auto);
        w_->metricPanel()->setKernel(kStandIn);
        QCOMPARE(QString::fromStdString(w_->metricPanel()->runOptions().kernel), QString(kStandIn));
    }
    // Waits for the one job `id` to end, the window's event loop running all along.
    void waitForEnd(quint64 id, bool expectFailure, QString* title = nullptr, QString* message = nullptr) {
        QVERIFY(id != 0);
        QSignalSpy failed(w_->jobs(), &app::JobRunner::jobFailed);
        QSignalSpy finished(w_->jobs(), &app::JobRunner::jobFinished);
        QSignalSpy shown(w_.get(), &app::MainWindow::errorShown);
        int ticks = 0;
        QTimer tick;
        tick.setInterval(1);
        connect(&tick, &QTimer::timeout, this, [&] { ++ticks; });
        tick.start();
        QTRY_VERIFY_WITH_TIMEOUT(failed.count() + finished.count() == 1, 120000);
        QVERIFY(w_->jobs()->waitForIdle(30000));
        QCoreApplication::processEvents();
        QVERIFY2(ticks > 0, "the window's event loop did not run during the job");
        QCOMPARE(w_->jobs()->activeCount(), 0);
        QCOMPARE(w_->jobs()->runningWorkers(), 0);
        if (!expectFailure) {
            QVERIFY2(failed.isEmpty(), qPrintable(failed.isEmpty() ? QString() : failed.front().at(3).toString()));
            return;
        }
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.front().at(0).toULongLong(), id);
        QVERIFY(!shown.isEmpty());
        if (title) *title = shown.last().at(0).toString();
        if (message) *message = shown.last().at(1).toString();
        // Shown as a person sees it: a dialog that does not block the window.
        QVERIFY(QApplication::activeModalWidget() == nullptr);
        bool dialog = false;
        const QString firstLine = shown.last().at(1).toString().section('\n', 0, 0);
        for (auto* box : w_->findChildren<QMessageBox*>("errorDialog"))
            if (box->isVisible() && (box->text() + "\n" + box->informativeText()).contains(firstLine)) {
                dialog = true;
                if (const QString dir = qEnvironmentVariable("WARPLAB_TEST_SCREENSHOTS"); !dir.isEmpty())
                    box->grab().save(dir + "/job_fault_" + failed.front().at(1).toString() + ".png");
            }
        QVERIFY2(dialog, "no visible error dialog with the reason");
    }
    // After a failure: a region can still be marked and undone (the window takes input).
    void windowTakesInput() {
        const auto before = w_->document()->regions();
        w_->document()->addRegion({io::RegionKind::Query, 1, 5, 6, "after the fault"});
        QCOMPARE(w_->document()->regions().size(), before.size() + 1);
        w_->document()->undoStack()->undo();
        QVERIFY(sameRegions(w_->document()->regions(), before));
    }
    static void verifyDeviceReason(const QString& message) {
        QVERIFY2(message.contains("out of device memory on GPU 0 (Stand-in GPU)"), qPrintable(message));
        QVERIFY2(message.contains("3.00 GiB asked"), qPrintable(message));
        QVERIFY2(message.contains("unchanged"), qPrintable(message));
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(QFile::exists(kRecording), qPrintable(kRecording + " is missing (tests/data)"));
        qputenv("XDG_DATA_HOME", data_.path().toLocal8Bit());
        QCoreApplication::setOrganizationName("WarpLabTests");
        QCoreApplication::setApplicationName("test_job_faults");
        // Before any window: the metric panel lists it like every registered kernel.
        compute::KernelRegistry::instance().add(std::make_unique<FaultyGpuKernel>());
    }

    void init() {
        FaultyGpuKernel::tilesLeft = -1;
        w_ = std::make_unique<app::MainWindow>();
        w_->resize(1300, 850);
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
        QVERIFY(w_->openFile(kRecording));
        w_->document()->addRegion({io::RegionKind::Query, 0, 3.0, 5.0, "q"});
        w_->document()->addRegion({io::RegionKind::Reference, 0, 20.0, 23.0, "r"});
        w_->document()->addRegion({io::RegionKind::Seizure, -1, 1.0, 30.0, "onset"});
        compute::Params p;
        p.metric = compute::Metric::Cdtw;
        p.band = 16;
        w_->metricPanel()->setParams(p);
        useCpu();
    }

    void cleanup() {
        w_->jobs()->setProgressProbe({});
        FaultyGpuKernel::tilesLeft = -1;
        w_->unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });
        w_->close();
        w_.reset();
    }

    void distanceMatrixDeviceFault() {
        waitForEnd(w_->analysis()->channelDistanceMatrix(), false);
        const compute::DistanceMatrix* before = w_->distanceView()->matrix();
        QVERIFY(before);
        const auto values = before->values;
        const auto regions = w_->document()->regions();
        useStandIn(3);
        QString title, message;
        waitForEnd(w_->analysis()->channelDistanceMatrix(), true, &title, &message);
        QVERIFY2(title.startsWith("Distance matrix") && title.endsWith("failed"), qPrintable(title));
        verifyDeviceReason(message);
        QVERIFY(FaultyGpuKernel::tilesLeft < 0);  // it failed mid-job, after tiles that succeeded
        QCOMPARE(w_->distanceView()->matrix(), before);
        QVERIFY(w_->distanceView()->matrix()->values == values);
        QVERIFY(sameRegions(w_->document()->regions(), regions));
        windowTakesInput();
        useCpu();
        waitForEnd(w_->analysis()->channelDistanceMatrix(), false);
        QVERIFY(w_->distanceView()->matrix() != before);
        QVERIFY(w_->distanceView()->matrix()->values == values);  // the same window, the same distances
    }

    void patternsDeviceFault() {
        waitForEnd(w_->analysis()->findPatterns(0, 512, 256), false);
        const auto before = w_->patternsView()->ranking();
        QVERIFY(before && !before->ranked.empty());
        const auto regions = w_->document()->regions();
        useStandIn(2);
        QString title, message;
        waitForEnd(w_->analysis()->findPatterns(0, 512, 256), true, &title, &message);
        QVERIFY2(title.startsWith("Seizure patterns"), qPrintable(title));
        verifyDeviceReason(message);
        QCOMPARE(w_->patternsView()->ranking(), before);
        QVERIFY(sameRegions(w_->document()->regions(), regions));
        windowTakesInput();
        useCpu();
        waitForEnd(w_->analysis()->findPatterns(0, 512, 256), false);
        QVERIFY(w_->patternsView()->ranking() != before);
        QCOMPARE(w_->patternsView()->ranking()->ranked.size(), before->ranked.size());
    }

    // The alignment's low-memory path (no full matrix) computes on the chosen kernel.
    void alignDeviceFault() {
        waitForEnd(w_->analysis()->alignMarkedRegions(), false);
        const compute::Alignment* before = w_->costView()->alignment();
        QVERIFY(before);
        const double distance = before->distance;
        w_->analysis()->setMemoryBudget(1);
        useStandIn(0);
        QString title, message;
        waitForEnd(w_->analysis()->alignMarkedRegions(), true, &title, &message);
        verifyDeviceReason(message);
        QCOMPARE(w_->costView()->alignment(), before);
        windowTakesInput();
        useCpu();
        w_->analysis()->setMemoryBudget(0);
        waitForEnd(w_->analysis()->alignMarkedRegions(), false);
        QVERIFY(w_->costView()->alignment() != before);
        QCOMPARE(w_->costView()->alignment()->distance, distance);
    }

    // The full cost matrix of two 40 s regions (10240 x 10240 doubles, 800 MiB) under an
    // address-space limit 300 MiB above what the process maps: the real allocation fails.
    void alignAllocationFails() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
        QSKIP("a sanitizer's allocator ends the process on a failed allocation instead of throwing");
#endif
        waitForEnd(w_->analysis()->alignMarkedRegions(), false);
        const compute::Alignment* before = w_->costView()->alignment();
        QVERIFY(before);
        const auto regions = w_->document()->regions();
        w_->analysis()->setMemoryBudget(std::uint64_t(4) << 30);
        QSignalSpy failed(w_->jobs(), &app::JobRunner::jobFailed);
        quint64 id = 0;
        {
            // The limit before the job starts (its worker allocates at once), lifted however this ends.
            AddressSpaceLimit limit(mappedBytes() + (std::uint64_t(300) << 20));
            QVERIFY(limit.set);
            id = w_->analysis()->alignSegments(0, 0.5, 40.5, 1, 0.5, 40.5);
            QVERIFY(id != 0);
            QTRY_VERIFY_WITH_TIMEOUT(failed.count() == 1 || !w_->jobs()->isActive(id), 60000);
        }
        QString message;
        QCOMPARE(failed.count(), 1);
        message = failed.front().at(3).toString();
        QVERIFY2(message.contains("out of host memory") && message.contains("10240 × 10240") && message.contains("800.0 MiB"),
                 qPrintable(message));
        QVERIFY(w_->jobs()->waitForIdle(30000));
        QCOMPARE(w_->costView()->alignment(), before);
        QVERIFY(sameRegions(w_->document()->regions(), regions));
        windowTakesInput();
        waitForEnd(w_->analysis()->alignMarkedRegions(), false);
        QVERIFY(w_->costView()->alignment() != before);
    }

    // The search runs on the CPU here: the fault comes from inside its parallel sweep.
    void searchDeviceFault() {
        waitForEnd(w_->analysis()->searchQuery(3), false);
        const auto matches = w_->searchView()->matches();
        QVERIFY(!matches.empty());
        const auto regions = w_->document()->regions();
        std::atomic<int> reports{0};
        w_->jobs()->setProgressProbe([&](const QString& slot, double) {
            if (slot == "search" && reports.fetch_add(1) == 0) throw deviceFault();
        });
        QString title, message;
        waitForEnd(w_->analysis()->searchQuery(3), true, &title, &message);
        QVERIFY2(title.startsWith("Top 3 matches"), qPrintable(title));
        verifyDeviceReason(message);
        QCOMPARE(w_->searchView()->matches().size(), matches.size());
        for (std::size_t i = 0; i < matches.size(); ++i) QCOMPARE(w_->searchView()->matches()[i].start, matches[i].start);
        QVERIFY(sameRegions(w_->document()->regions(), regions));
        windowTakesInput();
        w_->jobs()->setProgressProbe({});
        waitForEnd(w_->analysis()->searchQuery(3), false);
        QCOMPARE(w_->searchView()->matches().size(), matches.size());
    }

    // The kernel comparison: a kernel that fails is a row saying why, the others are timed;
    // a fault outside the kernels ends the job and keeps the table shown before.
    void kernelComparisonDeviceFault() {
        auto* view = w_->kernelView();
        view->setLengths("32");
        QVERIFY(view->checkedKernels().contains(kStandIn));
        FaultyGpuKernel::tilesLeft = 1;
        waitForEnd(w_->analysis()->runKernelComparison(), false);
        const auto rows = view->results();
        bool standInRow = false, cpuRow = false;
        for (const auto& r : rows) {
            if (r.kernel == kStandIn) {
                standInRow = true;
                QVERIFY2(r.note.find("failed: gpu: out of device memory on GPU 0 (Stand-in GPU)") != std::string::npos, r.note.c_str());
            } else if (r.kernel == "cpu.reference") {
                cpuRow = r.median_s > 0;
            }
        }
        QVERIFY(standInRow && cpuRow);
        w_->jobs()->setProgressProbe([](const QString& slot, double) {
            if (slot == "bench") throw deviceFault();
        });
        QString title, message;
        waitForEnd(w_->analysis()->runKernelComparison(), true, &title, &message);
        QVERIFY2(title.startsWith("Kernel comparison"), qPrintable(title));
        verifyDeviceReason(message);
        QCOMPARE(view->results().size(), rows.size());
        windowTakesInput();
        w_->jobs()->setProgressProbe({});
        FaultyGpuKernel::tilesLeft = -1;
        waitForEnd(w_->analysis()->runKernelComparison(), false);
        for (const auto& r : view->results())
            if (r.kernel == kStandIn) QVERIFY2(r.note.find("failed") == std::string::npos, r.note.c_str());
    }
    // Study-wide jobs: the search over every recording's channel, the patterns over the study.
    void studyJobsDeviceFault() {
        QTemporaryDir folder;
        QVERIFY(QFile::copy(kRecording, folder.filePath("a.edf")));
        QVERIFY(QFile::copy(kOther, folder.filePath("b.edf")));
        app::StudyController* study = w_->studyController();
        study->setConfirm([](const QString&, const QString&) { return true; });
        w_->unsavedGuard()->setAsk([](const QString&) { return QMessageBox::Discard; });
        QVERIFY(w_->openStudy(folder.path()));
        w_->document()->addRegion({io::RegionKind::Query, 0, 3.0, 5.0, "q"});
        w_->document()->addRegion({io::RegionKind::Seizure, -1, 1.0, 30.0, "onset"});
        const auto regions = w_->document()->regions();
        auto* view = w_->studyResults();

        waitForEnd(study->searchQuery(app::SearchScope::StudyChannel, 3), false);
        auto rows = view->rows();
        QVERIFY(!rows.empty());
        w_->jobs()->setProgressProbe([](const QString& slot, double) {
            if (slot == "study.search") throw deviceFault();
        });
        QString title, message;
        waitForEnd(study->searchQuery(app::SearchScope::StudyChannel, 3), true, &title, &message);
        verifyDeviceReason(message);
        QCOMPARE(view->rows().size(), rows.size());
        QCOMPARE(view->rows().front().startS, rows.front().startS);
        QVERIFY(sameRegions(w_->document()->regions(), regions));
        w_->jobs()->setProgressProbe({});
        waitForEnd(study->searchQuery(app::SearchScope::StudyChannel, 3), false);
        QCOMPARE(view->rows().size(), rows.size());

        waitForEnd(study->findPatterns(0, 512, 256), false);
        rows = view->rows();
        QVERIFY(!rows.empty());
        useStandIn(2);
        waitForEnd(study->findPatterns(0, 512, 256), true, &title, &message);
        verifyDeviceReason(message);
        QCOMPARE(view->rows().size(), rows.size());
        QCOMPARE(view->rows().front().value, rows.front().value);
        QVERIFY(sameRegions(w_->document()->regions(), regions));
        windowTakesInput();
        useCpu();
        waitForEnd(study->findPatterns(0, 512, 256), false);
        QCOMPARE(view->rows().size(), rows.size());
    }
    // What the runner itself catches: a result that cannot be shown (its Apply throws on the
    // GUI thread: memory for an image, a view's own error) and work throwing something that is
    // not an exception class. Each fails its job by name; the window goes on.
    void resultsThatCannotBeShownFailTheJob() {
        auto* jobs = w_->jobs();
        QSignalSpy failed(jobs, &app::JobRunner::jobFailed);
        QSignalSpy finished(jobs, &app::JobRunner::jobFinished);
        jobs->submit("test.image", "Showing a large result", {}, [](const compute::RunOptions&) -> app::JobRunner::Apply {
            return [] { throw std::bad_alloc(); };
        });
        jobs->submit("test.view", "Showing a result", {}, [](const compute::RunOptions&) -> app::JobRunner::Apply {
            return [] { throw std::out_of_range("row 12 of 10"); };
        });
        jobs->submit("test.odd", "Odd work", {}, [](const compute::RunOptions&) -> app::JobRunner::Apply { throw 42; });
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 3, 30000);
        QCOMPARE(finished.count(), 0);
        QStringList messages;
        for (const auto& f : failed) messages << f.at(1).toString() + ": " + f.at(3).toString();
        messages.sort();
        QCOMPARE(messages, (QStringList{"test.image: out of memory while showing the result",
                                        "test.odd: an unknown error stopped the job",
                                        "test.view: the result could not be shown: row 12 of 10"}));
        QVERIFY(jobs->waitForIdle(10000));
        QCOMPARE(jobs->activeCount(), 0);
        windowTakesInput();
        waitForEnd(w_->analysis()->channelDistanceMatrix(), false);
    }
};

QTEST_MAIN(TestJobFaults)
#include "test_job_faults.moc"
