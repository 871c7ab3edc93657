// A study: the recordings of one subject, e.g. a CHB-MIT case of 20-60 one-hour
// EDF files. Opened from (a) a folder of EDF/EDF+/BDF files, (b) a CHB-MIT chbNN-summary.txt,
// or (c) an explicit list of files. Qt-free; used by `warplab-cli info/patterns/search`, the
// GUI's study navigator and benchmarks.
//
// What opening does: reads every file's header (never its samples), orders the recordings by
// start time, works out the gaps between them (never filled with samples), matches channels
// across recordings by display name (the duplicate-label rule of Recording: "T8-P8",
// "T8-P8 (2)"), and collects seizures (summary, EDF+ annotations by text, user regions).
// Samples are read lazily per recording and channel (read()); nothing of the study is held
// whole in memory (a 42-hour channel is about 150 MB of floats).
//
// Problems and what happens to them:
//  - a file named by the summary that is absent: a recording with status Missing (listed by
//    missing()); it has no samples and no channels; the caller decides (the CLI refuses with
//    exit 2 unless --skip-missing, the GUI asks). Its summary times still place it on the
//    time line and its seizures are kept (marked on a missing recording).
//  - a file that cannot be opened (damaged header, unreadable): status Damaged, its reason in
//    `error`, named in warnings(); never dropped silently. Treated like Missing by the CLI.
//  - overlapping recordings (one starts before the previous ends): a warning naming both,
//    both kept.
//  - one channel at different rates in two recordings: open() throws IoError naming the
//    channel and both files (resampling is out of scope).
//  - a folder with no EDF/BDF file, an empty list, a summary with no File Name entry:
//    open() throws IoError.
//  - a recording that lacks a channel: StudyChannel::signalOf is -1 there; users of that
//    channel skip the recording with a warning naming the file (skippedFor()), never zero-fill.
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "compute/engine/multi_search.h"
#include "compute/patterns/pattern_discovery.h"
#include "io/recording.h"
#include "io/regions.h"

