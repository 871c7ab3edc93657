// Valid EDF/EDF+/BDF/BDF+ files, read through EDFlib (the standard reader), lazily: opening
// reads the headers and annotations; read() seeks to one channel's window.
#include <edflib.h>

#include <algorithm>
#include <cstdio>
#include <mutex>

#include "io/edflib_lock.h"
#include "io/io_error.h"
#include "io/printable.h"
#include "io/recording_backends.h"
#include "io/trim_lower.h"

namespace warplab::io {

namespace {

std::string edflibReason(int code) {
    switch (code) {
    case EDFLIB_MALLOC_ERROR: return "EDFlib: out of memory";
    case EDFLIB_NO_SUCH_FILE_OR_DIRECTORY: return "no such file or not readable";
    case EDFLIB_FILE_CONTAINS_FORMAT_ERRORS: return "EDFlib: the file contains format errors";
    case EDFLIB_MAXFILES_REACHED: return "EDFlib: too many files open";
    case EDFLIB_FILE_READ_ERROR: return "EDFlib: read error";
    case EDFLIB_FILE_ALREADY_OPENED: return "EDFlib: the file is already open";
    default: return "EDFlib: error " + std::to_string(code);
    }
}

class EdflibRecording final : public Recording {
public:
    EdflibRecording(std::string path, const edf_hdr_struct& hdr, const EdfHeader& own)
        : path_(std::move(path)), handle_(hdr.handle) {
        const bool bdf = hdr.filetype == EDFLIB_FILETYPE_BDF || hdr.filetype == EDFLIB_FILETYPE_BDFPLUS;
        const bool plus = hdr.filetype == EDFLIB_FILETYPE_EDFPLUS || hdr.filetype == EDFLIB_FILETYPE_BDFPLUS;
        format_ = edfFormat(bdf, plus, own.discontinuous);
        if (own.discontinuous) warnings_.push_back(kDiscontinuousWarning);
        const double recordS = double(hdr.datarecord_duration) / EDFLIB_TIME_DIMENSION;
        duration_ = double(hdr.datarecords_in_file) * recordS;
        char buf[40];
        std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d", hdr.startdate_year, hdr.startdate_month,
                      hdr.startdate_day, hdr.starttime_hour, hdr.starttime_minute, hdr.starttime_second);
        start_ = buf;
        for (int i = 0; i < hdr.edfsignals; ++i) {
            const edf_param_struct& p = hdr.signalparam[i];
            SignalInfo s;
            s.index = i;
            s.label = escapeControls(trim(p.label, " "));
            s.unit = escapeControls(trim(p.physdimension, " "));
            s.rateHz = double(p.smp_in_datarecord) / recordS;
            s.samples = p.smp_in_file;
            s.physicalMin = p.phys_min;
            s.physicalMax = p.phys_max;
            s.digitalMin = p.dig_min;
            s.digitalMax = p.dig_max;
            s.prefilter = escapeControls(trim(p.prefilter, " "));
            s.transducer = escapeControls(trim(p.transducer, " "));
            signals_.push_back(std::move(s));
        }
        assignDisplayNames(signals_);
        for (long long n = 0; n < hdr.annotations_in_file; ++n) {
            edf_annotation_struct a{};
            if (edf_get_annotation(handle_, int(n), &a) != 0) continue;
            Annotation ann;
            ann.onsetS = double(a.onset) / EDFLIB_TIME_DIMENSION;
            ann.durationS = a.duration_l < 0 ? 0.0 : double(a.duration_l) / EDFLIB_TIME_DIMENSION;
            ann.text = escapeControls(trim(a.annotation, " "));
            annotations_.push_back(std::move(ann));
        }
    }
    ~EdflibRecording() override {
        std::lock_guard lock(edflibMutex());
        edfclose_file(handle_);
    }

    const std::string& path() const override { return path_; }
    Format format() const override { return format_; }
    std::string startIso() const override { return start_; }
    double durationS() const override { return duration_; }
    const std::vector<SignalInfo>& signals() const override { return signals_; }
    const std::vector<Annotation>& annotations() const override { return annotations_; }
    const std::vector<std::string>& warnings() const override { return warnings_; }

    std::vector<float> read(int signal, long long start, long long count) const override {
        std::vector<float> out(static_cast<std::size_t>(checkReadWindow(signal, start, count)));
        readChunks<double>(signal, start, count, out.data(), edfread_physical_samples);
        return out;
    }

    void readInto(int signal, long long start, long long count, float* out) const override {
        readChunks<double>(signal, start, checkReadWindow(signal, start, count), out, edfread_physical_samples);
    }

    std::vector<int> readDigital(int signal, long long start, long long count) const override {
        std::vector<int> out(static_cast<std::size_t>(checkReadWindow(signal, start, count)));
        readChunks<int>(signal, start, count, out.data(), edfread_digital_samples);
        return out;
    }

private:
    // Reads through EDFlib in bounded chunks (EDFlib takes an int count) into `out`.
    template <typename Sample, typename Out>
    void readChunks(int signal, long long start, long long count, Out* out,
                    int (*fn)(int, int, int, Sample*)) const {
        std::vector<Sample> buf(static_cast<std::size_t>(std::min<long long>(count, 1 << 16)));
        std::lock_guard lock(edflibMutex());
        if (count > 0 && edfseek(handle_, signal, start, EDFSEEK_SET) != start)
            throw IoError(path_, "signal '" + signals_[signal].displayName + "'", "EDFlib could not seek");
        long long done = 0;
        while (done < count) {
            int n = int(std::min<long long>(count - done, static_cast<long long>(buf.size())));
            int got = fn(handle_, signal, n, buf.data());
            if (got != n)
                throw IoError(path_, "signal '" + signals_[signal].displayName + "'",
                              "EDFlib read " + std::to_string(got < 0 ? 0 : got) + " of " + std::to_string(n) +
                                  " samples at sample " + std::to_string(start + done));
            std::transform(buf.begin(), buf.begin() + n, out + done, [](Sample v) { return Out(v); });
            done += n;
        }
    }

    std::string path_;
    int handle_;
    Format format_ = Format::EDF;
    std::string start_;
    double duration_ = 0;
    std::vector<SignalInfo> signals_;
    std::vector<Annotation> annotations_;
    std::vector<std::string> warnings_;
};

}  // namespace

std::unique_ptr<Recording> openEdflibRecording(const std::string& path, const EdfHeaderParse& parsed,
                                               std::string& refusal, bool readAnnotations) {
    // edf_hdr_struct holds 640 signal descriptions (about 150 KiB): keep it off the stack.
    auto hdr = std::make_unique<edf_hdr_struct>();
    std::lock_guard lock(edflibMutex());
    if (edfopen_file_readonly(path.c_str(), hdr.get(),
                              readAnnotations ? EDFLIB_READ_ALL_ANNOTATIONS : EDFLIB_DO_NOT_READ_ANNOTATIONS) != 0) {
        const int code = hdr->filetype;
        refusal = edflibReason(code);
        if (code == EDFLIB_FILE_CONTAINS_FORMAT_ERRORS || code == EDFLIB_MAXFILES_REACHED ||
            code == EDFLIB_FILE_ALREADY_OPENED || code == EDFLIB_FILE_IS_DISCONTINUOUS)
            return nullptr;
        throw IoError(path, "", refusal);
    }
    try {
        return std::make_unique<EdflibRecording>(path, *hdr, parsed.header);
    } catch (...) {
        edfclose_file(hdr->handle);
        throw;
    }
}

}  // namespace warplab::io
