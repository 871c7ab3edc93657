#include "app/gui/montage_recording.h"

#include <algorithm>

#include "io/io_error.h"

namespace warplab::app {

MontageRecording::MontageRecording(std::shared_ptr<const io::Recording> base, const std::vector<std::string>& expressions)
    : base_(std::move(base)), expressions_(expressions), derivations_(io::resolveMontage(*base_, expressions)) {
    const auto& sigs = widgets::signalList(*base_);
    for (std::size_t k = 0; k < derivations_.size(); ++k) {
        const io::Derivation& d = derivations_[k];
        io::SignalInfo info = sigs.at(std::size_t(d.plus));
        info.index = int(k);
        info.label = info.displayName = d.name;
        if (d.minus >= 0) {
            const io::SignalInfo& m = sigs.at(std::size_t(d.minus));
            info.samples = std::min(info.samples, m.samples);
            info.physicalMin -= m.physicalMax;  // the range of a difference
            info.physicalMax -= m.physicalMin;
        }
        infos_.push_back(std::move(info));
    }
}

std::vector<float> MontageRecording::read(int signal, long long start, long long count) const {
    if (signal < 0 || signal >= int(derivations_.size()))
        throw io::IoError(path(), "montage", "no derivation #" + std::to_string(signal));
    return io::readDerivation(*base_, derivations_[std::size_t(signal)], start, count);
}

}  // namespace warplab::app
