// The concrete recordings behind Recording::open (internal to io/): EDFlib for valid EDF/BDF
// files, our raw reader for files EDFlib refuses, and in-memory tables for text/CSV/NPY.
#pragma once
#include <memory>
#include <string>

#include "io/edf_header.h"
#include "io/recording.h"

namespace warplab::io {

// The EDFlib path. Returns nullptr (with EDFlib's reason in `refusal`) when EDFlib declines
// the file for a reason the lenient reader can handle (format errors, too many open files,
// the same file already open); throws IoError otherwise.
std::unique_ptr<Recording> openEdflibRecording(const std::string& path, const EdfHeaderParse& parsed,
                                               std::string& refusal, bool readAnnotations = true);

// The lenient path: our header parse (violations become warnings) and a raw reader of the
// data records with the same calibration EDFlib uses. `readAnnotations` false leaves the
// annotations (and their TALs' warnings) out, as OpenOptions::readAnnotations says.
std::unique_ptr<Recording> openRawEdfRecording(const std::string& path, EdfHeaderParse parsed,
                                               const std::string& refusal, bool readAnnotations = true);

// Text, CSV/TSV or NPY as a recording: one channel per column (or per row when rows are
// series), at `rateHz` samples per second.
std::unique_ptr<Recording> openTableRecording(const std::string& path, double rateHz);

// The warning both EDF readers give for EDF+D/BDF+D files.
inline constexpr const char* kDiscontinuousWarning =
    "discontinuous (EDF+D/BDF+D): data records are read back to back, so sample times skip the "
    "gaps between records; annotation onsets are real times from the start";

// True when the file starts with an EDF ("0       ") or BDF ("\xffBIOSEMI") version field.
bool looksLikeEdf(const std::string& path);

// The format of an EDF/BDF file from its header's kind (BDF, EDF+/BDF+, discontinuous).
Format edfFormat(bool bdf, bool plus, bool discontinuous);

// A data signal of our header parse as a Recording describes it (display names come from
// assignDisplayNames over all signals); `index` counts data signals only.
SignalInfo edfSignalInfo(const EdfHeader& h, const EdfSignalHeader& s, int index);

// Shared by the EDF readers: unique display names ("T8-P8", "T8-P8 (2)").
void assignDisplayNames(std::vector<SignalInfo>& signals);

// Physical value of a digital sample with EDFlib's arithmetic, so both paths agree bit for bit.
struct Calibration {
    double bitValue = 1, offset = 0;
    Calibration() = default;
    Calibration(double physMin, double physMax, long long digMin, long long digMax)
        : bitValue((physMax - physMin) / double(digMax - digMin)), offset(physMax / bitValue - double(digMax)) {}
    double physical(long long digital) const { return bitValue * (offset + double(digital)); }
};

}  // namespace warplab::io
