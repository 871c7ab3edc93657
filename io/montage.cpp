#include "io/montage.h"

#include "io/io_error.h"
#include "io/recording.h"
#include "io/trim_lower.h"

namespace warplab::io {

namespace {

std::string reading(const Recording& rec, const Derivation& d) {
    const std::string plus = rec.signals()[std::size_t(d.plus)].displayName;
    return d.minus < 0 ? plus : "(" + plus + ") minus (" + rec.signals()[std::size_t(d.minus)].displayName + ")";
}

}  // namespace

std::string derivationReading(const Recording& rec, const Derivation& d) {
    if (d.minus < 0) return {};
    const std::string& a = rec.signals()[std::size_t(d.plus)].displayName;
    const std::string& b = rec.signals()[std::size_t(d.minus)].displayName;
    // Only worth saying when a '-' of the expression belongs to a label.
    if (a.find('-') == std::string::npos && b.find('-') == std::string::npos) return {};
    return "\"" + d.name + "\" read as " + reading(rec, d);
}

std::vector<Derivation> resolveMontage(const Recording& rec, const std::vector<std::string>& expressions) {
    std::vector<Derivation> out;
    if (expressions.empty()) {
        for (const auto& s : rec.signals()) out.push_back({s.displayName, s.index, -1});
        return out;
    }
    for (std::size_t i = 0; i < expressions.size(); ++i) {
        // Derivations are typed one per line: errors name the 1-based line.
        const std::string field = "line " + std::to_string(i + 1);
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
                                                 std::to_string(candidates.size()) + " ways (" + [&] {
                                                     std::string ways;
                                                     for (const auto& c : candidates)
                                                         ways += (ways.empty() ? "" : ", ") + reading(rec, c);
                                                     return ways;
                                                 }() + "); use #N-#M (signal numbers from 0)");
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
