#include "io/montage.h"

#include "io/io_error.h"
#include "io/recording.h"
#include "io/trim_lower.h"

namespace warplab::io {

std::vector<Derivation> resolveMontage(const Recording& rec, const std::vector<std::string>& expressions) {
    std::vector<Derivation> out;
    if (expressions.empty()) {
        for (const auto& s : rec.signals()) out.push_back({s.displayName, s.index, -1});
        return out;
    }
    for (std::size_t i = 0; i < expressions.size(); ++i) {
        const std::string field = "montage[" + std::to_string(i) + "]";
        const std::string e = trim(expressions[i]);
        if (e.empty()) throw IoError(rec.path(), field, "empty derivation");
        if (int whole = rec.findSignal(e); whole >= 0) {
            out.push_back({e, whole, -1});
            continue;
        }
        // Try every '-' as the operator; exactly one split must name two signals.
        std::vector<Derivation> candidates;
        for (std::size_t p = e.find('-'); p != std::string::npos; p = e.find('-', p + 1)) {
            const int a = rec.findSignal(trim(e.substr(0, p))), b = rec.findSignal(trim(e.substr(p + 1)));
            if (a >= 0 && b >= 0) candidates.push_back({e, a, b});
        }
        if (candidates.empty())
            throw IoError(rec.path(), field, "\"" + e + "\" names no signal and no pair A-B of signals");
        if (candidates.size() > 1)
            throw IoError(rec.path(), field, "\"" + e + "\" is ambiguous: it splits into signal pairs in " +
                                                 std::to_string(candidates.size()) + " ways; use #N-#M");
        const auto& sa = rec.signals()[candidates[0].plus];
        const auto& sb = rec.signals()[candidates[0].minus];
        if (sa.rateHz != sb.rateHz || sa.samples != sb.samples)
            throw IoError(rec.path(), field, "'" + sa.displayName + "' and '" + sb.displayName + "' differ in sample rate");
        out.push_back(candidates[0]);
    }
    return out;
}

std::vector<float> readDerivation(const Recording& rec, const Derivation& d, long long start, long long count) {
    std::vector<float> v = rec.read(d.plus, start, count);
    if (d.minus >= 0) {
        const std::vector<float> m = rec.read(d.minus, start, count);
        for (std::size_t i = 0; i < v.size(); ++i) v[i] -= m[i];
    }
    return v;
}

}  // namespace warplab::io
