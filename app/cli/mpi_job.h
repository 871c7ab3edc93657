// warplab-cli under mpirun (docs/SCALING.md): MPI start and end, which rank this process is,
// and the two things every distributed command shares: agreeing on failure (a rank that fails
// makes every rank fail, and rank 0 prints that rank's message) and one global progress line
// (rank 0 prints the mean of every rank's fraction). MPI does process start, placement and
// communication; nothing here opens sockets or runs a scheduler. Without WARPLAB_MPI, or when
// the process was not started by an MPI launcher, there is one rank and nothing is called.
#pragma once
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "compute/core/job.h"
#include "compute/core/process_group.h"

namespace warplab::cli::mpi {

// Starts MPI when an MPI launcher started this process (Open MPI, PMIx or PMI variables).
void start(int* argc, char*** argv);
// The process's exit code `code` after the command: MPI_Finalize when the job ended together
// (success, or a failure all ranks agreed on); MPI_Abort(code) when this rank failed alone, so
// that mpirun stops the others instead of leaving them waiting.
int finish(int code);
bool active();  // more than one rank
int rank();
int size();
// "rank 1 of 3" for messages.
std::string rankLabel();

// Collective: every rank says whether its part failed (`local`, may be null). When any failed,
// every rank throws: rank 0 an EngineError carrying each failing rank's message ("rank 1:
// ..."), the others cli::QuietExit with the same exit code.
void agree(std::exception_ptr local);
// Runs `work`, then agrees (after `beforeAgree`, which every rank runs either way).
void step(const std::function<void()>& work, const std::function<void()>& beforeAgree = {});

// Test hook: WARPLAB_MPI_FAIL="R" makes rank R throw at `where` inside its work ("R:exit"
// makes it die at once with exit code 3, as a crashed rank would).
void injectFailure(const char* where);

// Rank 0 broadcasts `s` (every rank calls it).
void broadcast(std::string& s);
// Point to point, rank order; `bytes` may exceed 2 GiB (sent in pieces).
void sendBytes(const void* data, std::size_t bytes, int to);
void recvBytes(void* data, std::size_t bytes, int from);
// A vector of trivially copyable T, rank to rank: its count, then its bytes.
template <class T>
void sendVector(const std::vector<T>& v, int to) {
    const std::uint64_t n = v.size();
    sendBytes(&n, sizeof n, to);
    if (n) sendBytes(v.data(), v.size() * sizeof(T), to);
}
template <class T>
std::vector<T> recvVector(int from) {
    std::uint64_t n = 0;
    recvBytes(&n, sizeof n, from);
    std::vector<T> v(n);
    if (n) recvBytes(v.data(), v.size() * sizeof(T), from);
    return v;
}
// Every rank's `bytes` bytes at `mine`, in rank order, into `all` (size() * bytes).
void allgather(const void* mine, std::size_t bytes, void* all);
// Collective: whether every rank runs on this host (the same host name), so that all share
// one page cache. True for one process.
bool oneHost();

// The ranks as the engine sees them (RunOptions::processes): these calls, this rank.
compute::ProcessGroup processGroup();

// One progress line for the whole job: fn() goes to the engine in every rank; rank 0 draws
// the mean of all ranks' fractions with `printer` (may be empty), the others send theirs to
// rank 0. finish() (every rank, also after a failure) ends it: rank 0 keeps drawing until
// every rank has finished.
class ProgressRelay {
public:
    explicit ProgressRelay(compute::ProgressFn printer);
    ~ProgressRelay();
    ProgressRelay(const ProgressRelay&) = delete;
    ProgressRelay& operator=(const ProgressRelay&) = delete;
    compute::ProgressFn fn();
    void finish();

private:
    struct State;
    std::shared_ptr<State> state_;
};

}  // namespace warplab::cli::mpi
