// GPU board energy over a benchmark's timed runs (distances per millisecond
// per watt): NVML's total-energy counter of each board the kernel ran on, read before and after
// the runs. The counter integrates power in the driver, so short bursts between power samples
// are not missed, but it advances only every few tens of milliseconds: a window shorter than
// kMinEnergyWindowS gives no figure, and callers run the kernel again until the window is long
// enough (those runs count for the energy, not for the median time).
// NVML is opened at run time (dlopen of libnvidia-ml.so.1, shipped with the NVIDIA driver), so
// that the program builds without nvml.h and runs where there is no driver; its entry points
// sit in a table that tests replace with a fake counter.
#pragma once
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace warplab::compute {

// The shortest window read from the counter: a few of its update periods, so that the
// quantisation of one update stays a small part of the figure.
inline constexpr double kMinEnergyWindowS = 0.25;

// The note of every CPU row: a CPU kernel has no board counter to read.
inline constexpr const char* kCpuEnergyNote = "CPU kernel: no board energy counter";

// The NVML entry points used, with NVML's C signatures (nvml.h: nvmlReturn_t is an int-sized
// enum, 0 = NVML_SUCCESS; nvmlDevice_t an opaque pointer). Energy is in millijoules.
struct NvmlApi {
    int (*handleByPciBusId)(const char* busId, void** device) = nullptr;   // nvmlDeviceGetHandleByPciBusId_v2
    int (*handleByIndex)(unsigned index, void** device) = nullptr;         // nvmlDeviceGetHandleByIndex_v2
    int (*totalEnergy)(void* device, unsigned long long* mJ) = nullptr;    // nvmlDeviceGetTotalEnergyConsumption
    int (*name)(void* device, char* name, unsigned length) = nullptr;      // nvmlDeviceGetName
    const char* (*errorString)(int result) = nullptr;                      // nvmlErrorString
};

// Opens `library` and initialises NVML (nvmlInit_v2). Returns false with `why` set, e.g.
// "NVML not found (libnvidia-ml.so.1: <dlerror>)". The library stays loaded for the process;
// nvmlShutdown runs at exit.
bool loadNvml(const std::string& library, NvmlApi& api, std::string& why);

// This machine's NVML, loaded once per process; null with `why` when there is none.
const NvmlApi* systemNvml(std::string& why);

// A board whose counter is read: by PCI bus id ("0000:17:00.0", as the CUDA runtime names
// the device a kernel ran on; immune to CUDA_VISIBLE_DEVICES renumbering), else by NVML index.
struct EnergyBoard {
    std::string pciBusId;
    unsigned index = 0;
};

// The boards a row's kernel runs on, or why none can be read (no GPU, a HIP build, ...).
struct EnergyBoards {
    std::vector<EnergyBoard> boards;
    std::string reason = "no GPU board given for the energy counter";
};

// What a window gave. With an empty `note`, `joules` over `seconds` for `distances`; else the
// note says why there is no figure and the numbers are 0.
struct EnergyFigure {
    double joules = 0;
    double seconds = 0;
    std::size_t distances = 0;
    std::string note;

    bool valid() const { return note.empty() && distances > 0 && seconds > 0; }
    double joulesPerDistance() const { return valid() ? joules / double(distances) : 0; }
    double meanPowerW() const { return valid() ? joules / seconds : 0; }
    // The published unit: distances per millisecond per watt, which is 1 / (1000 J/distance).
    double distancesPerMsPerW() const { return valid() && joules > 0 ? double(distances) / (1000.0 * joules) : 0; }
};

// The figure of one window from the counters' readings (mJ, one per board, before and after).
EnergyFigure energyFigure(const std::vector<unsigned long long>& beforeMj, const std::vector<unsigned long long>& afterMj,
                          double seconds, std::size_t distances, double minWindowS = kMinEnergyWindowS);

// Reads the energy of one or more boards (a job spread over several GPUs reads them all) over
// a window: start(), the runs, then stop(). Without a counter every stop() gives the reason.
class EnergyMeter {
public:
    // No counter: each figure's note is `reason` (kCpuEnergyNote, ...).
    explicit EnergyMeter(std::string reason);
    // The boards through `api` (null: `whyNoApi` is the reason). Each board's counter is read
    // once here, so that a board without one is known before the runs.
    EnergyMeter(const NvmlApi* api, const EnergyBoards& boards, const std::string& whyNoApi,
                double minWindowS = kMinEnergyWindowS);

    bool available() const { return reason_.empty(); }
    const std::string& reason() const { return reason_; }

    void start();
    double elapsedS() const;
    // True while a started window is shorter than the counter needs: run the kernel again.
    bool wantsLongerWindow() const { return available() && started_ && elapsedS() < minWindowS_; }
    EnergyFigure stop(std::size_t distances);

private:
    bool read(std::vector<unsigned long long>& mj);

    const NvmlApi* api_ = nullptr;
    std::vector<void*> devices_;
    std::vector<unsigned long long> before_;
    std::chrono::steady_clock::time_point t0_;
    std::string reason_;
    double minWindowS_ = kMinEnergyWindowS;
    bool started_ = false;
};

// A meter on this machine's NVML for `boards` (their reason when there are none).
EnergyMeter openEnergyMeter(const EnergyBoards& boards);

}  // namespace warplab::compute
