// RunOptions::threads for TBB loops: the work runs in an arena of that many threads, or in TBB's
// default one (every core) when it is 0.
#pragma once
#include <tbb/task_arena.h>

namespace warplab::compute {

template <typename F>
void onThreads(int threads, F&& work) {
    if (threads > 0)
        tbb::task_arena(threads).execute(work);
    else
        work();
}

}  // namespace warplab::compute
