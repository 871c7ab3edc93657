// MPI start/end, failure agreement and the global progress line (mpi_job.h).
#include "app/cli/mpi_job.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

#include <unistd.h>

#include "app/cli/common_options.h"
#include "compute/core/error.h"

#if WARPLAB_HAVE_MPI
#include <dlfcn.h>

#include "app/cli/mpi_calls.h"
#endif

namespace warplab::cli::mpi {

using compute::EngineError;

namespace {
bool g_started = false;
bool g_agreedFailure = false;
bool g_threadsOk = false;  // MPI may be called from the engine's threads (one at a time)
int g_rank = 0, g_size = 1;

bool launchedByMpi() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"})
        if (std::getenv(v)) return true;
    return false;
}

int exitCodeOf(std::exception_ptr e, std::string& message) {
    if (!e) return 0;
    try {
        std::rethrow_exception(e);
    } catch (const QuietExit& q) {
        message = "failed";
        return q.code;
    } catch (const EngineError& x) {
        message = x.kind() == EngineError::Kind::Cancelled ? "cancelled" : x.what();
        return x.isBadInput() ? kExitBadInput : kExitFailure;
    } catch (const std::bad_alloc&) {
        message = "out of memory";
    } catch (const std::exception& x) {
        message = x.what();
    } catch (...) {
        message = "unknown failure";
    }
    return kExitFailure;
}
}  // namespace

#if WARPLAB_HAVE_MPI

namespace {
constexpr int kTagProgress = 71;
constexpr int kTagBytes = 72;
constexpr double kDone = 2.0;  // a progress message meaning "this rank has finished"

const MpiCalls* g_mpi = nullptr;  // the MPI module, once started

// The MPI module (mpi_calls.h): beside this program in the build tree, in its library folder
// once installed. Without it a rank cannot take part: it says why and ends (mpirun then ends
// the job).
const MpiCalls* loadMpiModule() {
    char self[4096];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    std::string dir = n > 0 ? std::string(self, std::size_t(n)) : std::string();
    dir = dir.substr(0, dir.find_last_of('/') + 1);
    std::string why;
    for (const char* rel : {WARPLAB_MPI_MODULE_NEAR, WARPLAB_MPI_MODULE_INSTALLED}) {
        const std::string path = dir + rel;
        // Global: Open MPI's own plugins, which it opens later, resolve symbols of its libraries.
        if (void* h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
            if (auto entry = reinterpret_cast<const MpiCalls* (*)()>(::dlsym(h, "warplab_mpi_calls"))) return entry();
        }
        const char* e = ::dlerror();
        why += std::string(why.empty() ? "" : "; ") + (e ? e : path + ": no entry point");
    }
    std::fprintf(stderr, "warplab-cli: started by an MPI launcher, but its MPI module cannot be loaded: %s\n", why.c_str());
    std::exit(kExitFailure);
}
}  // namespace

void start(int* argc, char*** argv) {
    if (!launchedByMpi()) return;
    g_mpi = loadMpiModule();
    g_threadsOk = g_mpi->init(argc, argv, &g_rank, &g_size);
    g_started = true;
}

int finish(int code) {
    if (!g_started) return code;
    if (code != 0 && !g_agreedFailure && g_size > 1) g_mpi->abort(code);
    g_mpi->finalize();
    return code;
}

