#include "app/gui/document.h"

#include <cmath>

#include <QFileInfo>
#include <QStringList>

#include "app/gui/add_region_command.h"
#include "app/gui/edit_region_command.h"
#include "app/gui/montage_recording.h"
#include "app/gui/remove_region_command.h"
#include "compute/core/error.h"
#include "compute/spectral/band_filter.h"
#include "io/io_error.h"
#include "widgets/counted.h"

namespace warplab::app {

Document::Document(QObject* parent) : QObject(parent) {}

bool Document::open(const QString& path) {
    try {
        std::shared_ptr<const io::Recording> rec = io::Recording::open(path.toStdString());
        recording_ = original_ = std::move(rec);
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(tr("Cannot open %1").arg(QFileInfo(path).fileName()), QString::fromStdString(e.what()));
        return false;
    }
    path_ = path;
    regions_.clear();
    parked_.clear();
    undo_.clear();
    Q_EMIT recordingChanged();
    Q_EMIT regionsChanged();
    return true;
}

void Document::addRegion(const io::Region& region) { undo_.push(new AddRegionCommand(this, region)); }

void Document::removeRegion(int index) {
    if (index >= 0 && index < int(regions_.size())) undo_.push(new RemoveRegionCommand(this, index));
}

void Document::moveRegion(int index, double startS, double endS) {
    if (index < 0 || index >= int(regions_.size())) return;
    io::Region r = regions_[index];
    r.startS = startS;
    r.endS = endS;
    undo_.push(new EditRegionCommand(this, index, r, tr("Move region to %1–%2 s").arg(startS, 0, 'f', 2).arg(endS, 0, 'f', 2)));
}

void Document::replaceRegion(int index, const io::Region& region, const QString& text) {
    if (index >= 0 && index < int(regions_.size())) undo_.push(new EditRegionCommand(this, index, region, text));
}

int Document::importAnnotationSeizures(const QString& pattern) {
    if (!recording_) return 0;
    std::vector<io::Region> found;
    try {
        found = io::seizuresFromAnnotations(*recording_, pattern.toStdString());
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(tr("Cannot import seizures"), QString::fromStdString(e.what()));
        return 0;
    }
    if (found.empty()) return 0;
    undo_.beginMacro(tr("Import %1 from annotations").arg(widgets::counted(qint64(found.size()), tr("seizure"), tr("seizures"))));
    for (const auto& r : found) undo_.push(new AddRegionCommand(this, r));
    undo_.endMacro();
    return int(found.size());
}

int Document::importChbSummary(const QString& summaryPath) {
    if (!recording_) return 0;
    std::vector<io::Region> found;
    try {
        found = io::seizuresFromChbSummary(summaryPath.toStdString(), recording_->path());
        io::checkRegions(*recording_, found);
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(tr("Cannot import seizures"), QString::fromStdString(e.what()));
        return 0;
    }
    if (found.empty()) return 0;
    undo_.beginMacro(tr("Import %1 from %2")
                           .arg(widgets::counted(qint64(found.size()), tr("seizure"), tr("seizures")), QFileInfo(summaryPath).fileName()));
    for (const auto& r : found) undo_.push(new AddRegionCommand(this, r));
    undo_.endMacro();
    return int(found.size());
}

void Document::setRegions(const std::vector<io::Region>& regions, const std::vector<io::Region>& hidden) {
    // The given regions are all there is (a session, a study's recording).
    regions_.clear();
    parked_.clear();
    auto place = [this](io::Region r) {
        std::string label = std::move(r.channelLabel);
        r.channelLabel.clear();  // the document keeps indices; labels are made when saving
        if (label.empty() || !recording_) {
            regions_.push_back(std::move(r));
            return;
        }
        if (const int c = recording_->findSignal(label); c >= 0) {
            r.channel = c;
            regions_.push_back(std::move(r));
        } else {
            parked_.push_back({std::move(r), std::move(label)});
        }
    };
    for (const io::Region& r : regions) place(r);
    for (const io::Region& r : hidden)
        if (!r.channelLabel.empty()) place(r);
    undo_.clear();
    Q_EMIT regionsChanged();
}

std::vector<io::Region> Document::labelledRegions() const {
    std::vector<io::Region> out = regions_;
    for (io::Region& r : out) r.channelLabel = r.channel >= 0 ? channelName(r.channel).toStdString() : std::string();
    return out;
}

std::vector<io::Region> Document::hiddenRegions() const {
    std::vector<io::Region> out;
    for (const ParkedRegion& p : parked_) {
        out.push_back(p.region);
        out.back().channelLabel = p.channel;
    }
    return out;
}

std::vector<io::Region> Document::keptRegions() const {
    std::vector<io::Region> out = labelledRegions();
    for (io::Region& r : hiddenRegions()) out.push_back(std::move(r));
    return out;
}

void Document::insertRegionRaw(int index, const io::Region& region) {
    regions_.insert(regions_.begin() + index, region);
    Q_EMIT regionsChanged();
}

void Document::removeRegionRaw(int index) {
    regions_.erase(regions_.begin() + index);
    Q_EMIT regionsChanged();
}

void Document::setRegionRaw(int index, const io::Region& region) {
    regions_[std::size_t(index)] = region;
    Q_EMIT regionsChanged();
}

bool Document::setMontage(const std::vector<std::string>& expressions) {
    if (!original_) return false;
    std::shared_ptr<const io::Recording> next = original_;
    try {
        if (!expressions.empty()) next = std::make_shared<MontageRecording>(original_, expressions);
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(tr("Montage"), QString::fromStdString(e.what()));
        return false;
    }
    // Regions of one channel follow it by name into the new montage; those whose channel it
    // lacks are kept aside, and those kept aside earlier return when their channel does.
    std::vector<io::Region> regions;
    std::vector<ParkedRegion> parked;
    QStringList hiddenOn, restoredOn;
    for (const io::Region& r : regions_) {
        if (r.channel < 0) {
            regions.push_back(r);
            continue;
        }
        const std::string name = widgets::signalList(*recording_).at(std::size_t(r.channel)).displayName;
        io::Region moved = r;
        moved.channel = next->findSignal(name);
        if (moved.channel >= 0) regions.push_back(moved);
        else {
            parked.push_back({r, name});
            hiddenOn << QString::fromStdString(name);
        }
    }
    for (const ParkedRegion& p : parked_) {
        io::Region back = p.region;
        back.channel = next->findSignal(p.channel);
        if (back.channel >= 0) {
            regions.push_back(back);
            restoredOn << QString::fromStdString(p.channel);
        } else parked.push_back(p);
    }
    montageNote_.clear();
    auto names = [](QStringList l) {
        l.removeDuplicates();
        return l.join(", ");
    };
    auto regionsText = [](std::size_t n) { return n == 1 ? tr("1 one-channel region") : tr("%1 one-channel regions").arg(n); };
    if (!hiddenOn.isEmpty())
        montageNote_ = tr("%1 on %2 hidden: the montage has no such channel; shown again with a montage that has it")
                           .arg(regionsText(std::size_t(hiddenOn.size())), names(hiddenOn));
    if (!restoredOn.isEmpty())
        montageNote_ += (montageNote_.isEmpty() ? QString() : QStringLiteral("; ")) +
                        tr("%1 on %2 shown again").arg(regionsText(std::size_t(restoredOn.size())), names(restoredOn));
    if (const std::size_t still = parked.size() - std::size_t(hiddenOn.size()); still > 0)
        montageNote_ += (montageNote_.isEmpty() ? QString() : QStringLiteral("; ")) + tr("%1 still hidden").arg(regionsText(still));
    recording_ = std::move(next);
    regions_ = std::move(regions);
    parked_ = std::move(parked);
    undo_.clear();  // indices of the old channels are meaningless now
    Q_EMIT recordingChanged();
    Q_EMIT regionsChanged();
    return true;
}

std::vector<std::string> Document::montage() const {
    const auto* m = dynamic_cast<const MontageRecording*>(recording_.get());
    return m ? m->expressions() : std::vector<std::string>{};
}

void Document::setFilters(const io::FilterSettings& filters) {
    filters_ = filters;
    Q_EMIT filtersChanged();
}

QString Document::channelName(int channel) const {
    if (!recording_ || channel < 0 || channel >= int(widgets::signalList(*recording_).size())) return {};
    return QString::fromStdString(widgets::signalList(*recording_)[std::size_t(channel)].displayName);
}

double Document::channelRate(int channel) const {
    if (!recording_ || channel < 0 || channel >= int(widgets::signalList(*recording_).size())) return 0;
    return widgets::signalList(*recording_)[std::size_t(channel)].rateHz;
}

compute::Series Document::segment(int channel, double startS, double endS, bool withBand) const {
    if (!recording_) throw compute::EngineError(compute::EngineError::Kind::BadInput, "recording", "no recording is open");
    const auto& sigs = widgets::signalList(*recording_);
    if (channel < 0 || channel >= int(sigs.size()))
        throw io::IoError(recording_->path(), "channel", "no channel #" + std::to_string(channel));
    const auto& s = sigs[std::size_t(channel)];
    const long long first = std::max(0LL, (long long)std::floor(startS * s.rateHz));
    const long long last = std::min(s.samples, (long long)std::floor(endS * s.rateHz));
    if (last <= first)
        throw io::IoError(recording_->path(), "region", "the segment " + std::to_string(startS) + "–" + std::to_string(endS) +
                                                            " s of " + s.displayName + " holds no samples");
    std::vector<float> v = recording_->read(channel, first, last - first);
    if (filters_.applyToAnalysis && filters_.enabled()) v = io::applyFilters(std::move(v), s.rateHz, filters_, true);
    if (withBand && band_) v = compute::spectral::bandFilter(std::span<const float>(v), s.rateHz, *band_);
    return compute::Series(std::move(v), 1, s.displayName);
}

}  // namespace warplab::app
