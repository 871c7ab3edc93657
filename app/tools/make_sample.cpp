// Builds the bundled sample resources/sample/chb01_03_sample.edf: the two real CHB-MIT chb01_03
// excerpts (41 s NonSeizure = [0,41) s, then 41 s Seizure = [2995,3036) s of the original)
// joined record by record into one EDF+ file, digital samples and calibration unchanged,
// with the seizure (2996-3036 s in the original) annotated at 42-82 s.
//   warplab-make-sample NONSEIZURE.edf SEIZURE.edf OUT.edf
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <exception>
#include <string>

#include "io/edf_writer.h"
#include "io/recording.h"

using namespace warplab::io;

namespace {

void requireSameLayout(const Recording& a, const Recording& b) {
    if (a.signals().size() != b.signals().size()) throw std::runtime_error("the excerpts differ in signal count");
    for (std::size_t i = 0; i < a.signals().size(); ++i) {
        const auto& x = a.signals()[i];
        const auto& y = b.signals()[i];
        if (x.label != y.label || x.rateHz != y.rateHz || x.physicalMin != y.physicalMin ||
            x.physicalMax != y.physicalMax || x.digitalMin != y.digitalMin || x.digitalMax != y.digitalMax)
            throw std::runtime_error("signal " + std::to_string(i) + " differs between the excerpts");
    }
}

void copyRecords(const Recording& src, EdfWriter& out) {
    const auto& sigs = src.signals();
    const long long spr = static_cast<long long>(sigs[0].rateHz);  // 1-s records
    const long long records = sigs[0].samples / spr;
    std::vector<std::vector<int>> digital;
    for (const auto& s : sigs) digital.push_back(src.readDigital(s.index, 0, s.samples));
    std::vector<int> record(sigs.size() * spr);
    for (long long r = 0; r < records; ++r) {
        for (std::size_t i = 0; i < sigs.size(); ++i)
            std::copy_n(digital[i].begin() + r * spr, spr, record.begin() + i * spr);
        out.writeRecordDigital(record.data());
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s NONSEIZURE.edf SEIZURE.edf OUT.edf\n", argv[0]);
        return 2;
    }
    try {
        auto pre = Recording::open(argv[1]);
        auto ictal = Recording::open(argv[2]);
        requireSameLayout(*pre, *ictal);
        for (const auto& s : pre->signals())
            if (s.rateHz != 256 || s.samples % 256) throw std::runtime_error("expected whole 1-s records at 256 Hz");
        EdfWriterHeader h;
        // Start of the NonSeizure excerpt, which is the original chb01_03 start (06.11.76 13.43.04,
        // read by EDF's 1985-2084 rule as 2076, as EDFlib reads the source files).
        std::sscanf(pre->startIso().c_str(), "%d-%d-%dT%d:%d:%d", &h.year, &h.month, &h.day, &h.hour, &h.minute, &h.second);
        h.patientCode = "chb01";
        h.patientName = "Surrogate Name";
        h.recordingAdditional = "CHB-MIT chb01_03 0-41 s + 2995-3036 s";
        std::vector<EdfWriterSignal> sigs;
        for (const auto& s : pre->signals())
            sigs.push_back({s.label, s.unit, s.prefilter, s.transducer, s.physicalMin, s.physicalMax,
                            int(s.digitalMin), int(s.digitalMax), int(s.rateHz)});
        EdfWriter out(argv[3], h, sigs);
        copyRecords(*pre, out);
        copyRecords(*ictal, out);
        const double splice = pre->durationS();
        out.addAnnotation(0.0, -1, "chb01_03 from 0 s");
        out.addAnnotation(splice, -1, "chb01_03 from 2995 s (splice)");
        out.addAnnotation(splice + 1.0, ictal->durationS() - 1.0, "seizure");
        out.close();
        std::printf("wrote %s: %.0f s + %.0f s, %zu signals\n", argv[3], pre->durationS(), ictal->durationS(),
                    sigs.size());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
