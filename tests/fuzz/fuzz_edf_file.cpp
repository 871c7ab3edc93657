// libFuzzer target: Recording::open on EDF/BDF bytes: EDFlib, then the lenient raw reader.
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "fuzz_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string scratch = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/warplab-fuzz-" + std::to_string(::getpid()) + ".edf";
    warplab::fuzz::runEdfFile(data, size, scratch);
    return 0;
}
