// One data signal of an EDF/BDF file read straight from its data records (the lenient reader's
// samples, and so a study's): the signal's bytes of many records per task, record ranges on
// all cores, digital -> physical in one tight loop per record. Thread-safe (pread only).
#pragma once
#include <string>

#include "io/edf_header.h"
#include "io/recording_backends.h"

namespace warplab::io {

// Where one signal's samples lie in a file, and the names its messages give.
struct EdfSignalSource {
    int fd = -1;                  // open for reading; only pread is used
    const std::string* path = nullptr;
    const std::string* name = nullptr;  // the signal's display name
    long long headerBytes = 0, recordBytes = 0, records = 0;
    long long samplesPerRecord = 0, offsetInRecord = 0;
    int bytesPerSample = 2;       // 2: EDF, 3: BDF
    EdfSignalSource(int fd, const std::string& path, const std::string& name, const EdfHeader& h,
                    const EdfSignalHeader& s)
        : fd(fd), path(&path), name(&name), headerBytes(h.headerBytes), recordBytes(h.recordBytes),
          records(h.records), samplesPerRecord(s.samplesPerRecord), offsetInRecord(s.offsetInRecord),
          bytesPerSample(h.bytesPerSample()) {}
};

// Physical values of samples [start, start + count) of the signal (the caller has checked the
// window) as floats of Calibration::physical, EDFlib's arithmetic, into out[0, count). Records
// follow each other back to back (EDF+D included, as both readers read it). Throws IoError
// naming the file, the signal and the byte when the file is shorter than its header says.
void readEdfPhysical(const EdfSignalSource& source, const Calibration& calibration, long long start, long long count,
                     float* out);

// The digital values of the same samples.
void readEdfDigital(const EdfSignalSource& source, long long start, long long count, int* out);

}  // namespace warplab::io
