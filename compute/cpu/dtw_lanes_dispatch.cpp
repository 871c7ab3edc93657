// Run-time choice of the lane kernels' instruction set (never -march=native: one binary runs
// on any x86-64 and uses AVX2 or AVX-512 where the CPU has them).
#include <cstdlib>
#include <string_view>

#include "compute/cpu/dtw_lanes.h"

namespace warplab::compute::lanes {

bool supported(Isa isa) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    switch (isa) {
        case Isa::Baseline: return true;
        case Isa::Avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
        case Isa::Avx512:
            return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                   __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
    }
    return false;
#else
    return isa == Isa::Baseline;
#endif
}

Ops opsFor(Isa isa) {
    switch (isa) {
        case Isa::Avx512: return {isa, "avx512", &avx512::lanes, &avx512::dtw, &avx512::euclidean, &avx512::twed, &avx512::sdtw};
        case Isa::Avx2: return {isa, "avx2", &avx2::lanes, &avx2::dtw, &avx2::euclidean, &avx2::twed, &avx2::sdtw};
        case Isa::Baseline: break;
    }
    return {Isa::Baseline, "baseline", &baseline::lanes, &baseline::dtw, &baseline::euclidean, &baseline::twed, &baseline::sdtw};
}

Isa bestIsa() {
    Isa cap = Isa::Avx512;
    if (const char* env = std::getenv("WARPLAB_SIMD")) {
        std::string_view v(env);
        if (v == "baseline") cap = Isa::Baseline;
        else if (v == "avx2") cap = Isa::Avx2;
    }
    for (Isa isa : {Isa::Avx512, Isa::Avx2, Isa::Baseline})
        if (int(isa) <= int(cap) && supported(isa)) return isa;
    return Isa::Baseline;
}

}  // namespace warplab::compute::lanes
