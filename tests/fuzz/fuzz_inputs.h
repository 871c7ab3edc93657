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
// A session file: loadSession from disk, then save and load again (what the GUI's Open
// session and Save session do). `scratchStem` is a writable path without extension.
void runSession(const std::uint8_t* data, std::size_t size, const std::string& scratchStem);
// Region exchange files: the bytes as a region CSV and as an EDF+ annotation file, read
// against a CHB-MIT-like channel list.
void runRegions(const std::uint8_t* data, std::size_t size, const std::string& scratchStem);
// A CHB-MIT chbNN-summary.txt: parsed, one file's seizures, and opened as a study (in a folder
// of its own, so every file it names is missing unless it names a path outside).
void runStudy(const std::uint8_t* data, std::size_t size, const std::string& scratchStem);
// Matrices and series in .npy, .h5 and .csv: readMatrix on each, readSeriesFile and the
// partial .npy reads on the .npy (HDF5 reads from a path: the bytes go to a scratch file).
void runMatrix(const std::uint8_t* data, std::size_t size, const std::string& scratchStem);
// A BIDS events table: parsed in memory, then written and read back (the same rows must come
// back), and read from disk as a scorer's reference.
void runEventsTsv(const std::uint8_t* data, std::size_t size, const std::string& scratchStem);

}  // namespace warplab::fuzz
