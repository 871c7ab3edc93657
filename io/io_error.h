// Errors of reading and writing files: an EngineError (BadInput) whose message names the file,
// the field and the reason, e.g. "chb01.edf: header field 'number of data records': ...".
#pragma once
#include <string>

#include "compute/core/error.h"

namespace warplab::io {

class IoError : public compute::EngineError {
public:
    IoError(const std::string& file, const std::string& field, const std::string& reason)
        : compute::EngineError(Kind::BadInput, field, reason),
          file_(file), reason_(reason), message_(file + ": " + (field.empty() ? "" : field + ": ") + reason) {}
    const std::string& file() const noexcept { return file_; }
    const std::string& reason() const noexcept { return reason_; }
    // "file: field: reason" (EngineError alone would give "field: reason").
    const char* what() const noexcept override { return message_.c_str(); }

private:
    std::string file_;
    std::string reason_;
    std::string message_;
};

}  // namespace warplab::io
