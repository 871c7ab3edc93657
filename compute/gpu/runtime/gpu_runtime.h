// The portability layer of the GPU kernels: one source compiles as CUDA (nvcc) and as HIP
// (hipcc -x hip). Names differ between the runtimes (cudaMalloc / hipMalloc, the warp shuffles,
// the warp width), so kernels and host code use only what this header defines. Every runtime
// call is checked and a failure THROWS EngineError(Kind::Device): no exit(), no printing.
#pragma once
#include <cstddef>
#include <string>
#include <utility>

#include "compute/core/device_error.h"
#include "compute/core/error.h"

#if defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__)
#define WL_GPU_HIP 1
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#else
#define WL_GPU_CUDA 1
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#endif

// ---- runtime names --------------------------------------------------------------------------
#if WL_GPU_HIP
using gpuError_t = hipError_t;
using gpuStream_t = hipStream_t;
using gpuEvent_t = hipEvent_t;
#define gpuSuccess hipSuccess
#define gpuErrorMemoryAllocation hipErrorOutOfMemory
#define gpuMalloc hipMalloc
#define gpuFree hipFree
#define gpuMallocHost hipHostMalloc
#define gpuFreeHost hipHostFree
#define gpuMemcpyAsync hipMemcpyAsync
#define gpuMemsetAsync hipMemsetAsync
#define gpuMemcpyHostToDevice hipMemcpyHostToDevice
#define gpuMemcpyDeviceToHost hipMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#define gpuMemcpyPeerAsync hipMemcpyPeerAsync
#define gpuDeviceCanAccessPeer hipDeviceCanAccessPeer
#define gpuDeviceEnablePeerAccess hipDeviceEnablePeerAccess
#define gpuErrorPeerAccessAlreadyEnabled hipErrorPeerAccessAlreadyEnabled
#define gpuStreamCreate hipStreamCreate
#define gpuStreamDestroy hipStreamDestroy
#define gpuStreamSynchronize hipStreamSynchronize
#define gpuEventCreate hipEventCreate
#define gpuEventDestroy hipEventDestroy
#define gpuEventRecord hipEventRecord
#define gpuEventSynchronize hipEventSynchronize
#define gpuEventElapsedTime hipEventElapsedTime
#define gpuGetDeviceCount hipGetDeviceCount
#define gpuGetDevice hipGetDevice
#define gpuSetDevice hipSetDevice
#define gpuGetDeviceProperties hipGetDeviceProperties
#define gpuDeviceProp hipDeviceProp_t
#define gpuDeviceGetAttribute hipDeviceGetAttribute
#define gpuDevAttrMultiProcessorCount hipDeviceAttributeMultiprocessorCount
#define gpuMemGetInfo hipMemGetInfo
#define gpuGetLastError hipGetLastError
#define gpuGetErrorString hipGetErrorString
#define gpuDeviceSynchronize hipDeviceSynchronize
#define gpuFuncSetAttribute hipFuncSetAttribute
#define gpuFuncAttributeMaxDynamicSharedMemorySize hipFuncAttributeMaxDynamicSharedMemorySize
#define WL_GPU_RUNTIME_NAME "HIP"
#else
using gpuError_t = cudaError_t;
using gpuStream_t = cudaStream_t;
using gpuEvent_t = cudaEvent_t;
#define gpuSuccess cudaSuccess
#define gpuErrorMemoryAllocation cudaErrorMemoryAllocation
#define gpuMalloc cudaMalloc
#define gpuFree cudaFree
#define gpuMallocHost cudaMallocHost
#define gpuFreeHost cudaFreeHost
#define gpuMemcpyAsync cudaMemcpyAsync
#define gpuMemsetAsync cudaMemsetAsync
#define gpuMemcpyHostToDevice cudaMemcpyHostToDevice
#define gpuMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define gpuMemcpyPeerAsync cudaMemcpyPeerAsync
#define gpuDeviceCanAccessPeer cudaDeviceCanAccessPeer
#define gpuDeviceEnablePeerAccess cudaDeviceEnablePeerAccess
#define gpuErrorPeerAccessAlreadyEnabled cudaErrorPeerAccessAlreadyEnabled
#define gpuStreamCreate cudaStreamCreate
#define gpuStreamDestroy cudaStreamDestroy
#define gpuStreamSynchronize cudaStreamSynchronize
#define gpuEventCreate cudaEventCreate
#define gpuEventDestroy cudaEventDestroy
#define gpuEventRecord cudaEventRecord
#define gpuEventSynchronize cudaEventSynchronize
#define gpuEventElapsedTime cudaEventElapsedTime
#define gpuGetDeviceCount cudaGetDeviceCount
#define gpuGetDevice cudaGetDevice
#define gpuSetDevice cudaSetDevice
#define gpuGetDeviceProperties cudaGetDeviceProperties
#define gpuDeviceProp cudaDeviceProp
#define gpuDeviceGetAttribute cudaDeviceGetAttribute
#define gpuDevAttrMultiProcessorCount cudaDevAttrMultiProcessorCount
#define gpuMemGetInfo cudaMemGetInfo
#define gpuGetLastError cudaGetLastError
#define gpuGetErrorString cudaGetErrorString
#define gpuDeviceSynchronize cudaDeviceSynchronize
#define gpuFuncSetAttribute cudaFuncSetAttribute
#define gpuFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize
#define WL_GPU_RUNTIME_NAME "CUDA"
#endif

