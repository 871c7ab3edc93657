#include "io/edf_signal_read.h"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "io/io_error.h"

namespace warplab::io {

namespace {

// Whole records are read in blocks of at most this many bytes when the signal is a large part of
// each record; otherwise each record's run of the signal is read alone (a 512-byte run of a
// 11,890-byte record: one pread of the run costs less than copying the whole record out of the
// page cache). A run longer than this is read in pieces of it.
constexpr long long kBlockBytes = 1 << 20;
// Bytes a task reads, counting a pread as 4 KiB: about 0.1 ms, enough tasks for every core
// even in one file, few enough that scheduling them costs nothing.
constexpr long long kTaskBytes = 512 << 10;

template <int Bps>
inline std::int32_t decode(const unsigned char* p) {
    if constexpr (Bps == 2) {
        if constexpr (std::endian::native == std::endian::little) {
            std::int16_t v;
            std::memcpy(&v, p, 2);
            return v;
        } else {
            return std::int16_t(std::uint16_t(p[0]) | std::uint16_t(p[1] << 8));
        }
    } else {
        const std::int32_t v = std::int32_t(p[0]) | (std::int32_t(p[1]) << 8) | (std::int32_t(p[2]) << 16);
        return (v & 0x800000) ? v - 0x1000000 : v;
    }
}

struct ToPhysical {
    double bitValue, offset;
    float operator()(std::int32_t d) const { return float(bitValue * (offset + double(d))); }  // Calibration::physical
};
struct ToDigital {
    int operator()(std::int32_t d) const { return d; }
};

template <int Bps, typename Out, typename Convert>
inline void convertRun(const unsigned char* p, long long n, Out* out, Convert convert) {
    for (long long i = 0; i < n; ++i) out[i] = convert(decode<Bps>(p + i * Bps));
}

void readAt(const EdfSignalSource& s, unsigned char* dst, std::size_t n, long long offset) {
    std::size_t got = 0;
    while (got < n) {
        const ssize_t r = ::pread(s.fd, dst + got, n - got, off_t(offset + got));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0)
            throw IoError(*s.path, "signal '" + *s.name + "'",
                          "read failed at byte " + std::to_string(offset + got) +
                              (r < 0 ? std::string(": ") + std::strerror(errno)
                                     : std::string(": the file ends there (shorter than its header says: truncated "
                                                   "or shrunk since it was opened)")));
        got += std::size_t(r);
    }
}

template <int Bps, typename Out, typename Convert>
void readSignal(const EdfSignalSource& s, long long start, long long count, Out* out, Convert convert) {
    if (count <= 0) return;
    const long long spr = s.samplesPerRecord, end = start + count;
    const long long runBytes = spr * Bps;
    const long long firstRecord = start / spr, endRecord = (end - 1) / spr + 1;
    // The signal is a large part of each record: whole records, several per read.
    const bool wholeRecords = runBytes * 4 >= s.recordBytes && s.recordBytes <= kBlockBytes;
    const long long perBlock = wholeRecords ? std::max<long long>(1, kBlockBytes / s.recordBytes) : 1;
    const long long perRecord = wholeRecords ? s.recordBytes : std::min(runBytes, kBlockBytes) + 4096;
    const long long grain = std::max(perBlock, kTaskBytes / perRecord);
    auto records = [&](const tbb::blocked_range<long long>& range) {
        std::vector<unsigned char> buf;
        for (long long r = range.begin(); r < range.end();) {
            const long long n = std::min(perBlock, range.end() - r);
            if (wholeRecords) {
                buf.resize(std::size_t(n * s.recordBytes));
                readAt(s, buf.data(), buf.size(), s.headerBytes + r * s.recordBytes);
            }
            for (long long q = r; q < r + n; ++q) {
                // Samples [k0, k1) of record q are samples q * spr + k of the signal.
                const long long k0 = q == firstRecord ? start - q * spr : 0;
                const long long k1 = q == endRecord - 1 ? end - q * spr : spr;
                Out* dst = out + (q * spr + k0 - start);
                if (wholeRecords) {
                    convertRun<Bps>(buf.data() + (q - r) * s.recordBytes + s.offsetInRecord + k0 * Bps, k1 - k0, dst,
                                    convert);
                    continue;
                }
                const long long piece = kBlockBytes / Bps;
                for (long long k = k0; k < k1; k += piece) {
                    const long long m = std::min(piece, k1 - k);
                    buf.resize(std::size_t(m * Bps));
                    readAt(s, buf.data(), buf.size(), s.headerBytes + q * s.recordBytes + s.offsetInRecord + k * Bps);
                    convertRun<Bps>(buf.data(), m, dst + (k - k0), convert);
                }
            }
            r += n;
        }
    };
    // Isolated: a thread waiting for these tasks takes no other work of the caller's loop (which
    // may hold a lock of its own around this read, a study's per-recording read lock).
    tbb::this_task_arena::isolate([&] {
        tbb::parallel_for(tbb::blocked_range<long long>(firstRecord, endRecord, std::size_t(grain)), records);
    });
}

}  // namespace

void readEdfPhysical(const EdfSignalSource& s, const Calibration& c, long long start, long long count, float* out) {
    const ToPhysical convert{c.bitValue, c.offset};
    if (s.bytesPerSample == 3) readSignal<3>(s, start, count, out, convert);
    else readSignal<2>(s, start, count, out, convert);
}

void readEdfDigital(const EdfSignalSource& s, long long start, long long count, int* out) {
    if (s.bytesPerSample == 3) readSignal<3>(s, start, count, out, ToDigital{});
    else readSignal<2>(s, start, count, out, ToDigital{});
}

}  // namespace warplab::io
