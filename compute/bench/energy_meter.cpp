// EnergyMeter (energy_meter.h): NVML through dlopen, the counters read around a window.
#include "compute/bench/energy_meter.h"

#include <dlfcn.h>

#include <cstdio>
#include <mutex>

namespace warplab::compute {

namespace {

constexpr int kNvmlSuccess = 0;

// nvmlShutdown of every NVML this process initialised, at exit (NVML counts its inits).
struct Shutdowns {
    std::mutex mutex;
    std::vector<int (*)()> calls;
    ~Shutdowns() {
        for (auto call : calls) call();
    }
};
Shutdowns& shutdowns() {
    static Shutdowns s;
    return s;
}

std::string milliseconds(double seconds) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f ms", seconds * 1000.0);
    return buf;
}

std::string errorText(const NvmlApi& api, int result) {
    const char* s = api.errorString ? api.errorString(result) : nullptr;
    return s ? s : "NVML error " + std::to_string(result);
}

std::string boardName(const NvmlApi& api, void* device, const EnergyBoard& board) {
    char name[96] = {};
    if (api.name && api.name(device, name, sizeof name) == kNvmlSuccess && name[0]) return name;
    return board.pciBusId.empty() ? "NVML device " + std::to_string(board.index) : "the GPU at " + board.pciBusId;
}

}  // namespace

bool loadNvml(const std::string& library, NvmlApi& api, std::string& why) {
    void* lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char* err = dlerror();
        std::string detail = err ? err : "not loadable";
        // glibc's message usually starts with the file name; name it once either way.
        if (detail.rfind(library, 0) != 0) detail = library + ": " + detail;
        why = "NVML not found (" + detail + ")";
        return false;
    }
    std::string missing;
    auto symbol = [&](const char* name) {
        void* p = dlsym(lib, name);
        if (!p && missing.empty()) missing = name;
        return p;
    };
    NvmlApi a;
    auto init = reinterpret_cast<int (*)()>(symbol("nvmlInit_v2"));
    auto shutdown = reinterpret_cast<int (*)()>(symbol("nvmlShutdown"));
    a.handleByPciBusId = reinterpret_cast<int (*)(const char*, void**)>(symbol("nvmlDeviceGetHandleByPciBusId_v2"));
    a.handleByIndex = reinterpret_cast<int (*)(unsigned, void**)>(symbol("nvmlDeviceGetHandleByIndex_v2"));
    a.totalEnergy = reinterpret_cast<int (*)(void*, unsigned long long*)>(symbol("nvmlDeviceGetTotalEnergyConsumption"));
    a.name = reinterpret_cast<int (*)(void*, char*, unsigned)>(symbol("nvmlDeviceGetName"));
    a.errorString = reinterpret_cast<const char* (*)(int)>(symbol("nvmlErrorString"));
    if (!missing.empty()) {
        why = "NVML in " + library + " lacks " + missing + " (driver too old for the energy counter)";
        dlclose(lib);
        return false;
    }
    if (const int r = init(); r != kNvmlSuccess) {
        why = "NVML did not start (" + errorText(a, r) + ")";
        dlclose(lib);
        return false;
    }
    {
        std::lock_guard lock(shutdowns().mutex);
        shutdowns().calls.push_back(shutdown);
    }
    api = a;
    return true;
}

const NvmlApi* systemNvml(std::string& why) {
    static std::string reason;
    static const NvmlApi* api = [] {
        static NvmlApi loaded;
        return loadNvml("libnvidia-ml.so.1", loaded, reason) ? &loaded : nullptr;
    }();
    why = reason;
    return api;
}

EnergyFigure energyFigure(const std::vector<unsigned long long>& beforeMj, const std::vector<unsigned long long>& afterMj,
                          double seconds, std::size_t distances, double minWindowS) {
    EnergyFigure f;
    f.seconds = seconds;
    f.distances = distances;
    if (beforeMj.empty() || beforeMj.size() != afterMj.size()) f.note = "energy counter not read";
    else if (distances == 0) f.note = "no distances computed";
    else if (seconds < minWindowS) f.note = "timed runs too short (" + milliseconds(seconds) + ") for the energy counter";
    else {
        unsigned long long mj = 0;
        for (std::size_t b = 0; b < beforeMj.size(); ++b) {
            if (afterMj[b] < beforeMj[b]) {
                f.note = "energy counter went back (driver reloaded?)";
                break;
            }
            mj += afterMj[b] - beforeMj[b];
        }
        if (f.note.empty() && mj == 0) f.note = "energy counter did not advance in " + milliseconds(seconds);
        if (f.note.empty()) f.joules = double(mj) / 1000.0;
    }
    if (!f.note.empty()) f.seconds = 0, f.distances = 0;
    return f;
}

EnergyMeter::EnergyMeter(std::string reason) : reason_(std::move(reason)) {
    if (reason_.empty()) reason_ = "no energy counter";
}

EnergyMeter::EnergyMeter(const NvmlApi* api, const EnergyBoards& boards, const std::string& whyNoApi, double minWindowS)
    : api_(api), minWindowS_(minWindowS) {
    if (boards.boards.empty()) {
        reason_ = boards.reason.empty() ? "no GPU board given for the energy counter" : boards.reason;
        return;
    }
    if (!api_) {
        reason_ = whyNoApi.empty() ? "NVML not available" : whyNoApi;
        return;
    }
    for (const EnergyBoard& b : boards.boards) {
        void* device = nullptr;
        const int r = b.pciBusId.empty() ? api_->handleByIndex(b.index, &device)
                                         : api_->handleByPciBusId(b.pciBusId.c_str(), &device);
        if (r != kNvmlSuccess) {
            reason_ = "NVML does not know " + (b.pciBusId.empty() ? "device " + std::to_string(b.index) : b.pciBusId) +
                      " (" + errorText(*api_, r) + ")";
            return;
        }
        unsigned long long mj = 0;
        if (const int e = api_->totalEnergy(device, &mj); e != kNvmlSuccess) {
            reason_ = "energy counter not supported on " + boardName(*api_, device, b) + " (" + errorText(*api_, e) + ")";
            return;
        }
        devices_.push_back(device);
    }
}

bool EnergyMeter::read(std::vector<unsigned long long>& mj) {
    mj.assign(devices_.size(), 0);
    for (std::size_t d = 0; d < devices_.size(); ++d)
        if (api_->totalEnergy(devices_[d], &mj[d]) != kNvmlSuccess) return false;
    return true;
}

void EnergyMeter::start() {
    if (!available()) return;
    started_ = read(before_);
    t0_ = std::chrono::steady_clock::now();
}

double EnergyMeter::elapsedS() const {
    return started_ ? std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count() : 0;
}

EnergyFigure EnergyMeter::stop(std::size_t distances) {
    if (!available()) return EnergyFigure{0, 0, 0, reason_};
    const double seconds = elapsedS();
    std::vector<unsigned long long> after;
    const bool ok = started_ && read(after);
    started_ = false;
    if (!ok) return EnergyFigure{0, 0, 0, "energy counter read failed during the runs"};
    return energyFigure(before_, after, seconds, distances, minWindowS_);
}

EnergyMeter openEnergyMeter(const EnergyBoards& boards) {
    if (boards.boards.empty()) return EnergyMeter(boards.reason);
    std::string why;
    const NvmlApi* api = systemNvml(why);
    return EnergyMeter(api, boards, why);
}

}  // namespace warplab::compute
