#include "compute/bench/sdtw_designs.h"

namespace warplab::compute {

namespace {
#if WARPLAB_HAVE_HIP && !WARPLAB_HAVE_CUDA
constexpr const char* kPrefix = "hip";
#else
constexpr const char* kPrefix = "cuda";
#endif

std::vector<SdtwDesign> makeDesigns() {
    const std::string p = kPrefix;
    std::vector<SdtwDesign> d;
    d.push_back({p + ".sdtw", "fp32, segment width chosen per batch: lean pass (shared-memory rings between stripes), "
                              "a few queries' reference cut into stretches re-swept exact, top-k on the device, exact "
                              "starts from checkpoint-seeded windows", true, 0, false, false});
    d.push_back({p + ".sdtw.whole", "fp32 with every query swept whole by one block (no reference stretches): one "
                                    "query then runs on one multiprocessor", true, 0, false, false, 0, 1});
    for (int r : {2, 4, 8, 16, 32})
        d.push_back({p + ".sdtw.r" + std::to_string(r),
                     "fp32 at " + std::to_string(r) + " query rows per lane (the seeds' segment width per thread; "
                     "8 reference columns per step at 16 and 32 rows, else 2)", true, r, false, false});
    for (int c : {2, 4})
        d.push_back({p + ".sdtw.c" + std::to_string(c),
                     "fp32, chosen width, " + std::to_string(c) + " reference columns per lane and step: " +
                         (c == 2 ? "two" : "four") + " independent min -> fma chains per lane instead of eight",
                     true, 0, false, false, c});
    d.push_back({p + ".sdtw.znorm2k", "fp32 with the two-kernel z-normaliser (statistics, then every sample) "
                                      "instead of the fused one-block-per-series kernel", true, 0, false, true});
    d.push_back({p + ".sdtw_half2", "__half2: two reference segments per lane (DTWax's packing), each match rescored "
                                    "in fp32 with its start", true, 0, true, false});
    d.push_back({"cpu.simd", "all CPU cores: reference stretches in parallel (AVX2 lanes where long enough), "
                             "chained exactly", false, 0, false, false});
    d.push_back({"cpu.reference", "one CPU core, scalar double: the reference", false, 0, false, false});
    return d;
}
}  // namespace

const std::vector<SdtwDesign>& sdtwDesigns() {
    static const std::vector<SdtwDesign> designs = makeDesigns();
    return designs;
}

const SdtwDesign* findSdtwDesign(const std::string& name) {
    for (const SdtwDesign& d : sdtwDesigns())
        if (d.name == name) return &d;
    return nullptr;
}

std::vector<std::string> defaultSdtwDesigns() { return {std::string(kPrefix) + ".sdtw", "cpu.simd", "cpu.reference"}; }

}  // namespace warplab::compute
