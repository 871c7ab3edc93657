// Errors of reading and writing files: an EngineError (BadInput) whose message names the file,
// the field and the reason, e.g. "chb01.edf: header field 'number of data records': ...".
#pragma once
#include <string>

#include "compute/core/error.h"

namespace warplab::io {

class IoError : public compute::EngineError {
public:
    IoError(const std::string& file, const std::string& field, const std::string& reason)
        : compute::EngineError(Kind::BadInput, field, file + ": " + (field.empty() ? "" : field + ": ") + reason),
          file_(file) {}
    const std::string& file() const noexcept { return file_; }

private:
    std::string file_;
};

}  // namespace warplab::io
