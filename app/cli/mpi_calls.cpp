// The MPI calls of mpi_calls.h, built as the module libwarplab-mpi.so (the only code that
// includes mpi.h).
#include "app/cli/mpi_calls.h"

#include <mpi.h>

namespace warplab::cli::mpi {
namespace {

MPI_Comm commOf(void* channel) { return channel ? *static_cast<MPI_Comm*>(channel) : MPI_COMM_WORLD; }

bool init(int* argc, char*** argv, int* rank, int* size) {
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    return provided >= MPI_THREAD_SERIALIZED;
}
void abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }
void finalize() { MPI_Finalize(); }
int maxOfAll(int mine) {
    int worst = 0;
    MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}
void gatherInts(int mine, int* all) { MPI_Gather(&mine, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD); }
void gatherChars(const char* mine, int count, char* all, const int* counts, const int* displs) {
    MPI_Gatherv(mine, count, MPI_CHAR, all, counts, displs, MPI_CHAR, 0, MPI_COMM_WORLD);
}
void broadcastBytes(void* data, unsigned long long bytes) { MPI_Bcast(data, int(bytes), MPI_BYTE, 0, MPI_COMM_WORLD); }
void allgatherBytes(const void* mine, int bytes, void* all) {
    MPI_Allgather(mine, bytes, MPI_BYTE, all, bytes, MPI_BYTE, MPI_COMM_WORLD);
}
void* newChannel() {
    auto* c = new MPI_Comm(MPI_COMM_NULL);
    MPI_Comm_dup(MPI_COMM_WORLD, c);
    return c;
}
void freeChannel(void* channel) {
    auto* c = static_cast<MPI_Comm*>(channel);
    MPI_Comm_free(c);
    delete c;
}
void send(const void* data, int bytes, int to, int tag, void* channel) {
    MPI_Send(data, bytes, MPI_BYTE, to, tag, commOf(channel));
}
void recv(void* data, int bytes, int from, int tag, void* channel, int* source) {
    MPI_Status st;
    MPI_Recv(data, bytes, MPI_BYTE, from < 0 ? MPI_ANY_SOURCE : from, tag, commOf(channel), &st);
    if (source) *source = st.MPI_SOURCE;
}
bool probe(int tag, void* channel, int* source) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, tag, commOf(channel), &flag, &st);
    if (flag && source) *source = st.MPI_SOURCE;
    return flag != 0;
}

constexpr MpiCalls kCalls{init, abort, finalize, maxOfAll, gatherInts, gatherChars, broadcastBytes,
                          allgatherBytes, newChannel, freeChannel, send, recv, probe};

}  // namespace
}  // namespace warplab::cli::mpi

extern "C" __attribute__((visibility("default"))) const warplab::cli::mpi::MpiCalls* warplab_mpi_calls() {
    return &warplab::cli::mpi::kCalls;
}