void agree(std::exception_ptr local) {
    std::string message;
    const int mine = exitCodeOf(local, message);
    if (!active()) {
        if (local) std::rethrow_exception(local);
        return;
    }
    const int worst = g_mpi->maxOfAll(mine);
    if (worst == 0) return;
    g_agreedFailure = true;
    // Rank 0 collects every failing rank's message.
    const int len = mine ? int(message.size()) : 0;
    std::vector<int> lens(std::size_t(g_size), 0);
    g_mpi->gatherInts(len, lens.data());
    std::vector<int> displs(std::size_t(g_size), 0);
    int total = 0;
    for (int r = 0; r < g_size; ++r) {
        displs[std::size_t(r)] = total;
        total += lens[std::size_t(r)];
    }
    std::string all(std::size_t(std::max(total, 1)), '\0');
    g_mpi->gatherChars(message.data(), len, all.data(), lens.data(), displs.data());
    if (g_rank != 0) throw QuietExit{worst};
    // One line per distinct message, naming the ranks that gave it ("ranks 0, 1, 2: ..." when
    // every rank read the same bad file).
    std::vector<std::pair<std::string, std::string>> groups;  // message, ranks
    for (int r = 0; r < g_size; ++r) {
        if (lens[std::size_t(r)] == 0) continue;
        const std::string m = all.substr(std::size_t(displs[std::size_t(r)]), std::size_t(lens[std::size_t(r)]));
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == m; });
        if (it == groups.end()) groups.push_back({m, std::to_string(r)});
        else it->second += ", " + std::to_string(r);
    }
    std::string text;
    for (const auto& [m, ranks] : groups)
        text += (text.empty() ? "" : "; ") + std::string(ranks.find(',') == std::string::npos ? "rank " : "ranks ") + ranks + ": " + m;
    throw EngineError(worst == kExitBadInput ? EngineError::Kind::BadInput : EngineError::Kind::Internal, "", text);
}

void broadcast(std::string& s) {
    if (!active()) return;
    unsigned long long n = s.size();
    g_mpi->broadcastBytes(&n, sizeof n);
    s.resize(std::size_t(n));
    if (n) g_mpi->broadcastBytes(s.data(), n);
}

void sendBytes(const void* data, std::size_t bytes, int to) {
    const char* p = static_cast<const char*>(data);
    constexpr std::size_t kPiece = std::size_t(1) << 30;
    do {
        const std::size_t n = std::min(bytes, kPiece);
        g_mpi->send(p, int(n), to, kTagBytes, nullptr);
        p += n;
        bytes -= n;
    } while (bytes > 0);
}

void recvBytes(void* data, std::size_t bytes, int from) {
    char* p = static_cast<char*>(data);
    constexpr std::size_t kPiece = std::size_t(1) << 30;
    do {
        const std::size_t n = std::min(bytes, kPiece);
        g_mpi->recv(p, int(n), from, kTagBytes, nullptr, nullptr);
        p += n;
        bytes -= n;
    } while (bytes > 0);
}

void allgather(const void* mine, std::size_t bytes, void* all) {
    if (!g_started) {  // one process (not under an MPI launcher): the gather is a copy
        const char* p = static_cast<const char*>(mine);
        std::copy(p, p + bytes, static_cast<char*>(all));
        return;
    }
    g_mpi->allgatherBytes(mine, int(bytes), all);
}

struct ProgressRelay::State {
    compute::ProgressFn printer;
    void* channel = nullptr;  // a communicator of its own
    std::mutex mutex;
    std::vector<double> fractions;  // rank 0: the last fraction of every rank
    std::chrono::steady_clock::time_point lastSend{};
    bool on = false;
    int finished = 0;  // rank 0: ranks that said they are done

    void draw() {
        if (!printer) return;
        double sum = 0;
        for (double f : fractions) sum += std::min(1.0, f);
        printer(sum / double(fractions.size()));
    }
    // Rank 0: take every progress message that has arrived; `block` waits for one.
    void drain(bool block) {
        for (;;) {
            int source = -1;
            if (!block && !g_mpi->probe(kTagProgress, channel, &source)) break;
            double f = 0;
            g_mpi->recv(&f, sizeof f, source, kTagProgress, channel, &source);
            if (f >= kDone) {
                ++finished;
                fractions[std::size_t(source)] = 1.0;
            } else {
                fractions[std::size_t(source)] = f;
            }
            if (block) break;
        }
    }
};

ProgressRelay::ProgressRelay(compute::ProgressFn printer) : state_(std::make_shared<State>()) {
    state_->printer = std::move(printer);
    state_->on = active() && g_threadsOk;
    state_->fractions.assign(std::size_t(g_size), 0.0);
    if (state_->on) state_->channel = g_mpi->newChannel();
}

ProgressRelay::~ProgressRelay() {
    if (state_->channel) g_mpi->freeChannel(state_->channel);
}

