#include "io/edf_writer.h"

#include <edflib.h>

#include <cmath>

#include "io/edflib_lock.h"
#include "io/io_error.h"

namespace warplab::io {

std::optional<EdfRecordShape> edfRecordFor(double rateHz) {
    if (!(rateHz > 0) || !std::isfinite(rateHz)) return std::nullopt;
    const double whole = std::round(rateHz);
    if (whole >= 1 && std::fabs(whole - rateHz) <= 1e-9 * rateHz) return EdfRecordShape{int(whole), 1.0};
    // n samples last n / rate seconds: a record when that is a whole number of 10-us units.
    const long long most = (long long)std::floor(60.0 * rateHz);
    for (long long n = 1; n <= most; ++n) {
        const double units = double(n) / rateHz * 1e5;
        const double u = std::round(units);
        if (u >= 100 && std::fabs(units - u) <= 1e-6) return EdfRecordShape{int(n), u / 1e5};
    }
    return std::nullopt;
}

EdfWriter::EdfWriter(const std::string& path, const EdfWriterHeader& h, const std::vector<EdfWriterSignal>& signals)
    : path_(path) {
    if (signals.empty()) throw IoError(path, "signals", "a recording needs at least one signal");
    // EDFlib accepts some impossible settings and fails only when writing; say so up front.
    const int lo = h.bdf ? -8388608 : -32768, hi = h.bdf ? 8388607 : 32767;
    for (std::size_t i = 0; i < signals.size(); ++i) {
        const auto& s = signals[i];
        const std::string f = "signal " + std::to_string(i) + " '" + s.label + "' ";
        if (!(s.physicalMin != s.physicalMax) || !std::isfinite(s.physicalMin) || !std::isfinite(s.physicalMax))
            throw IoError(path, f + "physical maximum", "must differ from the physical minimum");
        if (s.digitalMin >= s.digitalMax || s.digitalMin < lo || s.digitalMax > hi)
            throw IoError(path, f + "digital maximum", "need " + std::to_string(lo) + " <= digital minimum < digital maximum <= " + std::to_string(hi));
        if (s.samplesPerRecord < 1) throw IoError(path, f + "samples per record", "must be >= 1");
    }
    std::lock_guard lock(edflibMutex());
    handle_ = edfopen_file_writeonly(path.c_str(), h.bdf ? EDFLIB_FILETYPE_BDFPLUS : EDFLIB_FILETYPE_EDFPLUS,
                                     int(signals.size()));
    if (handle_ < 0) throw IoError(path, "", "EDFlib cannot create the file (error " + std::to_string(handle_) + ")");
    auto check = [&](int rc, const std::string& field) {
        if (rc != 0) {
            edfclose_file(handle_);
            handle_ = -1;
            std::remove(path_.c_str());
            throw IoError(path_, field, "EDFlib refused the value");
        }
    };
    const long long units = std::llround(h.recordDurationS * 100000.0);  // 10 us units
    check(edf_set_datarecord_duration(handle_, int(units)), "record duration");
    check(edf_set_startdatetime(handle_, h.year, h.month, h.day, h.hour, h.minute, h.second), "start date/time");
    if (!h.patientCode.empty()) check(edf_set_patientcode(handle_, h.patientCode.c_str()), "patient code");
    if (!h.patientName.empty()) check(edf_set_patientname(handle_, h.patientName.c_str()), "patient name");
    if (!h.recordingAdditional.empty())
        check(edf_set_recording_additional(handle_, h.recordingAdditional.c_str()), "recording additional");
    if (!h.equipment.empty()) check(edf_set_equipment(handle_, h.equipment.c_str()), "equipment");
    if (h.annotationSignals != 1) check(edf_set_number_of_annotation_signals(handle_, h.annotationSignals), "annotation signals");
    for (std::size_t i = 0; i < signals.size(); ++i) {
        const auto& s = signals[i];
        const int k = int(i);
        const std::string f = "signal " + std::to_string(i) + " '" + s.label + "' ";
        check(edf_set_samplefrequency(handle_, k, s.samplesPerRecord), f + "samples per record");
        check(edf_set_physical_minimum(handle_, k, s.physicalMin), f + "physical minimum");
        check(edf_set_physical_maximum(handle_, k, s.physicalMax), f + "physical maximum");
        check(edf_set_digital_minimum(handle_, k, s.digitalMin), f + "digital minimum");
        check(edf_set_digital_maximum(handle_, k, s.digitalMax), f + "digital maximum");
        check(edf_set_label(handle_, k, s.label.c_str()), f + "label");
        check(edf_set_physical_dimension(handle_, k, s.unit.c_str()), f + "physical dimension");
        if (!s.prefilter.empty()) check(edf_set_prefilter(handle_, k, s.prefilter.c_str()), f + "prefilter");
        if (!s.transducer.empty()) check(edf_set_transducer(handle_, k, s.transducer.c_str()), f + "transducer");
    }
}

EdfWriter::~EdfWriter() {
    if (handle_ >= 0) {
        std::lock_guard lock(edflibMutex());
        edfclose_file(handle_);
    }
}

void EdfWriter::writeRecordDigital(const int* samples) {
    std::lock_guard lock(edflibMutex());
    if (handle_ < 0) throw IoError(path_, "", "written after close()");
    if (edf_blockwrite_digital_samples(handle_, const_cast<int*>(samples)) != 0)
        throw IoError(path_, "data record", "EDFlib write failed (disk full?)");
}

void EdfWriter::writeRecordPhysical(const double* samples) {
    std::lock_guard lock(edflibMutex());
    if (handle_ < 0) throw IoError(path_, "", "written after close()");
    if (edf_blockwrite_physical_samples(handle_, const_cast<double*>(samples)) != 0)
        throw IoError(path_, "data record", "EDFlib write failed (disk full?)");
}

void EdfWriter::addAnnotation(double onsetS, double durationS, const std::string& text) {
    std::lock_guard lock(edflibMutex());
    if (handle_ < 0) throw IoError(path_, "", "annotation added after close()");
    const long long onset = std::llround(onsetS * 10000.0);
    const long long duration = durationS < 0 ? -1 : std::llround(durationS * 10000.0);
    if (edfwrite_annotation_utf8(handle_, onset, duration, text.c_str()) != 0)
        throw IoError(path_, "annotation", "EDFlib refused \"" + text + "\"");
}

void EdfWriter::close() {
    std::lock_guard lock(edflibMutex());
    if (handle_ < 0) return;
    const int rc = edfclose_file(handle_);
    handle_ = -1;
    if (rc != 0) throw IoError(path_, "", "EDFlib could not finalise the file");
}

}  // namespace warplab::io