namespace warplab::io {

enum class StudySource { Folder, Summary, List };
std::string_view studySourceName(StudySource s);  // "folder", "summary", "list"

enum class RecordingStatus { Ok, Missing, Damaged };
std::string_view recordingStatusName(RecordingStatus s);  // "ok", "missing", "damaged"

// One recording of the study, as its header (or the summary, for a missing file) describes it.
struct StudyRecording {
    std::string path;           // as opened (folder/name, or the list entry)
    std::string name;           // file name without folder, e.g. "chb01_03.edf": used in results
    RecordingStatus status = RecordingStatus::Ok;
    std::string error;          // why Missing / Damaged ("" when Ok)
    Format format = Format::EDF;
    std::string startIso;       // clock start, ISO 8601 without zone ("1976-11-06T13:43:04"), or
                                // "+Nd HH:MM:SS" (day N of the study) when no file gives the date
                                // (a summary whose files are all missing); "" when unknown
    bool startKnown = false;    // false: no usable start (header date/time malformed, no summary)
    double offsetS = 0;         // start, seconds from the study start (the first recording's start);
                                // when !startKnown: the end of the previous recording (no gap assumed)
    double durationS = 0;       // from the header; a missing file: the summary's end - start (0 unknown)
    std::vector<SignalInfo> signals;  // data signals (empty when not Ok)
    std::string timeSource;     // "header", "summary", "none"
    std::vector<std::string> summaryChannels;  // labels the summary lists for this file (summary
                                               // studies; a header that differs gets a warning)
    double endOffsetS() const { return offsetS + durationS; }
};

// The time between two consecutive recordings (i-1, i). seconds < 0: they overlap.
struct StudyGap {
    int after = 0;      // index of the earlier recording
    int before = 0;     // index of the later recording (after + 1)
    double seconds = 0; // later.offsetS - earlier.endOffsetS()
};

// A channel of the study, matched across recordings by display name.
struct StudyChannel {
    std::string name;            // display name ("FP1-F7", "T8-P8 (2)")
    std::string unit;            // from the first recording that has it
    double rateHz = 0;           // the same in every recording that has it (else open() throws)
    std::vector<int> signalOf;   // per recording: signal index in that file, -1 when absent
    int recordingCount = 0;      // recordings (status Ok) that have this channel
    long long totalSamples = 0;  // summed over those recordings
};

// A seizure (or other marked region) of one recording.
struct StudySeizure {
    int recording = 0;      // index into recordings()
    double startS = 0;      // seconds from that recording's start
    double endS = 0;        // exclusive
    int channel = -1;       // -1: all channels; else a study channel index (user regions)
    std::string source;     // "summary", "annotation: <text>", "region: <note>"
    bool user = false;      // added by addRegions/setRegions (the user's own; sessions keep these)
};

struct StudyOptions {
    // Seizures from a CHB-MIT summary for a folder or list study (a summary study always uses
    // its own file). Files it names that are not in the study are ignored.
    std::string seizureSummary;
    // Non-empty: EDF+ annotations whose text contains this (case-insensitive) become seizures.
    // Reads each file's annotations once, at open (EDF+ only; plain EDF has none).
    std::string annotationPattern;
    // Folder: also look into sub-folders. Default: only the folder itself.
    bool recursive = false;
    // Recordings kept open at once by read() (EDFlib limits open files); at least 1.
    int openRecordingLimit = 8;
};

class Study {
public:
    // By what `path` is: a directory -> openFolder; a file whose first kilobyte looks like a
    // CHB-MIT summary ("Data Sampling Rate:" or "File Name:" lines) -> openSummary; one EDF/BDF
    // file -> a one-recording list; else IoError.
    static std::unique_ptr<Study> open(const std::string& path, const StudyOptions& options = {});
    // Every *.edf / *.bdf (case-insensitive) in `folder`. Throws IoError when there is none.
    static std::unique_ptr<Study> openFolder(const std::string& folder, const StudyOptions& options = {});
    // The files named by a CHB-MIT summary, looked up in the summary's folder; their times and
    // seizures from the summary (days counted when a start time is earlier than the previous).
    // Throws IoError (file, "line N", reason) on a malformed line.
    static std::unique_ptr<Study> openSummary(const std::string& summaryFile, const StudyOptions& options = {});
    // An explicit list (CLI: several --reference files). Throws IoError when empty.
    static std::unique_ptr<Study> openList(const std::vector<std::string>& files, const StudyOptions& options = {});

    ~Study();
    Study(const Study&) = delete;
    Study& operator=(const Study&) = delete;

    StudySource source() const { return source_; }
    const std::string& sourcePath() const { return sourcePath_; }  // folder, summary, or "" (list)

    // Ordered by start time (ties and unknown starts: by file name; in a list, by list order).
    const std::vector<StudyRecording>& recordings() const { return recordings_; }
    // recordings().size() - 1 entries (one per consecutive pair).
    const std::vector<StudyGap>& gaps() const { return gaps_; }
    // In order of first appearance (the first recording's montage first).
    const std::vector<StudyChannel>& channels() const { return channels_; }
    const std::vector<StudySeizure>& seizures() const { return seizures_; }
    // Everything tolerated while opening, each naming its file(s): overlaps, damaged files,
    // unknown start times, the header's own warnings ("chb01_03.edf: ...").
    const std::vector<std::string>& warnings() const { return warnings_; }

    // Indices of recordings with status Missing / Damaged.
    std::vector<int> missing() const;
    std::vector<int> damaged() const;
    // Index by file name ("chb01_03.edf") or path; -1 when unknown.
    int findRecording(const std::string& nameOrPath) const;
    // Index by display name, label, or "#N" (N-th study channel); -1 when unknown.
    int findChannel(const std::string& name) const;
    // Recordings (status Ok) that lack `channel`, e.g. for "skipped chb01_05.edf: no channel
    // T8-P8" warnings by the caller.
    std::vector<int> skippedFor(int channel) const;

    // Seconds from the recording start -> the study's clock, ISO 8601 with milliseconds
    // ("1976-11-06T13:43:04.500"), or "+Nd HH:MM:SS.mmm" when the date is unknown, or ""
    // when no recording has a known start (series files in a list: there is no clock).
    std::string clockTime(int recording, double secondsFromRecordingStart) const;
    // The same for seconds from the study start (PatternScore::clockS, SegmentSummary::clockStartS,
    // SearchSource::clockStartS + SourceMatch::startS are such seconds).
    std::string clockText(double secondsFromStudyStart) const;

