// Cancellation and progress for the engine's row-by-row reference recurrences (Engine::align):
// a reference::RowHook that throws EngineError(Cancelled) as soon as the token fires and
// forwards the fraction of rows done at most every 40 ms (about 25 updates a second).
#pragma once
#include <chrono>
#include <memory>

#include "compute/core/error.h"
#include "compute/core/job.h"
#include "compute/cpu/reference.h"

namespace warplab::compute::detail {

// Empty when `options` has neither a token nor a progress callback (no cost per row then).
inline reference::RowHook rowWatch(const RunOptions& options) {
    if (!options.cancel && !options.progress) return {};
    using Clock = std::chrono::steady_clock;
    auto last = std::make_shared<Clock::time_point>(Clock::now());
    return [cancel = options.cancel, progress = options.progress, last](std::size_t done, std::size_t rows) {
        if (cancel && cancel->cancelled())
            throw EngineError(EngineError::Kind::Cancelled, "", "cancelled by the user");
        if (!progress || rows == 0) return;
        const auto now = Clock::now();
        if (now - *last < std::chrono::milliseconds(40)) return;
        *last = now;
        // The backtracking after the last row is linear: the rows are the whole of the work.
        progress(double(done) / double(rows));
    };
}

}  // namespace warplab::compute::detail
