// Large buffers filled once (a reference read from disk, its double copy): on VMs whose page
// faults cost ~15 us per 4 KiB page (measured on the 2-core CI VM: 32 MiB first touched in
// ~100-130 ms, ~2.4 ms as 2 MiB pages), asking for transparent huge pages before the first
// touch removes most of a window search's fault time. A hint only: without THP nothing changes.
#pragma once
#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace warplab::compute {

// Call on memory not yet written (after reserve(), before the data goes in).
inline void adviseHugePages(const void* p, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHuge = std::uintptr_t(1) << 21;
    const std::uintptr_t a = (std::uintptr_t(p) + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t e = (std::uintptr_t(p) + bytes) & ~(kHuge - 1);
    if (e > a) madvise(reinterpret_cast<void*>(a), e - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

}  // namespace warplab::compute
