// The MPI calls of warplab-cli's MPI job (mpi_job.cpp), in a module of their own
// (libwarplab-mpi.so, mpi_calls.cpp) that warplab-cli opens only when an MPI launcher started
// it: linked into warplab-cli, the MPI library and the six it needs were loaded on every start,
// about 1 ms of CPU on every command. Plain C types only, so that the module and the
// program share no MPI header or C++ type.
#pragma once

namespace warplab::cli::mpi {

struct MpiCalls {
    // MPI_Init_thread (serialized); this process's rank and the job's size. True when MPI may
    // be called from the engine's threads (one at a time).
    bool (*init)(int* argc, char*** argv, int* rank, int* size);
    void (*abort)(int code);
    void (*finalize)();
    int (*maxOfAll)(int mine);                // MPI_Allreduce, MPI_MAX
    void (*gatherInts)(int mine, int* all);  // MPI_Gather to rank 0
    // MPI_Gatherv of chars to rank 0: rank r's count at counts[r], placed at all + displs[r].
    void (*gatherChars)(const char* mine, int count, char* all, const int* counts, const int* displs);
    void (*broadcastBytes)(void* data, unsigned long long bytes);  // from rank 0, bytes < 2^31
    void (*allgatherBytes)(const void* mine, int bytes, void* all);
    // A communicator of its own (MPI_Comm_dup of the world), for messages that must not meet
    // the others; null stands for the world in the calls below.
    void* (*newChannel)();
    void (*freeChannel)(void* channel);
    void (*send)(const void* data, int bytes, int to, int tag, void* channel);
    // `from` -1: any rank; *source (may be null) gets the sender.
    void (*recv)(void* data, int bytes, int from, int tag, void* channel, int* source);
    // A message with `tag` waiting (MPI_Iprobe, any sender): true and its sender in *source.
    bool (*probe)(int tag, void* channel, int* source);
};

}  // namespace warplab::cli::mpi

// The module's one entry point (looked up by name with dlsym).
extern "C" const warplab::cli::mpi::MpiCalls* warplab_mpi_calls();
