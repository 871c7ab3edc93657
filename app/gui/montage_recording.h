// A recording seen through a montage: each signal is a derivation of the original one ("A" as
// recorded or "A-B" bipolar, io/montage.h). The document swaps it in for the original, so the
// signal view, the regions and every analysis work on the montage's channels unchanged.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "io/montage.h"
#include "widgets/recording_access.h"

namespace warplab::app {

class MontageRecording : public io::Recording {
public:
    // Throws IoError (field "montage[i]") for an unknown channel or a pair of unequal rates.
    MontageRecording(std::shared_ptr<const io::Recording> base, const std::vector<std::string>& expressions);

    const std::string& path() const override { return base_->path(); }
    io::Format format() const override { return base_->format(); }
    std::string startIso() const override { return base_->startIso(); }
    double durationS() const override { return base_->durationS(); }
    const std::vector<io::Annotation>& annotations() const override { return base_->annotations(); }
    const std::vector<std::string>& warnings() const override { return base_->warnings(); }
    std::vector<float> read(int signal, long long start, long long count) const override;
#pragma push_macro("signals")
#undef signals
    const std::vector<io::SignalInfo>& signals() const override { return infos_; }
#pragma pop_macro("signals")

    const std::shared_ptr<const io::Recording>& base() const { return base_; }
    const std::vector<std::string>& expressions() const { return expressions_; }

private:
    std::shared_ptr<const io::Recording> base_;
    std::vector<std::string> expressions_;
    std::vector<io::Derivation> derivations_;
    std::vector<io::SignalInfo> infos_;
};

}  // namespace warplab::app
