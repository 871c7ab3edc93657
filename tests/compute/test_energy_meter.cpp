// The GPU energy figures of the benchmark (compute/bench/energy_meter.h):
// the arithmetic from counter readings, a fake NVML counter through the meter, and every path
// that gives no figure a reason (no NVML library, no counter on the board, a window too short
// for the counter, a CPU kernel). The real counter is checked on a GPU by
// tests/gpu/test_gpu_energy.cpp.
#include <QtTest>

#include <chrono>
#include <cstring>
#include <thread>

#include "compute/bench/bench.h"
#include "compute/bench/energy_meter.h"

using namespace warplab::compute;

namespace {

// A fake NVML with two boards: "0000:17:00.0" (counter in `fakeMj[0]`) and "0000:65:00.0"
// (`fakeMj[1]`); with `fakeNoCounter` the energy query fails as on a pre-Volta board.
constexpr int kNotSupported = 3, kNotFound = 6;
unsigned long long fakeMj[2] = {0, 0};
bool fakeNoCounter = false;
int fakeBoards[2] = {0, 1};

int fakeByBusId(const char* busId, void** device) {
    if (std::strcmp(busId, "0000:17:00.0") == 0) *device = &fakeBoards[0];
    else if (std::strcmp(busId, "0000:65:00.0") == 0) *device = &fakeBoards[1];
    else return kNotFound;
    return 0;
}
int fakeByIndex(unsigned index, void** device) {
    if (index > 1) return kNotFound;
    *device = &fakeBoards[index];
    return 0;
}
int fakeEnergy(void* device, unsigned long long* mj) {
    if (fakeNoCounter) return kNotSupported;
    *mj = fakeMj[*static_cast<int*>(device)];
    return 0;
}
int fakeName(void*, char* name, unsigned length) {
    std::snprintf(name, length, "Fake GPU K80");
    return 0;
}
const char* fakeError(int r) { return r == kNotSupported ? "Not Supported" : r == kNotFound ? "Not Found" : "Unknown Error"; }

NvmlApi fakeNvml() {
    NvmlApi api;
    api.handleByPciBusId = fakeByBusId;
    api.handleByIndex = fakeByIndex;
    api.totalEnergy = fakeEnergy;
    api.name = fakeName;
    api.errorString = fakeError;
    return api;
}

EnergyBoards boards(std::vector<EnergyBoard> b) {
    EnergyBoards out;
    out.boards = std::move(b);
    out.reason.clear();
    return out;
}

}  // namespace

class TestEnergyMeter : public QObject {
    Q_OBJECT
private slots:
    void init() {
        fakeMj[0] = 1000;
        fakeMj[1] = 50000;
        fakeNoCounter = false;
    }

    void arithmeticOfOneWindow() {
        // Two boards: 5000 mJ + 2000 mJ over 0.5 s for 100 distances.
        const EnergyFigure f = energyFigure({1000, 2000}, {6000, 4000}, 0.5, 100);
        QVERIFY2(f.valid(), f.note.c_str());
        QCOMPARE(f.joules, 7.0);
        QCOMPARE(f.joulesPerDistance(), 0.07);
        QCOMPARE(f.meanPowerW(), 14.0);
        // Distances per ms per watt = distances / (ms * J / s) = 100 / (500 ms * 14 W).
        QCOMPARE(f.distancesPerMsPerW(), 100.0 / (500.0 * 14.0));
    }

    void windowsWithoutAFigure() {
        const EnergyFigure shortWindow = energyFigure({0}, {500}, 0.05, 10);
        QVERIFY(!shortWindow.valid());
        QCOMPARE(QString::fromStdString(shortWindow.note), QString("timed runs too short (50 ms) for the energy counter"));
        QCOMPARE(shortWindow.joulesPerDistance(), 0.0);
        QCOMPARE(shortWindow.meanPowerW(), 0.0);
        QVERIFY(energyFigure({0}, {500}, 0.05, 10, 0.01).valid());  // a shorter minimum accepts it

        const EnergyFigure still = energyFigure({700}, {700}, 1.0, 10);
        QVERIFY(!still.valid());
        QVERIFY2(still.note.find("did not advance in 1000 ms") != std::string::npos, still.note.c_str());
        QVERIFY(!energyFigure({900}, {100}, 1.0, 10).valid());  // counter reset (driver reload)
        QVERIFY(!energyFigure({0}, {100}, 1.0, 0).valid());
        QVERIFY(!energyFigure({}, {}, 1.0, 10).valid());
    }

