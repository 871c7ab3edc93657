// `mpirun -n K warplab-cli search ...` (docs/SCALING.md): the reference is cut into K equal
// stretches of end columns, one per rank, each swept on one core (compute/cpu/sdtw_stretch.h);
// the exact DP column at each stretch boundary is then handed from rank to rank, each rank
// correcting the start of its stretch until it agrees with its first pass. The top-k rule of
// METRICS.md runs over all stretches together: each round every rank offers its best end
// column, the smallest (cost, then column) wins and every rank excludes its neighbourhood. The
// matches are those of the single-process CPU search, bit for bit.
#pragma once
#include <vector>

#include "compute/core/params.h"
#include "compute/core/results.h"
#include "compute/core/series.h"

namespace warplab::cli {

// Every rank calls it with the same inputs (raw; checked and z-normalised here as
// Engine::search does). Every rank returns the matches.
std::vector<compute::Match> searchMpi(const compute::Series& query, const compute::Series& reference,
                                      const compute::Params& params);

}  // namespace warplab::cli
