// Typed engine errors: every failure the GUI shows in a dialog and the CLI prints on stderr.
#pragma once
#include <stdexcept>
#include <string>

namespace warplab::compute {

class EngineError : public std::runtime_error {
public:
    enum class Kind {
        BadParameter,   // impossible parameter (gamma <= 0, negative band, ...): exit code 2
        BadInput,       // empty / NaN / unequal series, unreadable file: exit code 2
        Device,         // no device, out of device memory, launch failure: exit code 1
        Cancelled,      // the user cancelled; not a failure to report loudly
        Internal        // anything else: exit code 1
    };

    // `field` names what was wrong ("gamma", "queries[3]", "channel"), so messages can
    // say file, field and reason.
    EngineError(Kind kind, std::string field, const std::string& reason)
        : std::runtime_error(field.empty() ? reason : field + ": " + reason),
          kind_(kind), field_(std::move(field)) {}

    Kind kind() const noexcept { return kind_; }
    const std::string& field() const noexcept { return field_; }
    bool isBadInput() const noexcept { return kind_ == Kind::BadParameter || kind_ == Kind::BadInput; }

private:
    Kind kind_;
    std::string field_;
};

}  // namespace warplab::compute