// ---- warp width and shuffles ----------------------------------------------------------------
// A warp is 32 lanes on NVIDIA and RDNA (gfx1030) but 64 on CDNA (gfx90a, gfx908). Kernels
// shuffle within groups of at most 32 lanes (the `width` argument), which is correct for both;
// kWarpSize is for device code only (hipcc defines the width per offload target; the host pass
// of HIP cannot know which device runs, so host code sizes launches in groups, never warps).
namespace warplab::compute::gpu {
#if defined(__HIP_DEVICE_COMPILE__) && defined(__AMDGCN_WAVEFRONT_SIZE)
constexpr int kWarpSize = __AMDGCN_WAVEFRONT_SIZE;
#elif WL_GPU_HIP
constexpr int kWarpSize = 64;  // host pass of HIP: the widest; launches ask the device
#else
constexpr int kWarpSize = 32;
#endif
}  // namespace warplab::compute::gpu

#if WL_GPU_HIP
// Debian's HIP 5.2 has no *_sync forms; a wavefront runs in lockstep there.
#define WL_SHFL_UP(v, d, w) __shfl_up((v), (d), (w))
#define WL_SHFL(v, src, w) __shfl((v), (src), (w))
#define WL_SHFL_DOWN(v, d, w) __shfl_down((v), (d), (w))
// A wavefront executes in lockstep, but lanes that hand values through memory (a boundary row
// written by one lane, read by another) still need the compiler to keep the store before the
// barrier and the load after it: wavefront-scope fences do that and emit no instruction (what
// ROCm 6 defines __syncwarp as).
#define WL_SYNCWARP()                                          \
    do {                                                       \
        __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"); \
        __builtin_amdgcn_wave_barrier();                       \
        __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"); \
    } while (0)
#else
#define WL_SHFL_UP(v, d, w) __shfl_up_sync(0xffffffffu, (v), (d), (w))
#define WL_SHFL(v, src, w) __shfl_sync(0xffffffffu, (v), (src), (w))
#define WL_SHFL_DOWN(v, d, w) __shfl_down_sync(0xffffffffu, (v), (d), (w))
#define WL_SYNCWARP() __syncwarp()
#endif