    void fakeCounterThroughTheMeter() {
        const NvmlApi api = fakeNvml();
        EnergyMeter meter(&api, boards({{"0000:17:00.0", 0}, {"0000:65:00.0", 1}}), "", /*minWindowS=*/0.0);
        QVERIFY2(meter.available(), meter.reason().c_str());
        meter.start();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        fakeMj[0] += 3000;  // the kernel's board
        fakeMj[1] += 1000;  // the second board of a job spread over two
        const EnergyFigure f = meter.stop(40);
        QVERIFY2(f.valid(), f.note.c_str());
        QCOMPARE(f.joules, 4.0);
        QCOMPARE(f.joulesPerDistance(), 0.1);
        QVERIFY(f.seconds >= 0.005 && f.seconds < 5);
        QCOMPARE(f.meanPowerW(), 4.0 / f.seconds);

        // By NVML index where no PCI bus id is known.
        EnergyMeter byIndex(&api, boards({{"", 1}}), "", 0.0);
        QVERIFY(byIndex.available());
        byIndex.start();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        fakeMj[1] += 250;
        QCOMPARE(byIndex.stop(1).joules, 0.25);
    }

    void shortWindowAsksForMoreRuns() {
        const NvmlApi api = fakeNvml();
        EnergyMeter meter(&api, boards({{"0000:17:00.0", 0}}), "");  // the default minimum window
        QVERIFY(!meter.wantsLongerWindow());  // not started
        meter.start();
        QVERIFY(meter.wantsLongerWindow());
        fakeMj[0] += 10;
        const EnergyFigure f = meter.stop(4);
        QVERIFY(!f.valid());
        QVERIFY2(f.note.rfind("timed runs too short (", 0) == 0, f.note.c_str());
        QVERIFY(!meter.wantsLongerWindow());
    }

    void boardsWithoutACounter() {
        const NvmlApi api = fakeNvml();
        fakeNoCounter = true;
        EnergyMeter old(&api, boards({{"0000:17:00.0", 0}}), "");
        QVERIFY(!old.available());
        QCOMPARE(QString::fromStdString(old.reason()), QString("energy counter not supported on Fake GPU K80 (Not Supported)"));
        old.start();
        QCOMPARE(QString::fromStdString(old.stop(10).note), QString::fromStdString(old.reason()));
        fakeNoCounter = false;

        EnergyMeter unknown(&api, boards({{"0000:99:00.0", 0}}), "");
        QVERIFY(!unknown.available());
        QVERIFY2(unknown.reason().find("0000:99:00.0 (Not Found)") != std::string::npos, unknown.reason().c_str());

        EnergyBoards hip;
        hip.reason = "HIP: no NVML (AMD)";
        QCOMPARE(QString::fromStdString(EnergyMeter(&api, hip, "").reason()), QString("HIP: no NVML (AMD)"));
        QCOMPARE(QString::fromStdString(openEnergyMeter(hip).reason()), QString("HIP: no NVML (AMD)"));
    }

    void noNvmlLibraryNamesIt() {
        NvmlApi api;
        std::string why;
        QVERIFY(!loadNvml("libnvidia-ml-warplab-absent.so.1", api, why));
        QVERIFY2(why.rfind("NVML not found (", 0) == 0, why.c_str());
        QVERIFY2(why.find("libnvidia-ml-warplab-absent.so.1") != std::string::npos, why.c_str());
        QVERIFY(!api.totalEnergy);
        // A board given but no NVML: the meter carries the loader's reason.
        EnergyMeter meter(nullptr, boards({{"0000:17:00.0", 0}}), why);
        QCOMPARE(QString::fromStdString(meter.reason()), QString::fromStdString(why));
        // This machine's NVML, whichever it is: a table, or a reason.
        std::string sys;
        if (!systemNvml(sys)) QVERIFY2(!sys.empty(), "no NVML and no reason");
    }

    void cpuKernelRowsSayWhy() {
        BenchConfig cfg;
        cfg.kernels = {"cpu.reference"};
        cfg.params.metric = Metric::Dtw;
        cfg.lengths = {16};
        cfg.pairs = 4;
        cfg.repeats = 1;
        for (const BenchRow& row : runBench(cfg)) {
            QVERIFY(!row.energy.valid());
            QCOMPARE(QString::fromStdString(row.energy.note), QString("CPU kernel: no board energy counter"));
            QCOMPARE(row.energy.joulesPerDistance(), 0.0);
        }
        for (const BenchRow& row : runBenchmark(cfg).rows)
            if (row.kernel == "cpu.reference")
                QCOMPARE(QString::fromStdString(row.energy.note), QString("CPU kernel: no board energy counter"));
    }
};

QTEST_GUILESS_MAIN(TestEnergyMeter)
#include "test_energy_meter.moc"
