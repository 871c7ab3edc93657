// The processes one job is split over (MPI ranks under mpirun: app/cli/mpi_job.h fills
// it), as the engine sees them: which one this is, and the few moves a split computation makes
// between them. compute/ stays free of MPI; a test can fill it with threads.
//
// Every process makes the same calls in the same order: allgather and agree are collective,
// and each send meets the recv of the process it names.
#pragma once
#include <cstddef>
#include <exception>
#include <functional>

namespace warplab::compute {

struct ProcessGroup {
    int index = 0;  // this process, 0 .. count - 1
    int count = 1;
    std::function<void(const void* data, std::size_t bytes, int to)> send;
    std::function<void(void* data, std::size_t bytes, int from)> recv;
    // Every process's `bytes` bytes at `mine`, in process order, into `all` (count * bytes).
    std::function<void(const void* mine, std::size_t bytes, void* all)> allgather;
    // Every process says whether its part failed (`local`, may be null); when any did, every
    // process throws (the failing one its own error).
    std::function<void(std::exception_ptr local)> agree;
};

}  // namespace warplab::compute
