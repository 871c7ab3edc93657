// Writing EDF+/BDF+ files through EDFlib (edfopen_file_writeonly): used for the bundled
// sample (a splice of two real CHB-MIT excerpts) and the generated long recording of the
// scale measurement. Digital samples are written as given, so a copy is bit-exact.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace warplab::io {

struct EdfWriterSignal {
    std::string label, unit, prefilter, transducer;
    double physicalMin = -1, physicalMax = 1;
    int digitalMin = -32768, digitalMax = 32767;
    int samplesPerRecord = 1;
};

struct EdfWriterHeader {
    bool bdf = false;               // BDF+ (24-bit) instead of EDF+
    double recordDurationS = 1.0;   // 0.001 .. 60 s (EDFlib's range)
    int year = 2000, month = 1, day = 1, hour = 0, minute = 0, second = 0;  // year 1985..2084
    std::string patientCode, patientName, recordingAdditional, equipment;
    int annotationSignals = 1;      // more when annotations outnumber data records
};

// A data record that holds whole samples at `rateHz`: 1 s where the rate is whole, else the
// shortest duration EDFlib can write (10-us steps, up to 60 s) that holds a whole number of
// samples (250.5 Hz: 2 s of 501). None where no such record exists (173.61 Hz needs 100 s).
struct EdfRecordShape {
    int samplesPerRecord = 0;
    double durationS = 0;
};
std::optional<EdfRecordShape> edfRecordFor(double rateHz);

class EdfWriter {
public:
    // Opens `path` for writing and sets every header field. Throws IoError naming the field
    // EDFlib refused.
    EdfWriter(const std::string& path, const EdfWriterHeader& header, const std::vector<EdfWriterSignal>& signals);
    ~EdfWriter();  // finalises the file if close() was not called (errors then go unreported)
    EdfWriter(const EdfWriter&) = delete;
    EdfWriter& operator=(const EdfWriter&) = delete;

    // One data record: samplesPerRecord digital samples of signal 0, then of signal 1, ...
    void writeRecordDigital(const int* samples);
    // The same with physical values (EDFlib converts with each signal's calibration).
    void writeRecordPhysical(const double* samples);
    // Onset and duration in seconds from the file start (0.0001 s resolution); duration < 0: none.
    void addAnnotation(double onsetS, double durationS, const std::string& text);
    // Finalises the header (record count) and closes. Throws IoError on failure.
    void close();

private:
    std::string path_;
    int handle_ = -1;
};

}  // namespace warplab::io
