// FileBytes (file_bytes.h).
#include "io/file_bytes.h"

#include <fstream>
#include <sstream>

#include "io/io_error.h"

#if defined(__linux__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace warplab::io {

namespace {

// The whole file copied into memory (where it cannot be mapped: a pipe, no mmap).
std::string readFileText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw IoError(path, "", "cannot open for reading");
    // One read into a string of the file's size (a stringstream would copy it twice).
    std::string content;
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    in.seekg(0, std::ios::beg);
    if (size > 0) {
        content.resize(std::size_t(size));
        in.read(content.data(), size);
        content.resize(std::size_t(in.gcount()));
    } else {
        std::ostringstream ss;  // not seekable (a pipe): read what comes
        ss << in.rdbuf();
        content = ss.str();
    }
    return content;
}

}  // namespace

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
