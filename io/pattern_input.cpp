#include "io/pattern_input.h"

#include <algorithm>

#include "io/io_error.h"

namespace warplab::io {

int defaultPatternChannel(const Recording& rec) {
    const int fp1 = rec.findSignal("FP1-F7");
    if (fp1 >= 0) return fp1;
    return rec.signals().empty() ? -1 : rec.signals().front().index;
}

std::vector<compute::SecondsSpan> seizureSpansFor(const std::vector<Region>& regions, int signal) {
    std::vector<compute::SecondsSpan> out;
    for (const auto& r : regions)
        if (r.kind == RegionKind::Seizure && (r.channel < 0 || r.channel == signal)) out.push_back({r.startS, r.endS});
    return out;
}

compute::PatternRequest patternRequest(const Recording& rec, int signal, const std::vector<Region>& regions,
                                       double rateHz) {
    const auto& sigs = rec.signals();
    auto it = std::find_if(sigs.begin(), sigs.end(), [&](const SignalInfo& s) { return s.index == signal; });
    if (it == sigs.end()) throw IoError(rec.path(), "channel", "no data signal with index " + std::to_string(signal));
    compute::PatternRequest r;
    r.channel = it->displayName.empty() ? it->label : it->displayName;
    r.rateHz = rateHz > 0 ? rateHz : it->rateHz;
    r.sampleCount = it->samples;
    r.seizures = seizureSpansFor(regions, signal);
    const Recording* source = &rec;
    r.reader = [source, signal](long long start, long long count, float* out) {
        source->readInto(signal, start, count, out);
    };
    return r;
}

compute::PatternRequest defaultPatternRequest(const Recording& rec) {
    const int signal = defaultPatternChannel(rec);
    if (signal < 0) throw IoError(rec.path(), "channel", "the recording has no data signal");
    // The matrix is kept for export from the view when small (PatternRequest::keepMatrixUpToBytes).
    return patternRequest(rec, signal, seizuresFromAnnotations(rec, "seizure"));
}

}  // namespace warplab::io
