// What the fuzz targets and the corpus regression test run on one input, so that a crash found
// by libFuzzer replays in the ordinary test build (tests/io/test_fuzz_corpus.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace warplab::fuzz {

// EDF/BDF header parse and TAL decoding, in memory.
void runEdfHeader(const std::uint8_t* data, std::size_t size);
// The whole EDF path on a file: Recording::open (EDFlib, then the lenient reader), reads of
// every signal's first and last samples, annotations. `scratch` is a writable file path.
void runEdfFile(const std::uint8_t* data, std::size_t size, const std::string& scratch);
// Text/CSV tables, NPY, session JSON, readSeriesFile and readMatrix on the same bytes.
void runTextReaders(const std::uint8_t* data, std::size_t size, const std::string& scratchStem);

}  // namespace warplab::fuzz