    // Seizures of one recording that apply to `channel` (-1 regions and those of the channel),
    // as compute spans (seconds from that recording's start).
    std::vector<compute::SecondsSpan> seizureSpans(int recording, int channel) const;

    // Adds user regions (kind Seizure only; others are ignored) to `recording`; each checked
    // against the recording's duration (IoError "regions[i]"). Region::channel is a signal
    // index of that recording and is mapped to the study channel.
    void addRegions(int recording, const std::vector<Region>& regions);
    // Replaces the user regions of `recording` (those added by addRegions/setRegions; summary and
    // annotation seizures stay) by `regions`, checked as addRegions does (all or nothing). For
    // the GUI, which keeps the open recording's region list and the study in step.
    void setRegions(int recording, const std::vector<Region>& regions);
    // The user regions of `recording` as io::Region (kind Seizure; channel as a signal index of
    // that recording, -1 for all), e.g. to save them in a session.
    std::vector<Region> regionsOf(int recording) const;
    // Adds seizures from EDF+ annotations containing `pattern` (all recordings); returns how many.
    int addAnnotationSeizures(const std::string& pattern);

    // Lazy samples: physical values of study channel `channel` in `recording`, samples
    // [start, start+count) of that recording. Opens the file on first use (keeping at most
    // openRecordingLimit open). Throws IoError naming the file when the recording is not Ok,
    // lacks the channel, or the range is outside. Thread-safe: reads are serialised inside (one
    // at a time), so a GUI view and a running job may share the study. Seizure and region
    // changes (addRegions, setRegions, addAnnotationSeizures) are not: make them between jobs.
    std::vector<float> read(int recording, int channel, long long start, long long count) const;
    void read(int recording, int channel, long long start, long long count, float* out) const;
    // The opened recording (e.g. for the GUI to show it); opened on demand, shared.
    std::shared_ptr<const Recording> recording(int index) const;
    // Samples of `channel` in `recording` (0 when absent or not Ok).
    long long sampleCount(int recording, int channel) const;

private:
    Study() = default;
    void sortSeizures();
    std::shared_ptr<const Recording> openRecording(int index, bool annotations) const;
    struct Cache;
    StudySource source_ = StudySource::Folder;
    std::string sourcePath_;
    std::vector<StudyRecording> recordings_;
    std::vector<StudyGap> gaps_;
    std::vector<StudyChannel> channels_;
    std::vector<StudySeizure> seizures_;
    std::vector<std::string> warnings_;
    // Clock origin: the first recording's start (seconds of its day; date when known).
    bool originKnown_ = false, originHasDate_ = false;
    int originYear_ = 0, originMonth_ = 0, originDay_ = 0;
    double originSecondOfDay_ = 0;
    long long originDayIndex_ = 0;  // days since 1970 when originHasDate_
    std::unique_ptr<Cache> cache_;
    friend struct StudyBuilder;
};

// Pattern discovery over a study (compute::PatternRequest with one segment per recording that
// has `channel`, status Ok, and at least one epoch): seizures from seizureSpans(r, channel),
// samples read lazily through `study` (which must outlive the request), recording names and
// clock starts for the results. Recordings without the channel are skipped; their names are
// appended to `skipped` when given. Throws IoError naming "channel" when no recording has it.
compute::PatternRequest studyPatternRequest(const Study& study, int channel,
                                            std::vector<std::string>* skipped = nullptr);

// Search over a study: one source per (Ok recording that has the channel, channel), in
// recording order and, within a recording, in the order of `channels`; each reads its channel
// lazily through `study` (which must outlive the sources). Pairs skipped because the recording
// lacks the channel are described in `skipped` ("chb01_05.edf: no channel T8-P8").
std::vector<compute::SearchSource> studySearchSources(const Study& study, const std::vector<int>& channels,
                                                      std::vector<std::string>* skipped = nullptr);

}  // namespace warplab::io
