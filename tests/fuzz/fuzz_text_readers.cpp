// libFuzzer target: the text/CSV table parser, NPY, readSeriesFile and readMatrix.
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "fuzz_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string stem = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/warplab-fuzz-" + std::to_string(::getpid());
    warplab::fuzz::runTextReaders(data, size, stem);
    return 0;
}
