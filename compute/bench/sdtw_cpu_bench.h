// The CPU rows of the subsequence-search benchmark (`warplab-cli bench --metric sdtw`): the
// same reference and the first queries of the device row's random inputs, searched through
// Engine::search on all cores (parallel stretches, compute/cpu/sdtw_parallel.h) and on one
// core (cpu.reference), so the two CPU paths and the GPU compare in one run.
#pragma once
#include "compute/bench/bench.h"

namespace warplab::compute {

// `queries` of the config's searchQueries (the first ones) of `queryLength` samples; kernel
// "cpu.simd" (all cores, or config.threads) or "cpu.reference" (one core). max_rel_error: the
// costs against cpu.reference's; a start or end that differs is named in the note.
BenchRow runCpuSdtwBench(const BenchConfig& config, std::size_t queryLength, int queries, const std::string& kernel);

}  // namespace warplab::compute