namespace warplab::compute::gpu {

// Throws EngineError(Device) naming what failed; out-of-memory says so plainly.
inline void check(gpuError_t err, const char* what) {
    if (err == gpuSuccess) return;
    (void)gpuGetLastError();  // clear a sticky non-fatal error so the next call starts clean
    std::string reason = std::string(WL_GPU_RUNTIME_NAME " error in ") + what + ": " + gpuGetErrorString(err);
    if (err == gpuErrorMemoryAllocation) reason = std::string("out of device memory in ") + what;
    throw EngineError(EngineError::Kind::Device, "gpu", reason);
}

// An allocation of `bytes`: a refusal for lack of memory names the device, the size asked and
// what is free (compute/core/device_error.h); any other failure is check()'s.
inline void checkAllocation(gpuError_t err, std::size_t bytes, const char* what) {
    if (err == gpuSuccess) return;
    if (err != gpuErrorMemoryAllocation) check(err, what);
    (void)gpuGetLastError();
    int device = -1;
    std::string name;
    gpuDeviceProp prop{};
    if (gpuGetDevice(&device) != gpuSuccess) device = -1;
    else if (gpuGetDeviceProperties(&prop, device) == gpuSuccess) name = prop.name;
    std::size_t freeB = 0, totalB = 0;
    if (gpuMemGetInfo(&freeB, &totalB) != gpuSuccess) freeB = totalB = 0;
    (void)gpuGetLastError();
    throw deviceOutOfMemory(device, name, bytes, freeB, totalB, what);
}

// A page-locked host allocation of `bytes`: a refusal is the host's memory, not the device's.
inline void checkPinnedAllocation(gpuError_t err, std::size_t bytes, const char* what) {
    if (err == gpuSuccess) return;
    if (err != gpuErrorMemoryAllocation) check(err, what);
    (void)gpuGetLastError();
    throw EngineError(EngineError::Kind::Device, "gpu",
                      std::string("out of page-locked host memory in ") + what + ": " + deviceBytesText(bytes) + " asked");
}

// After a launch: launch-configuration errors now, execution errors at the next sync.
inline void checkLaunch(const char* kernel) { check(gpuGetLastError(), kernel); }

// Free and total device memory in bytes.
inline std::pair<std::size_t, std::size_t> memInfo() {
    std::size_t freeB = 0, totalB = 0;
    check(gpuMemGetInfo(&freeB, &totalB), "memory query");
    return {freeB, totalB};
}

// Device memory owned by one object; never more than the runtime says is free (the engine
// sizes its chunks from memInfo() first, and an allocation failure is a Device error).
template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t count) { resize(count); }
    ~DeviceBuffer() { release(); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), count_(o.count_) { o.ptr_ = nullptr; o.count_ = 0; }
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        if (this != &o) { release(); ptr_ = o.ptr_; count_ = o.count_; o.ptr_ = nullptr; o.count_ = 0; }
        return *this;
    }
    // Grows only; contents are not kept.
    void resize(std::size_t count) {
        if (count <= count_) return;
        release();
        void* p = nullptr;
        checkAllocation(gpuMalloc(&p, count * sizeof(T)), count * sizeof(T), "device allocation");
        ptr_ = static_cast<T*>(p);
        count_ = count;
    }
    void release() noexcept {
        if (ptr_) (void)gpuFree(ptr_);
        ptr_ = nullptr;
        count_ = 0;
    }
    T* get() const { return ptr_; }
    std::size_t size() const { return count_; }
    void upload(const T* host, std::size_t count, gpuStream_t s) {
        resize(count);
        if (count) check(gpuMemcpyAsync(ptr_, host, count * sizeof(T), gpuMemcpyHostToDevice, s), "copy to device");
    }
    void download(T* host, std::size_t count, gpuStream_t s) const {
        if (count) check(gpuMemcpyAsync(host, ptr_, count * sizeof(T), gpuMemcpyDeviceToHost, s), "copy from device");
    }

private:
    T* ptr_ = nullptr;
    std::size_t count_ = 0;
};

class Stream {
public:
    Stream() { check(gpuStreamCreate(&s_), "stream creation"); }
    ~Stream() { if (s_) (void)gpuStreamDestroy(s_); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    gpuStream_t get() const { return s_; }
    void sync() const { check(gpuStreamSynchronize(s_), "stream synchronisation"); }

private:
    gpuStream_t s_ = nullptr;
};

class Event {
public:
    Event() { check(gpuEventCreate(&e_), "event creation"); }
    ~Event() { if (e_) (void)gpuEventDestroy(e_); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    void record(gpuStream_t s) { check(gpuEventRecord(e_, s), "event record"); }
    void sync() { check(gpuEventSynchronize(e_), "event synchronisation"); }
    // Milliseconds from `start` to this event (both recorded and completed).
    float since(const Event& start) const {
        float ms = 0;
        check(gpuEventElapsedTime(&ms, start.e_, e_), "event timing");
        return ms;
    }

private:
    gpuEvent_t e_ = nullptr;
};

}  // namespace warplab::compute::gpu