compute::ProgressFn ProgressRelay::fn() {
    auto st = state_;
    if (!st->on) return g_rank == 0 ? st->printer : compute::ProgressFn{};
    return [st](double f) {
        std::lock_guard lock(st->mutex);
        if (g_rank == 0) {
            st->fractions[0] = f;
            st->drain(false);
            st->draw();
            return;
        }
        // At most ten messages a second per rank, and always the end.
        const auto now = std::chrono::steady_clock::now();
        if (f < 1.0 && now - st->lastSend < std::chrono::milliseconds(100)) return;
        st->lastSend = now;
        g_mpi->send(&f, sizeof f, 0, kTagProgress, st->channel);
    };
}

void ProgressRelay::finish() {
    auto& st = *state_;
    if (!st.on) return;
    std::lock_guard lock(st.mutex);
    if (g_rank != 0) {
        const double done = kDone;
        g_mpi->send(&done, sizeof done, 0, kTagProgress, st.channel);
        return;
    }
    st.fractions[0] = 1.0;
    st.drain(false);
    while (st.finished < g_size - 1) {
        st.drain(true);
        st.draw();
    }
    st.on = false;
}

#else  // one process: no MPI library linked

void start(int*, char***) {}
int finish(int code) { return code; }
void agree(std::exception_ptr local) {
    if (local) std::rethrow_exception(local);
}
void broadcast(std::string&) {}
void sendBytes(const void*, std::size_t, int) {
    throw EngineError(EngineError::Kind::Internal, "mpi", "this build has no MPI");
}
void recvBytes(void*, std::size_t, int) { throw EngineError(EngineError::Kind::Internal, "mpi", "this build has no MPI"); }
void allgather(const void* mine, std::size_t bytes, void* all) {
    const char* p = static_cast<const char*>(mine);
    std::copy(p, p + bytes, static_cast<char*>(all));
}
struct ProgressRelay::State {
    compute::ProgressFn printer;
};
ProgressRelay::ProgressRelay(compute::ProgressFn printer) : state_(std::make_shared<State>()) {
    state_->printer = std::move(printer);
}
ProgressRelay::~ProgressRelay() = default;
compute::ProgressFn ProgressRelay::fn() { return state_->printer; }
void ProgressRelay::finish() {}

#endif

bool active() { return g_size > 1; }
int rank() { return g_rank; }
int size() { return g_size; }

bool oneHost() {
    constexpr std::size_t kName = 256;
    std::array<char, kName> mine{};
    if (::gethostname(mine.data(), kName - 1) != 0) mine.fill(0);  // no name: compared as empty
    std::vector<char> all(std::size_t(size()) * kName);
    allgather(mine.data(), kName, all.data());
    for (int r = 0; r < size(); ++r)
        if (!std::equal(mine.begin(), mine.end(), all.begin() + std::ptrdiff_t(std::size_t(r) * kName))) return false;
    return true;
}
std::string rankLabel() { return "rank " + std::to_string(g_rank) + " of " + std::to_string(g_size); }

void step(const std::function<void()>& work, const std::function<void()>& beforeAgree) {
    std::exception_ptr e;
    try {
        work();
    } catch (...) {
        e = std::current_exception();
    }
    if (beforeAgree) beforeAgree();
    agree(e);
}

void injectFailure(const char* where) {
    const char* v = std::getenv("WARPLAB_MPI_FAIL");
    if (!v || !*v) return;
    const std::string spec(v);
    const std::size_t colon = spec.find(':');
    int r = -1;
    try {
        r = std::stoi(spec.substr(0, colon));
    } catch (const std::exception&) {
        return;
    }
    if (r != g_rank) return;
    if (colon != std::string::npos && spec.substr(colon + 1) == "exit") std::_Exit(3);
    throw EngineError(EngineError::Kind::Internal, "", std::string("injected failure (WARPLAB_MPI_FAIL) in ") + where);
}

compute::ProcessGroup processGroup() {
    compute::ProcessGroup g;
    g.index = rank();
    g.count = size();
    g.send = sendBytes;
    g.recv = recvBytes;
    g.allgather = allgather;
    g.agree = agree;
    return g;
}

}  // namespace warplab::cli::mpi
