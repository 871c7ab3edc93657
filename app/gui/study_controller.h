// The open study behind the main window: opens it (asking before
// going on without missing or damaged files), keeps the navigator in step with the open
// recording, opens a recording at a time when the navigator or a result asks, keeps the user's
// regions of every recording while another one is open, and runs the study-wide jobs (search
// over all channels / the whole study, pattern discovery over every recording of a channel) on
// the JobRunner. Single-recording analyses stay with AnalysisController, on the open recording.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include <QObject>
#include <QString>
#include <QStringList>

#include "io/regions.h"
#include "io/session.h"
#include "widgets/search_options_bar.h"

namespace warplab::io {
class Study;
}
namespace warplab::widgets {
class MetricPanel;
class SignalView;
class StudyNavigator;
class StudyResultsView;
}  // namespace warplab::widgets

namespace warplab::app {

class Document;
class JobRunner;

enum class SearchScope {
    Channel,           // the query's channel of the open recording (AnalysisController::searchQuery)
    AllChannels,       // every channel of the open recording
    StudyChannel,      // the query's channel in every recording of the study
    StudyAllChannels,  // every channel of every recording
};

class StudyController : public QObject {
    Q_OBJECT
public:
    StudyController(Document* doc, JobRunner* runner, widgets::SignalView* signal, widgets::MetricPanel* metric,
                    widgets::StudyNavigator* navigator, widgets::StudyResultsView* results, QObject* parent = nullptr);
    ~StudyController() override;

    // Asked when the study names missing or damaged files: go on without them? (default: a
    // question box). Tests replace it.
    using Confirm = std::function<bool(const QString& title, const QString& text)>;
    void setConfirm(Confirm confirm) { confirm_ = std::move(confirm); }

    // When none of a summary's recordings can be read: the message, the paths looked for (one
    // per line) and the summary's folder; returns a folder to open instead (its recordings,
    // seizures from the summary) or "" (default: StudyMissingDialog). Tests replace it.
    using ChooseFolder = std::function<QString(const QString& title, const QString& text, const QStringList& paths,
                                               const QString& startFolder)>;
    void setChooseFolder(ChooseFolder choose) { chooseFolder_ = std::move(choose); }

    // Opens a folder or a CHB-MIT summary and its first readable recording. A folder that holds
    // one CHB-MIT summary (chbNN-summary.txt) takes its seizures from it, as does any folder
    // with `summary` given. False (and errorOccurred) when it cannot be opened; false without
    // an error when the user cancels.
    bool open(const QString& path, const QString& summary = {});
    // The summary the open study's seizures come from ("" when none).
    QString summaryUsed() const { return summaryUsed_; }
    void close();
    std::shared_ptr<io::Study> study() const { return study_; }
    int currentRecording() const { return current_; }

    // Opens `recording` (when not open yet) and shows [startS, endS) centred, on `channel`
    // when named, highlighted when endS > startS. Recording -1: the open one.
    bool goTo(int recording, double startS, double endS = -1, const QString& channel = {});

    // The Search panel's options (mode, band, self, precision) that multi-series searches
    // follow, as the one-channel search does; unset: subsequence DTW, its own place excluded.
    void setSearchChoice(std::function<widgets::SearchChoice()> choice) { searchChoice_ = std::move(choice); }

    // Study-wide jobs; each returns the job id or 0 (errorOccurred says why).
    quint64 searchQuery(SearchScope scope, int topK = 10);
    quint64 findPatterns(int documentChannel, int epoch = 1024, int stride = 256);

    // Sessions: the study's source and the user's regions of every recording it holds.
    void capture(io::Session& s);
    // Before the session's recording is reopened: opens its study (when it has one).
    bool restoreStudy(const io::Session& s);
    // After: the regions of the other recordings, and which recording is open.
    void restoreRegions(const io::Session& s);

    // Everything the user marked on `recording` (the open one: the document's keptRegions()),
    // one-channel regions labelled with their channel, those a montage hides included; a
    // recording not visited yet: the study's seizures on it, channels as indices as recorded.
    std::vector<io::Region> keptRegions(int recording) const;
    // The same on the recording's channels as recorded (what study-wide analyses read): a
    // labelled region gets that channel's index; one on a channel the file lacks (a montage's
    // derivation) is left out, since no recorded channel is it.
    std::vector<io::Region> regionsOf(int recording) const;

Q_SIGNALS:
    void studyChanged();
    void errorOccurred(const QString& title, const QString& message);
    void warningsReady(const QString& title, const QString& message);
    void viewRequested(QWidget* view);

private:
    void storeCurrentRegions();   // the document's keptRegions() -> regions_
    void updateSeizureMarks();
    void syncCurrentFromDocument();
    void updateNavigator();

    Document* doc_;
    JobRunner* runner_;
    widgets::SignalView* signal_;
    widgets::MetricPanel* metric_;
    widgets::StudyNavigator* navigator_;
    widgets::StudyResultsView* results_;
    std::shared_ptr<io::Study> study_;
    int current_ = -1;
    bool switching_ = false;  // goTo is opening a recording: the document's change is ours
    // Per recording, all kinds (sessions keep them), as Document::keptRegions() gives them:
    // one-channel regions by their channel's label, those a montage hid included, since
    // opening a recording again shows its channels as recorded (indices of a montage would
    // point at other channels there). The study's own seizures (summary, annotations) seed a
    // recording's list when it is first opened; from then on this list is what pattern
    // discovery over the study uses as that recording's seizures (the user may add, move or
    // remove them), so the study itself is never changed.
    std::map<int, std::vector<io::Region>> regions_;
    Confirm confirm_;
    ChooseFolder chooseFolder_;
    QString summaryUsed_;
    std::function<widgets::SearchChoice()> searchChoice_;
};

}  // namespace warplab::app
