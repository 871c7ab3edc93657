// libFuzzer target: BIDS events tables (onset, duration, eventType, channels, confidence) (fuzz_inputs.h says what runs).
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "fuzz_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string stem = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/warplab-fuzz-events-tsv-" + std::to_string(::getpid());
    warplab::fuzz::runEventsTsv(data, size, stem);
    return 0;
}
