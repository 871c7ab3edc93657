// Seizure events as a BIDS-style events table (`*_events.tsv`), the form SzCORE's tools read
// and write: a header row of tab-separated column names, then one event per row.
//
// Columns: `onset` and `duration` (seconds, required), `eventType` ("sz", "sz_foc_ia", ...,
// "bckg" for background), `channels` (comma-separated labels, "n/a" when not given),
// `confidence` (a number or "n/a"), `dateTime` and `recordingDuration` (seconds) as SzCORE
// writes them; other columns are ignored, columns may come in any order. Blank lines are
// skipped; "n/a" marks an absent value.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compute/scoring/scoring.h"

namespace warplab::io {

struct EventRow {
    double onsetS = 0, durationS = 0;
    std::string eventType = "sz";
    std::string channels;               // "" when n/a
    std::optional<double> confidence;
    std::string dateTime;               // "" when n/a
};

struct EventTable {
    std::vector<EventRow> rows;
    std::optional<double> recordingDurationS;  // the first row's recordingDuration, when given
};

// A row names a seizure when its eventType is absent, or starts with "sz" or "seiz" (any case).
bool isSeizureEventType(std::string_view eventType);

// Throws IoError(file, "line N, column 'name'", reason) for a missing required column, a row
// with fewer fields than the header, an onset or duration that is not a finite number (or is
// negative), a confidence that is not a number, or rows disagreeing on recordingDuration.
EventTable parseEventsTsv(std::string_view text, const std::string& file);
EventTable readEventsTsv(const std::string& path);

// The seizure rows as [onset, onset + duration) spans.
std::vector<compute::TimedEvent> seizureEvents(const EventTable& table);

// Writes the table with SzCORE's columns (onset, duration, eventType, confidence, channels,
// dateTime, recordingDuration); times to the microsecond. Throws IoError when it cannot write.
void writeEventsTsv(const std::string& path, const EventTable& table);
std::string formatEventsTsv(const EventTable& table);

}  // namespace warplab::io
