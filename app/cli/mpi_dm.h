// `mpirun -n K warplab-cli dm ...` (docs/SCALING.md): every rank computes its share of the
// engine's tiles (RunOptions::shareIndex/shareCount: runs of row blocks balanced by pairs) on
// its own GPUs or cores. A .npy is written in place by every rank (a shared filesystem) under
// a temporary name that rank 0 renames once all succeeded; .csv, .h5 and stdout go through
// rank 0, which receives the other ranks' tiles. The file is the one a single process writes.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "compute/core/job.h"
#include "compute/core/params.h"
#include "compute/core/series.h"
#include "io/matrix_io.h"

namespace warplab::cli {

struct DmMpiJob {
    const compute::SeriesSet* queries = nullptr;
    const compute::SeriesSet* targets = nullptr;  // null: all pairs of the queries
    compute::Params params;
    compute::RunOptions run;
    std::string out;  // empty: CSV on stdout
    std::string ext;  // lower-case extension of `out` (".npy", ".h5", ".hdf5", ".csv")
    double maxMemoryGiB = 2.0;
    std::vector<std::pair<std::string, std::string>> inputs;  // role, file: for namingFiles
    io::MatrixValueType type = io::MatrixValueType::Float64;   // --dtype of a .npy/.h5
};

void runDmMpi(DmMpiJob job);

}  // namespace warplab::cli
