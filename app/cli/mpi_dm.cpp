// Distributed `dm` (mpi_dm.h).
#include "app/cli/mpi_dm.h"

#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>

#include "app/cli/common_options.h"
#include "app/cli/csv_output.h"
#include "app/cli/mpi_job.h"
#include "compute/core/preprocess.h"
#include "compute/engine/engine.h"
#include "io/io_error.h"
#include "io/matrix_io.h"
#include "io/npy_offset_writer.h"

namespace warplab::cli {

namespace {

struct HeldTile {
    compute::Tile tile;
    std::vector<double> values;
};

// The same shape and names as Engine::distanceMatrix gives a single process.
compute::DistanceMatrix emptyMatrix(const DmMpiJob& j) {
    compute::DistanceMatrix dm;
    const compute::SeriesSet& cols = j.targets ? *j.targets : *j.queries;
    dm.rows = j.queries->size();
    dm.cols = cols.size();
    dm.symmetric = !j.targets && compute::isSymmetric(j.params.metric);
    dm.params = j.params;
    for (const auto& s : *j.queries) dm.rowNames.push_back(s.name);
    for (const auto& s : cols) dm.colNames.push_back(s.name);
    return dm;
}

void place(compute::DistanceMatrix& m, const compute::Tile& t, const double* v) {
    for (std::size_t r = 0; r < t.rows(); ++r)
        std::copy(v + r * t.cols(), v + (r + 1) * t.cols(), m.values.begin() + std::ptrdiff_t((t.rowBegin + r) * m.cols + t.colBegin));
}

// Each rank's share into the preallocated .npy at its offsets.
void runNpy(DmMpiJob& j, mpi::ProgressRelay& relay) {
    const std::size_t rows = j.queries->size(), cols = j.targets ? j.targets->size() : rows;
    const std::string partial = io::npyPartialPath(j.out);
    const bool oneHost = mpi::oneHost();  // collective: every rank asks
    mpi::step([&] {
        if (mpi::rank() == 0) io::createNpyShell(partial, rows, cols, j.type == io::MatrixValueType::Float32);
    });
    mpi::step(
        [&] {
            io::NpyOffsetWriter writer(partial, rows, cols, j.type == io::MatrixValueType::Float32, oneHost);
            mpi::injectFailure("dm");
            namingFiles(j.inputs, [&] {
                compute::Engine::distanceMatrixStreamed(
                    *j.queries, j.targets, j.params, j.run,
                    [&](const compute::Tile& t, const double* v) { writer.writeTile(t, v); }, compute::SinkCalls::Concurrent);
            });
            writer.close();
        },
        [&] {
            relay.finish();
            // A failed job leaves no file that looks complete.
        });
}

// Each rank's tiles to rank 0, which writes the file (or stdout) as one process would.
void runGathered(DmMpiJob& j, mpi::ProgressRelay& relay) {
    std::vector<HeldTile> mine;
    mpi::step(
        [&] {
            mpi::injectFailure("dm");
            namingFiles(j.inputs, [&] {
                compute::Engine::distanceMatrixStreamed(*j.queries, j.targets, j.params, j.run,
                                                        [&](const compute::Tile& t, const double* v) {
                                                            mine.push_back({t, std::vector<double>(v, v + t.cells())});
                                                        });
            });
        },
        [&] { relay.finish(); });
    if (mpi::rank() != 0) {
        std::uint64_t count = mine.size();
        mpi::sendBytes(&count, sizeof count, 0);
        for (const HeldTile& h : mine) {
            const std::uint64_t shape[4] = {h.tile.rowBegin, h.tile.rowEnd, h.tile.colBegin, h.tile.colEnd};
            mpi::sendBytes(shape, sizeof shape, 0);
            mpi::sendBytes(h.values.data(), h.values.size() * sizeof(double), 0);
        }
        return;
    }
    compute::DistanceMatrix m = emptyMatrix(j);
    const double bytes = double(m.rows) * double(m.cols) * sizeof(double);
    std::unique_ptr<io::MatrixStreamWriter> stream;
    if (!j.out.empty() && j.ext != ".csv" && bytes > j.maxMemoryGiB * double(1ull << 30))
        stream = io::MatrixStreamWriter::create(j.out, m.rows, m.cols, j.params, false, j.type);
    else
        m.values.assign(m.rows * m.cols, 0.0);
    auto take = [&](const compute::Tile& t, const double* v) {
        if (stream) stream->writeTile(t, v);
        else place(m, t, v);
    };
    for (const HeldTile& h : mine) take(h.tile, h.values.data());
    mine.clear();
    std::vector<double> buffer;
    for (int r = 1; r < mpi::size(); ++r) {
        std::uint64_t count = 0;
        mpi::recvBytes(&count, sizeof count, r);
        for (std::uint64_t k = 0; k < count; ++k) {
            std::uint64_t shape[4];
            mpi::recvBytes(shape, sizeof shape, r);
            const compute::Tile t{std::size_t(shape[0]), std::size_t(shape[1]), std::size_t(shape[2]), std::size_t(shape[3])};
            buffer.resize(t.cells());
            mpi::recvBytes(buffer.data(), buffer.size() * sizeof(double), r);
            take(t, buffer.data());
        }
    }
    if (stream) {
        stream->finish();
    } else if (j.out.empty()) {
        writeMatrixCsv(std::cout, m);
        flushStdout();
    } else {
        io::writeMatrix(j.out, m, j.type);
    }
}

}  // namespace

void runDmMpi(DmMpiJob j) {
    j.run.shareIndex = mpi::rank();
    j.run.shareCount = mpi::size();
    mpi::ProgressRelay relay(mpi::rank() == 0 ? j.run.progress : compute::ProgressFn{});
    j.run.progress = relay.fn();
    if (j.ext == ".npy") {
        const std::string partial = io::npyPartialPath(j.out);
        try {
            runNpy(j, relay);
        } catch (...) {
            if (mpi::rank() == 0) {
                std::error_code ec;
                std::filesystem::remove(partial, ec);
            }
            throw;
        }
        if (mpi::rank() == 0) {
            std::error_code ec;
            std::filesystem::rename(partial, j.out, ec);
            if (ec) throw io::IoError(j.out, "", "cannot rename " + partial + " to it: " + ec.message());
        }
        return;
    }
    runGathered(j, relay);
}

}  // namespace warplab::cli
