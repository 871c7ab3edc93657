// Recording::open: chooses the reader by content (EDF/BDF version field) or by extension.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>

#include "io/io_error.h"
#include "io/recording_backends.h"
#include "io/trim_lower.h"

namespace warplab::io {

std::string_view formatName(Format f) {
    switch (f) {
    case Format::EDF: return "EDF";
    case Format::EDFPlusC: return "EDF+C";
    case Format::EDFPlusD: return "EDF+D";
    case Format::BDF: return "BDF";
    case Format::BDFPlusC: return "BDF+C";
    case Format::BDFPlusD: return "BDF+D";
    case Format::Text: return "text";
    case Format::Csv: return "csv";
    case Format::Npy: return "npy";
    }
    return "unknown";
}

Format edfFormat(bool bdf, bool plus, bool discontinuous) {
    if (bdf) return plus ? (discontinuous ? Format::BDFPlusD : Format::BDFPlusC) : Format::BDF;
    return plus ? (discontinuous ? Format::EDFPlusD : Format::EDFPlusC) : Format::EDF;
}

SignalInfo edfSignalInfo(const EdfHeader& h, const EdfSignalHeader& s, int index) {
    SignalInfo si;
    si.index = index;
    si.label = s.label;
    si.unit = s.unit;
    // A header with data has a positive record duration (parseEdfHeader refuses others).
    si.rateHz = h.recordDurationS > 0 ? double(s.samplesPerRecord) / h.recordDurationS : 0;
    si.samples = s.samplesPerRecord * h.records;
    si.physicalMin = s.physicalMin;
    si.physicalMax = s.physicalMax;
    si.digitalMin = s.digitalMin;
    si.digitalMax = s.digitalMax;
    si.prefilter = s.prefilter;
    si.transducer = s.transducer;
    return si;
}

void assignDisplayNames(std::vector<SignalInfo>& signals) {
    std::map<std::string, int> seen;
    for (auto& s : signals) {
        int n = ++seen[s.label];
        s.displayName = n == 1 ? s.label : s.label + " (" + std::to_string(n) + ")";
    }
    // A later label may itself read "X (2)"; keep names unique by counting on.
    std::map<std::string, int> names;
    for (auto& s : signals)
        if (++names[s.displayName] > 1) s.displayName += " #" + std::to_string(s.index);
}

bool looksLikeEdf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char v[8] = {};
    if (!in.read(v, 8)) return false;
    std::string_view s(v, 8);
    return s == std::string_view("\xff" "BIOSEMI", 8) || s == std::string_view("0       ", 8);
}

std::unique_ptr<Recording> Recording::open(const std::string& path) {
    return open(path, OpenOptions{});
}

std::unique_ptr<Recording> Recording::open(const std::string& path, const OpenOptions& options) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw IoError(path, "", std::filesystem::exists(path, ec) ? "not a regular file" : "no such file");
    std::string ext = lower(std::filesystem::path(path).extension().string());
    if (looksLikeEdf(path)) {
        EdfHeaderParse parsed = readEdfHeader(path);  // refuses self-contradicting headers first
        std::string refusal;
        if (!options.forceLenient)
            if (auto rec = openEdflibRecording(path, parsed, refusal, options.readAnnotations)) return rec;
        // EDFlib declined: format errors go into the warnings; a busy EDFlib (file already
        // open, too many files) is no fault of the file.
        const bool formatErrors = refusal.find("format errors") != std::string::npos;
        return openRawEdfRecording(path, std::move(parsed), formatErrors ? refusal : std::string(),
                                   options.readAnnotations);
    }
    if (ext == ".edf" || ext == ".bdf" || ext == ".rec")
        throw IoError(path, "version", "not an EDF or BDF file (the version field is not \"0\" or \"\\xffBIOSEMI\")");
    if (ext == ".txt" || ext == ".csv" || ext == ".tsv" || ext == ".npy" || ext == ".dat")
        return openTableRecording(path, options.rateHz);
    throw IoError(path, "format", "not a recording: neither an EDF/BDF header nor a .txt/.csv/.tsv/.npy file");
}

}  // namespace warplab::io
