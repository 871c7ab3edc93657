// The open recording and what the user marked on it: the model behind the main window.
// Every change to regions goes through the undo stack; views listen to regionsChanged.
#pragma once
#include <memory>
#include <vector>

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <optional>

#include "compute/core/series.h"
#include "compute/spectral/frequency_band.h"
#include "io/filters.h"
#include "io/regions.h"
#include "widgets/recording_access.h"

namespace warplab::app {

class Document : public QObject {
    Q_OBJECT
public:
    explicit Document(QObject* parent = nullptr);

    // Opens an EDF/EDF+/BDF recording or a series file (UCR text, CSV, NPY). On failure the
    // current recording stays, errorOccurred names the file and reason, and false is returned.
    bool open(const QString& path);
    std::shared_ptr<const io::Recording> recording() const { return recording_; }
    QString path() const { return path_; }

    const std::vector<io::Region>& regions() const { return regions_; }
    QUndoStack* undoStack() { return &undo_; }

    // Undoable edits.
    void addRegion(const io::Region& region);
    void removeRegion(int index);
    void moveRegion(int index, double startS, double endS);
    void replaceRegion(int index, const io::Region& region, const QString& text);
    // Seizure imports (one undo step each); return how many regions were added.
    int importAnnotationSeizures(const QString& pattern);
    int importChbSummary(const QString& summaryPath);
    // Replaces all regions (opening a session); clears the undo history. A region with a
    // channelLabel finds its channel by that label in the current channels; one whose channel
    // they lack is kept aside (parkedRegions), as are `hidden` regions (labelled) until a
    // montage has their channel. Without a label, `channel` is an index (older sessions).
    void setRegions(const std::vector<io::Region>& regions, const std::vector<io::Region>& hidden = {});
    // The regions as a session keeps them: one-channel ones carry their channel's label.
    std::vector<io::Region> labelledRegions() const;
    // The regions kept aside, each labelled with its channel.
    std::vector<io::Region> hiddenRegions() const;
    // Everything marked on this recording: labelledRegions() then hiddenRegions(). Given back
    // to setRegions() on the recording as opened or under any montage, each one-channel region
    // finds its channel by label or is kept aside: none is lost or lands on another channel.
    std::vector<io::Region> keptRegions() const;

    // Used by the undo commands only.
    void insertRegionRaw(int index, const io::Region& region);
    void removeRegionRaw(int index);
    void setRegionRaw(int index, const io::Region& region);

    // A montage (io/montage.h: "A" or "A-B" per line) replaces the channels of the recording
    // everywhere; empty restores the channels as recorded. Regions on one channel follow it
    // by name; those whose channel the montage lacks are kept aside (parkedRegions: not shown,
    // not analysed) and come back when a montage with that channel is applied: a one-channel
    // mark never silently becomes an all-channel one. Returns false (and errorOccurred) when invalid.
    bool setMontage(const std::vector<std::string>& expressions);
    std::vector<std::string> montage() const;
    struct ParkedRegion {
        io::Region region;    // its channel index as it was before it was kept aside
        std::string channel;  // the channel's name, how it finds its way back
    };
    const std::vector<ParkedRegion>& parkedRegions() const { return parked_; }
    // What the last setMontage did to one-channel regions, in words; "" when it touched none.
    QString montageRegionNote() const { return montageNote_; }
    // The recording as opened (what a montage derives from).
    std::shared_ptr<const io::Recording> recordedRecording() const { return original_; }

    // Filters of the view; with applyToAnalysis also of what segment() returns (zero phase).
    const io::FilterSettings& filters() const { return filters_; }
    void setFilters(const io::FilterSettings& filters);

    // The frequency band analysed (metric panel): segment() filters to it (zero phase, after
    // the filters above); nullopt: all frequencies.
    const std::optional<compute::spectral::FrequencyBand>& frequencyBand() const { return band_; }
    void setFrequencyBand(const std::optional<compute::spectral::FrequencyBand>& band) { band_ = band; }

    // Samples of one channel over [startS, endS) as an engine series, filtered as analysed
    // (filters, then the frequency band unless `withBand` is false). Throws IoError/EngineError
    // (a band the segment is too short for is refused by the band's name).
    compute::Series segment(int channel, double startS, double endS, bool withBand = true) const;
    QString channelName(int channel) const;
    double channelRate(int channel) const;

Q_SIGNALS:
    void recordingChanged();
    void regionsChanged();
    void filtersChanged();
    void errorOccurred(const QString& title, const QString& message);

private:
    std::shared_ptr<const io::Recording> recording_;  // the montage view when one is set
    std::shared_ptr<const io::Recording> original_;   // as opened
    QString path_;
    std::vector<io::Region> regions_;
    std::vector<ParkedRegion> parked_;
    QString montageNote_;
    io::FilterSettings filters_;
    std::optional<compute::spectral::FrequencyBand> band_;
    QUndoStack undo_;
};

}  // namespace warplab::app
