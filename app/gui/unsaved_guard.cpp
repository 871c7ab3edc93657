#include "app/gui/unsaved_guard.h"

#include <algorithm>

#include <QFileInfo>
#include <QMessageBox>
#include <QUndoStack>
#include <QWidget>

#include "app/gui/document.h"
#include "app/gui/recovery_journal.h"
#include "app/gui/study_controller.h"
#include "io/regions_exchange.h"
#include "widgets/study_access.h"

namespace warplab::app {
namespace {

std::vector<std::string> namesOf(const std::vector<io::SignalInfo>& list) {
    std::vector<std::string> out;
    for (const auto& s : list) out.push_back(s.displayName);
    return out;
}

// StudyRecording's member `signals` is a Qt keyword macro here (widgets/study_access.h).
#pragma push_macro("signals")
#undef signals
std::vector<std::string> namesOf(const io::StudyRecording& r) { return namesOf(r.signals); }
#pragma pop_macro("signals")

// Regions as the region file writes them: a labelled one-channel region on its channel by
// label among `names` (the channels as recorded), a label the recording lacks (a montage's
// derivation) added to the names; unlabelled ones keep their index (channels as recorded).
void placeByLabel(std::vector<io::Region>& regions, std::vector<std::string>& names) {
    for (io::Region& r : regions) {
        if (r.channelLabel.empty()) continue;
        auto it = std::find(names.begin(), names.end(), r.channelLabel);
        if (it == names.end()) it = names.insert(names.end(), r.channelLabel);
        r.channel = int(it - names.begin());
    }
}

}  // namespace

UnsavedGuard::UnsavedGuard(QWidget* window, Document* doc, StudyController* study, std::function<io::Session()> capture)
    : QObject(window), window_(window), doc_(doc), study_(study), capture_(std::move(capture)) {
    journal_ = new RecoveryJournal(capture_, [this] { return !edited_ && viewState(capture_()) == savedView_; }, this);
    // Pushes, undos and redos are the user's edits; clearing the stack (opening a recording,
    // changing the montage) leaves it empty and is not one.
    connect(doc_->undoStack(), &QUndoStack::indexChanged, this, [this] {
        if (doc_->undoStack()->count() == 0) return;
        edited_ = true;
        changed();  // after the edit's own regionsChanged, which came first
    });
    for (auto sig : {&Document::regionsChanged, &Document::filtersChanged, &Document::recordingChanged})
        connect(doc_, sig, this, &UnsavedGuard::changed);
    connect(study_, &StudyController::studyChanged, this, &UnsavedGuard::changed);
}

nlohmann::json UnsavedGuard::viewState(const io::Session& s) {
    const nlohmann::json j = io::sessionToJson(s);
    return {{"montage", j.value("montage", nlohmann::json())}, {"filters", j.value("filters", nlohmann::json())}};
}

bool UnsavedGuard::hasUnsavedMarks() const { return edited_; }

void UnsavedGuard::changed() {
    updateModified();
    journal_->touch();
}

void UnsavedGuard::updateModified() { window_->setWindowModified(edited_); }

void UnsavedGuard::markClean() {
    edited_ = false;
    savedView_ = viewState(capture_());
    updateModified();
    journal_->touch();  // removes a recovery file left for this state
}

void UnsavedGuard::markRestored() {
    edited_ = true;
    savedView_ = nullptr;
    updateModified();
}

int UnsavedGuard::opened() {
    int n = 0;
    const auto rec = doc_->recording();
    if (rec) {
        const QString csv = QString::fromStdString(io::regionsCsvPathFor(doc_->path().toStdString()));
        if (QFileInfo::exists(csv)) {
            try {
                // A region saved on a montage's derivation is read by that name and kept aside
                // until a montage has it (Document::setRegions), not refused with the whole file.
                std::vector<io::Region> regions = io::readRegionsCsv(csv.toStdString(), namesOf(widgets::signalList(*rec)), true);
                io::checkRegions(*rec, regions);
                doc_->setRegions(regions);
                ours_.insert(csv);
                n = int(regions.size());
            } catch (const std::exception& e) {
                // Left as it is: Save will not write over it.
                Q_EMIT errorOccurred(tr("The saved regions were not read"), QString::fromUtf8(e.what()));
            }
        }
    }
    markClean();
    return n;
}

QString UnsavedGuard::targetFor(const QString& recordingPath) {
    const QString csv = QString::fromStdString(io::regionsCsvPathFor(recordingPath.toStdString()));
    if (!QFileInfo::exists(csv) || ours_.count(csv)) return csv;
    // A file of that name that this run did not read: kept, the regions go beside it.
    const QString stem = csv.left(csv.size() - 4);
    for (int n = 2;; ++n)
        if (const QString p = QString("%1-%2.csv").arg(stem).arg(n); !QFileInfo::exists(p)) return p;
}

bool UnsavedGuard::save() {
    const auto rec = doc_->recording();
    if (!rec) return true;
    const io::Session s = capture_();
    // (recording path, its regions, its channel names) for every recording with marks.
    struct Out {
        QString recording;
        std::vector<io::Region> regions;
        std::vector<std::string> names;
    };
    std::vector<Out> outs;
    // Every region, those a montage hides included, by its channel's label (sessions and the
    // study keep them so); the file names channels as recorded, and a montage's derivation by
    // its expression.
    const auto st = study_->study();
    bool openOne = false;  // the open recording is among the study's
    if (st) {
        for (const auto& [name, regions] : s.studyRegions) {
            const int i = st->findRecording(name);
            if (i < 0) continue;
            const io::StudyRecording& r = st->recordings()[std::size_t(i)];
            outs.push_back({QString::fromStdString(r.path), regions, namesOf(r)});
            openOne = openOne || QFileInfo(QString::fromStdString(r.path)) == QFileInfo(doc_->path());
        }
    }
    if (!openOne) {  // no study, or a recording opened beside it
        std::vector<io::Region> all = s.regions;
        all.insert(all.end(), s.hiddenRegions.begin(), s.hiddenRegions.end());
        outs.push_back({doc_->path(), std::move(all), namesOf(widgets::signalList(*doc_->recordedRecording()))});
    }
    for (Out& o : outs) placeByLabel(o.regions, o.names);
    QStringList written;
    for (const Out& o : outs) {
        const QString target = targetFor(o.recording);
        if (o.regions.empty() && !ours_.count(target)) continue;  // nothing marked, no file to empty
        try {
            io::writeRegionsCsv(target.toStdString(), o.regions, o.names);
        } catch (const std::exception& e) {
            Q_EMIT errorOccurred(tr("Cannot save the regions"), QString::fromUtf8(e.what()));
            return false;
        }
        ours_.insert(target);
        written << QFileInfo(target).fileName();
    }
    markClean();
    journal_->remove();
    Q_EMIT saved(written.isEmpty() ? tr("No regions to save") : tr("Regions saved to %1").arg(written.join(", ")));
    return true;
}

bool UnsavedGuard::confirm(const QString& what) {
    if (!edited_) {
        journal_->remove();
        return true;
    }
    const QString name = doc_->path().isEmpty() ? tr("the recording") : QFileInfo(doc_->path()).fileName();
    QMessageBox box(QMessageBox::Warning, tr("Unsaved regions"), tr("The regions marked on %1 are not saved.").arg(name),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, window_);
    box.setObjectName("unsavedMarksDialog");
    box.setInformativeText(tr("Save them beside the recording (%1) %2?")
                               .arg(QFileInfo(QString::fromStdString(io::regionsCsvPathFor(doc_->path().toStdString()))).fileName(), what));
    box.setDefaultButton(QMessageBox::Save);
    switch (ask_ ? ask_(box.text()) : QMessageBox::StandardButton(box.exec())) {
    case QMessageBox::Save:
        return save();
    case QMessageBox::Discard:
        edited_ = false;
        journal_->remove();
        updateModified();
        return true;
    default:
        return false;
    }
}

}  // namespace warplab::app
