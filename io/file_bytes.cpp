// FileBytes (file_bytes.h).
#include "io/file_bytes.h"

#include "io/io_error.h"
#include "io/text_table.h"

#if defined(__linux__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace warplab::io {

FileBytes::FileBytes(const std::string& path) {
#if defined(__linux__)
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw IoError(path, "", "cannot open for reading");
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        // MAP_POPULATE: the pages are entered at once instead of one fault per 4 KiB.
        void* p = ::mmap(nullptr, std::size_t(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (p != MAP_FAILED) {
            map_ = p;
            mapSize_ = std::size_t(st.st_size);
            view_ = std::string_view(static_cast<const char*>(p), mapSize_);
        }
    }
    ::close(fd);
    if (map_) return;
#endif
    copy_ = readFileText(path);
    view_ = copy_;
}

FileBytes::~FileBytes() {
#if defined(__linux__)
    if (map_) ::munmap(map_, mapSize_);
#endif
}

}  // namespace warplab::io
