// A file's bytes for parsing: mapped read-only where the system can (no copy, and the page
// cache's pages need no zeroing, which dominates reading a 10 MiB text file on a VM with costly
// page faults), read into memory otherwise (pipes, systems without mmap).
#pragma once
#include <string>
#include <string_view>

namespace warplab::io {

class FileBytes {
public:
    explicit FileBytes(const std::string& path);  // IoError when it cannot be opened
    ~FileBytes();
    FileBytes(const FileBytes&) = delete;
    FileBytes& operator=(const FileBytes&) = delete;
    std::string_view view() const { return view_; }

private:
    void* map_ = nullptr;
    std::size_t mapSize_ = 0;
    std::string copy_;
    std::string_view view_;
};

}  // namespace warplab::io
