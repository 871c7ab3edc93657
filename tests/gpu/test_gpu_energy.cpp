// The GPU board energy of the benchmark rows (compute/bench/energy_meter.h)
// on a real NVIDIA board: NVML's energy counter is found for the device the kernels run on,
// a busy kernel gives a positive energy and a plausible mean power (10 W .. 1000 W) above the
// idle board's, short runs are repeated until the counter's window is long enough, engine rows
// get figures too and CPU rows say why they have none. Exit 1 on a failure, 77 without a
// device or in a HIP build (no NVML on AMD).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>

#include "compute/bench/bench.h"
#include "compute/bench/energy_meter.h"
#include "compute/gpu/bench/energy_boards.h"
#include "compute/gpu/bench/gpu_bench.h"
#include "compute/gpu/runtime/gpu_device.h"
#include "compute/registry/registry.h"
#include "tests/gpu/gpu_test_util.h"

using namespace warplab::compute;
using namespace warplab::gputest;

namespace {

std::string cudaKernel(const std::string& suffix) {
    for (Kernel* k : KernelRegistry::instance().all())
        if (k->backend() == Backend::Cuda && k->name() == "cuda." + suffix) return k->name();
    return "";
}

std::string describe(const EnergyFigure& e) {
    char buf[200];
    if (!e.valid()) return "no figure: " + e.note;
    std::snprintf(buf, sizeof buf, "%.3g J over %.3g s, %zu distances: %.3g J/distance, %.0f W", e.joules, e.seconds,
                  e.distances, e.joulesPerDistance(), e.meanPowerW());
    return buf;
}

// The figure of one row is plausible: a counted window long enough, power in the range of a
// data-centre board, and the per-distance figure consistent with the energy.
void checkFigure(const std::string& what, const EnergyFigure& e) {
    std::printf("     %s: %s\n", what.c_str(), describe(e).c_str());
    report(e.valid(), what + ": an energy figure", 0);
    if (!e.valid()) return;
    report(e.joules > 0, what + ": energy > 0", 0);
    report(e.seconds >= kMinEnergyWindowS, what + ": window >= the counter's minimum", 0);
    report(e.meanPowerW() > 10 && e.meanPowerW() < 1000, what + ": 10 W < mean power < 1000 W", 0);
    report(std::fabs(e.joulesPerDistance() * double(e.distances) - e.joules) <= 1e-9 * e.joules,
           what + ": J/distance x distances == energy", 0);
}

}  // namespace

int main() {
    if (!gpu::available()) {
        std::printf("SKIP: GPU energy suite not run: %s\n", gpu::unavailableReason().c_str());
        return 77;
    }
    const EnergyBoards board = gpu::currentEnergyBoard();
    if (board.boards.empty()) {
        std::printf("SKIP: GPU energy suite not run: %s\n", board.reason.c_str());  // a HIP build
        return 77;
    }
    std::printf("GPU energy suite on %s (PCI %s)\n", gpu::deviceName().c_str(), board.boards[0].pciBusId.c_str());
    EnergyMeter meter = openEnergyMeter(board);
    report(meter.available(), "NVML energy counter of the current device: " + (meter.available() ? "found" : meter.reason()), 0);
    if (!meter.available()) return finish();
    const std::string shuffle = cudaKernel("shuffle");
    report(!shuffle.empty(), "a kernel named cuda.shuffle", 0);
    if (shuffle.empty()) return finish();

    // The idle board, for comparison with a busy one.
    meter.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const EnergyFigure idle = meter.stop(1);
    std::printf("     idle board: %.0f W over %.2f s\n", idle.meanPowerW(), idle.seconds);

    // Device rows: a busy kernel (16384 DTW distances of 1024 samples per run).
    BenchConfig busy;
    busy.params.metric = Metric::Dtw;
    busy.kernels = {shuffle};
    busy.lengths = {1024};
    busy.pairs = 16384;
    busy.repeats = 3;
    const BenchTable rows = gpu::runDeviceBench(busy);
    report(rows.size() == 1 && rows[0].median_s > 0, "device row of " + shuffle, 0);
    if (rows.size() == 1) {
        checkFigure(rows[0].kernel + " 1024 x 16384", rows[0].energy);
        if (idle.valid() && rows[0].energy.valid())
            report(rows[0].energy.meanPowerW() > idle.meanPowerW(), "busy board draws more than the idle one", 0);
    }

    // Runs far shorter than the counter's window: repeated until the window is long enough.
    BenchConfig tiny = busy;
    tiny.lengths = {64};
    tiny.pairs = 16;
    tiny.repeats = 1;
    const BenchTable small = gpu::runDeviceBench(tiny);
    if (small.size() == 1) {
        checkFigure(small[0].kernel + " 64 x 16 (extended window)", small[0].energy);
        report(small[0].energy.distances > small[0].pairs, "short runs repeated for the energy window", 0);
    }

    // Engine rows through runBenchmark: the GPU kernel has a figure, the CPU kernel the reason.
    BenchConfig engine = busy;
    engine.kernels = {shuffle, "cpu.reference"};
    engine.lengths = {256};
    engine.pairs = 1024;
    engine.repeats = 2;
    engine.maxReferencePairs = 16;
    engine.deviceTiming = false;
    for (const BenchRow& r : runBenchmark(engine).rows) {
        if (r.kernel == shuffle) checkFigure(r.kernel + " engine row", r.energy);
        if (r.kernel == "cpu.reference")
            report(r.energy.note == "CPU kernel: no board energy counter", "CPU row: " + r.energy.note, 0);
    }
    return finish();
}
