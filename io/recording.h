// An opened recording (EDF, EDF+, BDF through EDFlib; or a series file shown as channels).
// Lazy: opening reads headers only; read() fetches one channel's window on demand, so an
// hours-long recording never has to be in memory at once.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace warplab::io {

enum class Format { EDF, EDFPlusC, EDFPlusD, BDF, BDFPlusC, BDFPlusD, Text, Csv, Npy };
std::string_view formatName(Format f);  // "EDF", "EDF+C", ..., "text", "csv", "npy"

struct SignalInfo {
    int index = 0;               // 0-based among data signals (annotation signals excluded)
    std::string label;           // as in the header, trimmed
    std::string displayName;     // unique: repeated labels get " (2)", " (3)", ...
    std::string unit;            // physical dimension
    double rateHz = 0;
    long long samples = 0;       // in the whole recording
    double physicalMin = 0, physicalMax = 0;
    long long digitalMin = 0, digitalMax = 0;
    std::string prefilter, transducer;
};

struct Annotation {
    double onsetS = 0;     // seconds from the recording start
    double durationS = 0;  // 0 when none given
    std::string text;
};

struct OpenOptions {
    double rateHz = 0;          // text/CSV/NPY: samples per second (0: 1 Hz, i.e. seconds = samples)
    bool forceLenient = false;  // EDF/BDF: skip EDFlib and use the lenient raw reader (tests, tools)
    // EDF+/BDF+: false skips reading the annotations (annotations() is then empty), which
    // otherwise visits every data record at open (both readers): a study reading samples only.
    bool readAnnotations = true;
};

class Recording {
public:
    // Opens by content (EDF/BDF header) or extension (.txt, .csv, .tsv, .npy).
    // Throws IoError naming file, field and reason.
    static std::unique_ptr<Recording> open(const std::string& path);
    static std::unique_ptr<Recording> open(const std::string& path, const OpenOptions& options);
    virtual ~Recording() = default;

    virtual const std::string& path() const = 0;
    virtual Format format() const = 0;
    virtual std::string startIso() const = 0;           // ISO 8601 local time, "" when unknown
    virtual double durationS() const = 0;
// Qt defines `signals` as a keyword macro; hide it here so that this header also parses
// after Qt headers (Qt code then reads the list through widgets/recording_access.h).
#pragma push_macro("signals")
#undef signals
    virtual const std::vector<SignalInfo>& signals() const = 0;
#pragma pop_macro("signals")
    virtual const std::vector<Annotation>& annotations() const = 0;
    // Violations tolerated while opening (lenient EDF path, incomplete last record, ...).
    virtual const std::vector<std::string>& warnings() const = 0;

    // Physical values of `signal`, samples [start, start+count). Throws IoError when out of range.
    virtual std::vector<float> read(int signal, long long start, long long count) const = 0;
    // The same values written to out[0, count) (the caller's buffer, e.g. a study's whole
    // channel), without a vector of their own in between.
    virtual void readInto(int signal, long long start, long long count, float* out) const;

    // Digital (raw integer) samples of an EDF/BDF signal, for bit-exact copies; other formats
    // throw IoError.
    virtual std::vector<int> readDigital(int signal, long long start, long long count) const;

    // How a text/CSV/NPY file was laid out ("one channel per column (header names)", "one
    // series per row"); empty for EDF/BDF.
    virtual std::string layout() const { return {}; }

    // Index of a signal by display name, label, or "#N" (0-based index); -1 when unknown.
    int findSignal(std::string_view name) const;

protected:
    // Throws IoError naming the signal when [start, start+count) is not inside it; returns count.
    long long checkReadWindow(int signal, long long start, long long count) const;
};

}  // namespace warplab::io
