// libFuzzer target: the EDF/BDF header parser and TAL decoder, in memory.
#include <unistd.h>

#include <string>

#include "fuzz_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    warplab::fuzz::runEdfHeader(data, size);
    return 0;
}
