// Our own reading of an EDF/BDF header (main header + signal headers). EDFlib stays the reader
// for valid files; this parser exists for what EDFlib refuses but users expect to open (the
// lenient path), for the EDF+C/EDF+D distinction EDFlib does not report, and for precise
// messages about headers that contradict themselves.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warplab::io {

struct EdfSignalHeader {
    std::string label, transducer, unit, prefilter;  // trimmed
    double physicalMin = 0, physicalMax = 0;
    long long digitalMin = 0, digitalMax = 0;
    long long samplesPerRecord = 0;
    bool annotation = false;     // "EDF Annotations" / "BDF Annotations" (EDF+/BDF+ only)
    long long offsetInRecord = 0;  // byte offset of this signal inside one data record
};

struct EdfHeader {
    bool bdf = false;             // 24-bit samples
    bool plus = false;            // EDF+ / BDF+ (reserved field starts with EDF+ / BDF+)
    bool discontinuous = false;   // EDF+D / BDF+D
    std::string patient, recordingId, startDate, startTime, reserved;
    long long headerBytes = 0;
    long long declaredRecords = 0;  // as written in the header (may be -1)
    long long records = 0;          // complete data records present and usable
    double recordDurationS = 0;
    int signalCount = 0;            // all signals, annotation signals included
    std::vector<EdfSignalHeader> signals;
    long long recordBytes = 0;      // bytes of one data record
    int bytesPerSample() const { return bdf ? 3 : 2; }
    std::string startIso() const;   // "" when the date or time field is malformed
};

struct EdfHeaderParse {
    EdfHeader header;
    // Violations of the standard that were tolerated, each naming the field and signal.
    std::vector<std::string> violations;
};

// Bytes of the header that parseEdfHeader needs: 256 for the main header, then 256 per signal.
// Returns 0 when `mainHeader` (>= 256 bytes) does not give a usable signal count.
long long edfHeaderSize(std::string_view mainHeader);

// Parses the header in `bytes` (at least the full header; more is ignored) of a file of
// `fileSize` bytes named `file` (for messages). Throws IoError naming file, field and reason
// when the header is not EDF/BDF or contradicts itself (header bytes != 256*(ns+1), record
// count impossible for the file size, negative counts, unusable calibration); tolerable
// violations are returned in `violations`. An incomplete last data record is a violation:
// `records` then counts only the complete ones.
EdfHeaderParse parseEdfHeader(const std::string& file, std::string_view bytes, long long fileSize);

// Reads the header of `path` from disk (only the header bytes) and parses it.
EdfHeaderParse readEdfHeader(const std::string& path);

}  // namespace warplab::io
