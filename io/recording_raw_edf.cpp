// The lenient EDF/BDF reader for files EDFlib refuses but users expect to open (PhysioNet's
// eegmmidb with unit text on its annotation signal, an incomplete last record, ...). The
// header comes from our own parse with its violations as warnings; samples are read straight
// from the data records with pread (edf_signal_read.h), a bounded block at a time, never the
// whole file. Opened for samples only, it skips the annotation signal's TALs, which it would
// otherwise read from every data record.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "io/edf_signal_read.h"
#include "io/edf_tal.h"
#include "io/io_error.h"
#include "io/recording_backends.h"

namespace warplab::io {

namespace {

class RawEdfRecording final : public Recording {
public:
    RawEdfRecording(std::string path, EdfHeaderParse parsed, const std::string& refusal, bool annotations)
        : path_(std::move(path)), h_(std::move(parsed.header)) {
        fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0) throw IoError(path_, "", std::string("cannot open: ") + std::strerror(errno));
        if (!refusal.empty()) warnings_.push_back("opened leniently (" + refusal + ")");
        for (auto& v : parsed.violations) warnings_.push_back(std::move(v));
        if (h_.discontinuous) warnings_.push_back(kDiscontinuousWarning);
        format_ = edfFormat(h_.bdf, h_.plus, h_.discontinuous);
        for (std::size_t i = 0; i < h_.signals.size(); ++i) {
            const EdfSignalHeader& e = h_.signals[i];
            if (e.annotation) { annotationSignals_.push_back(i); continue; }
            signals_.push_back(edfSignalInfo(h_, e, int(signals_.size())));
            headerIndex_.push_back(i);
            calibration_.emplace_back(e.physicalMin, e.physicalMax, e.digitalMin, e.digitalMax);
        }
        assignDisplayNames(signals_);
        try {
            if (annotations) readAnnotations();
        } catch (...) {  // the destructor does not run for a constructor that throws
            ::close(fd_);
            throw;
        }
    }
    ~RawEdfRecording() override {
        if (fd_ >= 0) ::close(fd_);
    }

    const std::string& path() const override { return path_; }
    Format format() const override { return format_; }
    std::string startIso() const override { return h_.startIso(); }
    double durationS() const override { return double(h_.records) * h_.recordDurationS; }
    const std::vector<SignalInfo>& signals() const override { return signals_; }
    const std::vector<Annotation>& annotations() const override { return annotations_; }
    const std::vector<std::string>& warnings() const override { return warnings_; }

    std::vector<float> read(int signal, long long start, long long count) const override {
        std::vector<float> out(static_cast<std::size_t>(checkReadWindow(signal, start, count)));
        readEdfPhysical(source(signal), calibration_[std::size_t(signal)], start, count, out.data());
        return out;
    }

    void readInto(int signal, long long start, long long count, float* out) const override {
        readEdfPhysical(source(signal), calibration_[std::size_t(signal)], start, checkReadWindow(signal, start, count),
                        out);
    }

    std::vector<int> readDigital(int signal, long long start, long long count) const override {
        std::vector<int> out(static_cast<std::size_t>(checkReadWindow(signal, start, count)));
        readEdfDigital(source(signal), start, count, out.data());
        return out;
    }

private:
    EdfSignalSource source(int signal) const {
        const std::size_t s = std::size_t(signal);
        return EdfSignalSource(fd_, path_, signals_[s].displayName, h_, h_.signals[headerIndex_[s]]);
    }

    void readAt(unsigned char* dst, std::size_t n, long long offset, const std::string& what) const {
        std::size_t got = 0;
        while (got < n) {
            ssize_t r = ::pread(fd_, dst + got, n - got, off_t(offset + got));
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0)
                throw IoError(path_, "signal '" + what + "'",
                              "read failed at byte " + std::to_string(offset + got) +
                                  (r < 0 ? std::string(": ") + std::strerror(errno) : std::string(": file shrank")));
            got += std::size_t(r);
        }
    }

    void readAnnotations() {
        if (annotationSignals_.empty()) return;
        std::vector<std::string> problems;
        double subsecond = 0;
        std::vector<unsigned char> buf;
        for (long long r = 0; r < h_.records; ++r) {
            for (std::size_t a : annotationSignals_) {
                const EdfSignalHeader& e = h_.signals[a];
                buf.resize(std::size_t(e.samplesPerRecord * h_.bytesPerSample()));
                readAt(buf.data(), buf.size(), h_.headerBytes + r * h_.recordBytes + e.offsetInRecord, e.label);
                TalRecord tal = parseTalRecord({reinterpret_cast<const char*>(buf.data()), buf.size()});
                if (r == 0 && a == annotationSignals_.front() && tal.hasTimekeeping)
                    subsecond = tal.recordOnsetS - std::floor(tal.recordOnsetS);  // as EDFlib's start offset
                for (auto& p : tal.problems)
                    problems.push_back("annotation signal '" + e.label + "', data record " + std::to_string(r) + ": " + p);
                for (auto& ann : tal.annotations) annotations_.push_back(std::move(ann));
            }
        }
        for (auto& ann : annotations_) ann.onsetS -= subsecond;
        const std::size_t shown = std::min<std::size_t>(problems.size(), 10);
        for (std::size_t i = 0; i < shown; ++i) warnings_.push_back(problems[i]);
        if (problems.size() > shown)
            warnings_.push_back("... and " + std::to_string(problems.size() - shown) + " more malformed TALs");
    }

    std::string path_;
    EdfHeader h_;
    int fd_ = -1;
    Format format_ = Format::EDF;
    std::vector<SignalInfo> signals_;
    std::vector<std::size_t> headerIndex_, annotationSignals_;
    std::vector<Calibration> calibration_;
    std::vector<Annotation> annotations_;
    std::vector<std::string> warnings_;
};

}  // namespace

std::unique_ptr<Recording> openRawEdfRecording(const std::string& path, EdfHeaderParse parsed,
                                               const std::string& refusal, bool readAnnotations) {
    return std::make_unique<RawEdfRecording>(path, std::move(parsed), refusal, readAnnotations);
}

}  // namespace warplab::io
