// Marked regions in and out, in the two forms clinicians exchange: CSV, and EDF+ annotations
// (an annotation-only EDF+ file beside the recording, written and read through EDFlib).
//
// CSV: a header row naming the columns kind,channel,start_s,end_s,note (any order; other
// columns ignored), then one region per row. kind is seizure, query or reference (any case);
// channel is the channel's display name ("T8-P8 (2)") or empty / "all" for all channels;
// times are seconds from the recording start; the note may be quoted ("" for a quote, commas
// and line breaks allowed inside quotes).
//
// EDF+: one annotation per region, onset start_s and duration end_s - start_s (0.1 ms
// resolution), text "<kind>[ [<channel>]][: <note>]", e.g. "seizure [T8-P8]: onset". EDFlib
// writes at most 40 bytes of annotation text, so longer notes are shortened (at a UTF-8
// character boundary) and the writer says how many were; the CSV keeps them whole.
#pragma once
#include <string>
#include <vector>

#include "io/recording.h"
#include "io/regions.h"

namespace warplab::io {

// `channels` are the display names of the recording's signals (index = Region::channel).
// Throws IoError when a region names a channel outside the list or the file cannot be written.
void writeRegionsCsv(const std::string& path, const std::vector<Region>& regions, const std::vector<std::string>& channels);
// Throws IoError(path, "line N[, column]", reason) for a bad row, unknown kind or channel,
// a time that is not a number, or an end not after its start. With `labelUnknown`, a channel
// the list lacks (a montage's derivation the regions were saved under) is no error: that
// region gets the name as its channelLabel and channel -1, for the caller to keep aside.
std::vector<Region> readRegionsCsv(const std::string& path, const std::vector<std::string>& channels,
                                   bool labelUnknown = false);

// The annotation text of one region, before any shortening.
std::string regionAnnotationText(const Region& r, const std::vector<std::string>& channels);

struct EdfAnnotationStart {
    int year = 2000, month = 1, day = 1, hour = 0, minute = 0, second = 0;
};
// From Recording::startIso() ("2076-11-06T13:43:04"); the default when empty or unreadable.
EdfAnnotationStart annotationStartFromIso(const std::string& iso);

// Writes an EDF+ file with no data signals, only the regions as annotations, starting at
// `start` (the recording's start, so that viewers line them up). Returns how many notes had
// to be shortened. Throws IoError.
int writeRegionsEdf(const std::string& path, const std::vector<Region>& regions, const std::vector<std::string>& channels,
                    const EdfAnnotationStart& start);

struct ImportedRegions {
    std::vector<Region> regions;
    // Annotations that are not regions in the form above (other events, no duration), each
    // as "<onset> s: <text> (<why>)", so the caller can say what was left out.
    std::vector<std::string> skipped;
};
// Reads the annotations of any EDF+/BDF+ file (an annotation file of writeRegionsEdf or a
// recording that carries them). Throws IoError for an unreadable file or an annotation that
// names an unknown channel.
ImportedRegions readRegionsEdf(const std::string& path, const std::vector<std::string>& channels);
// The same on annotations already read (an open Recording's: EDFlib opens a file only once).
// `file` names the source in messages.
ImportedRegions regionsFromAnnotations(const std::vector<Annotation>& annotations, const std::vector<std::string>& channels,
                                       const std::string& file);

// Default file names beside a recording: "<dir>/<stem>_regions.csv" and "..._regions.edf".
std::string regionsCsvPathFor(const std::string& recordingPath);
std::string regionsEdfPathFor(const std::string& recordingPath);

}  // namespace warplab::io
