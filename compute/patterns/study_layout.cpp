#include "compute/patterns/study_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "compute/core/error.h"
#include "compute/patterns/pattern_discovery.h"

namespace warplab::compute {

namespace {

using K = EngineError::Kind;


std::string channelText(const PatternRequest& r) {
    return r.channel.empty() ? std::string("the channel") : "channel '" + r.channel + "'";
}

}  // namespace

SegmentedLayout segmentedLayoutOf(const PatternRequest& r) {
    if (!r.samples.empty() || r.reader || r.sampleCount != 0 || !r.seizures.empty())
        throw EngineError(K::BadParameter, "segments",
                          "a request with segments (a study) takes its samples and seizures from the segments: leave "
                          "samples, reader, sampleCount and seizures empty");
    const std::string ch = channelText(r);
    SegmentedLayout L;
    std::size_t seizureCount = 0;
    for (std::size_t k = 0; k < r.segments.size(); ++k) {
        const PatternSegment& g = r.segments[k];
        const std::string name = g.recording.empty() ? "segment " + std::to_string(k) : g.recording;
        SegmentPlan p;
        p.recording = g.recording;
        p.recordingIndex = g.recordingIndex;
        p.clockStartS = g.clockStartS;
        p.n = segmentLength(g);
        if (p.n <= 0 || (g.samples.empty() && !g.reader))
            throw EngineError(K::BadInput, "segments[" + std::to_string(k) + "]", name + ": " + ch + " has no samples");
        try {
            p.spans = seizureSampleSpans(g.seizures, r.rateHz, p.n);
        } catch (const EngineError& e) {
            std::string reason = e.what();
            if (!e.field().empty() && reason.rfind(e.field() + ": ", 0) == 0) reason = reason.substr(e.field().size() + 2);
            throw EngineError(K::BadInput, "segments[" + std::to_string(k) + "]." + e.field(), name + ": " + reason);
        }
        seizureCount += p.spans.size();
        p.query = queryLength(p.spans);
        p.epochs = epochCount(p.n, r.epoch, r.stride);
        p.patterns = epochCount(p.query, r.epoch, r.stride);
        p.epochBegin = std::size_t(L.epochs);
        p.patternBegin = std::size_t(L.patterns);
        p.queryBegin = std::size_t(L.query);
        const std::vector<unsigned char> ictal = ictalEpochs(p.spans, p.epochs, r.epoch, r.stride);
        p.ictalCount = std::size_t(std::count(ictal.begin(), ictal.end(), 1));
        L.ictal.insert(L.ictal.end(), ictal.begin(), ictal.end());
        L.ictalCount += p.ictalCount;
        L.n += p.n;
        L.epochs += p.epochs;
        L.patterns += p.patterns;
        L.query += p.query;
        L.segments.push_back(std::move(p));
    }
    if (L.segments.empty()) throw EngineError(K::BadInput, "segments", "the study has no recording for " + ch);
    if (L.epochs == 0)
        throw EngineError(K::BadParameter, "epoch",
                          "epoch length e = " + std::to_string(r.epoch) + " samples is longer than every recording of " + ch);
    if (seizureCount == 0)
        throw EngineError(K::BadInput, "seizures",
                          "no seizure marked on " + ch + " in any recording of the study: mark at least one seizure");
    if (L.patterns == 0)
        throw EngineError(K::BadInput, "seizures",
                          "the marked seizures of " + ch + " are, in every recording, shorter than one epoch (e = " +
                              std::to_string(r.epoch) + " samples, " + secondsText(r.epoch / r.rateHz) +
                              "): patterns never cross from one recording into another");
    requireIctalAndInterictal(L, ch);
    return L;
}

void requireIctalAndInterictal(const SegmentedLayout& L, const std::string& ch) {
    if (L.ictalCount == 0)
        throw EngineError(K::BadInput, "seizures",
                          "no epoch of " + ch + " lies at least half inside a marked seizure, so no epoch is ictal");
    if (L.ictalCount == L.ictal.size())
        throw EngineError(K::BadInput, "seizures",
                          "every epoch of " + ch + " is ictal: there are no interictal epochs to compare with");
}

void addSingleSegment(const PatternRequest& r, SegmentedLayout& L) {
    SegmentPlan p;
    (void)r;  // one recording: no name or clock of its own (the caller's results say which file)
    p.n = L.n;
    p.epochs = L.epochs;
    p.patterns = L.patterns;
    p.query = L.query;
    p.spans = L.spans;
    p.ictalCount = L.ictalCount;
    L.segments.assign(1, std::move(p));
}

std::vector<EpochBlock> epochBlocks(const SegmentedLayout& L, long long e, long long s, std::size_t eb) {
    std::vector<EpochBlock> out;
    const std::size_t nE = std::size_t(L.epochs);
    eb = std::max<std::size_t>(1, eb);
    std::size_t seg = 0;
    for (std::size_t c0 = 0; c0 < nE; c0 += eb) {
        EpochBlock b;
        b.c0 = c0;
        b.c1 = std::min(nE, c0 + eb);
        std::size_t c = c0;
        while (c < b.c1) {
            while (L.segments[seg].epochBegin + std::size_t(L.segments[seg].epochs) <= c) ++seg;
            const SegmentPlan& p = L.segments[seg];
            const std::size_t end = std::min(b.c1, p.epochBegin + std::size_t(p.epochs));
            EpochPiece piece;
            piece.segment = seg;
            piece.first = (long long)(c - p.epochBegin) * s;
            piece.count = (long long)(end - 1 - c) * s + e;
            piece.bufferOffset = b.bufferSamples;
            for (std::size_t j = c; j < end; ++j) b.epochOffset.push_back(piece.bufferOffset + (j - c) * std::size_t(s));
            b.bufferSamples += std::size_t(piece.count);
            b.pieces.push_back(piece);
            c = end;
        }
        out.push_back(std::move(b));
    }
    return out;
}

const float* segmentView(const PatternRequest& r, std::size_t k) {
    if (r.segments.empty()) return r.samples.empty() ? nullptr : r.samples.data();
    return r.segments[k].samples.empty() ? nullptr : r.segments[k].samples.data();
}

void checkSegmentFinite(const PatternRequest& r, const SegmentedLayout& L, std::size_t k, long long start,
                        long long count, const float* v) {
    const std::string where = r.segments.empty() || L.segments[k].recording.empty() ? std::string()
                                                                                     : " in " + L.segments[k].recording;
    for (long long q = 0; q < count; ++q)
        if (!std::isfinite(v[q]))
            throw EngineError(K::BadInput, "samples",
                              (r.channel.empty() ? std::string("channel") : "channel '" + r.channel + "'") + where +
                                  ": sample " + std::to_string(start + q) + " (" +
                                  secondsText(double(start + q) / r.rateHz) + ") is not a finite number");
}

void readSegment(const PatternRequest& r, const SegmentedLayout& L, std::size_t k, long long start, long long count,
                 float* out) {
    if (const float* v = segmentView(r, k))
        std::memcpy(out, v + start, std::size_t(count) * sizeof(float));
    else if (r.segments.empty())
        r.reader(start, count, out);
    else
        r.segments[k].reader(start, count, out);
    checkSegmentFinite(r, L, k, start, count, out);
}

const float* epochBlockSamples(const PatternRequest& r, const SegmentedLayout& L, const EpochBlock& b,
                               std::vector<float>& buffer) {
    if (b.pieces.size() == 1) {
        const EpochPiece& p = b.pieces.front();
        if (const float* v = segmentView(r, p.segment)) {
            checkSegmentFinite(r, L, p.segment, p.first, p.count, v + p.first);
            return v + p.first;
        }
    }
    buffer.resize(b.bufferSamples);
    for (const auto& p : b.pieces) readSegment(r, L, p.segment, p.first, p.count, buffer.data() + p.bufferOffset);
    return buffer.data();
}

std::vector<float> readPatternQueries(const PatternRequest& r, const SegmentedLayout& L) {
    std::vector<float> query(std::size_t(L.query));
    for (std::size_t k = 0; k < L.segments.size(); ++k) {
        std::size_t at = L.segments[k].queryBegin;
        for (const auto& s : L.segments[k].spans) {
            readSegment(r, L, k, s.begin, s.length(), query.data() + at);
            at += std::size_t(s.length());
        }
    }
    return query;
}

PatternOrigin patternOrigin(const SegmentedLayout& L, std::size_t i, long long stride) {
    // The last segment whose first row is <= i and that has patterns.
    auto it = std::upper_bound(L.segments.begin(), L.segments.end(), i,
                               [](std::size_t v, const SegmentPlan& p) { return v < p.patternBegin; });
    std::size_t k = std::size_t(it - L.segments.begin()) - 1;
    while (L.segments[k].patterns == 0 || i >= L.segments[k].patternBegin + std::size_t(L.segments[k].patterns)) ++k;
    const SegmentPlan& p = L.segments[k];
    PatternOrigin o;
    o.segment = k;
    o.querySample = (long long)(i - p.patternBegin) * stride;
    o.recordingSample = queryToRecordingSample(p.spans, o.querySample);
    o.queryOffset = p.queryBegin + std::size_t(o.querySample);
    return o;
}

EpochOrigin epochOrigin(const SegmentedLayout& L, std::size_t j) {
    auto it = std::upper_bound(L.segments.begin(), L.segments.end(), j,
                               [](std::size_t v, const SegmentPlan& p) { return v < p.epochBegin; });
    std::size_t k = std::size_t(it - L.segments.begin()) - 1;
    while (L.segments[k].epochs == 0 || j >= L.segments[k].epochBegin + std::size_t(L.segments[k].epochs)) ++k;
    return {k, (long long)(j - L.segments[k].epochBegin)};
}

std::string secondsText(double s) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", s);
    std::string t = buf;
    // Milliseconds at most, as a reader counts them: 3.00390625 -> "3.004", 2.5 -> "2.5", 4 -> "4".
    if (t.find('.') != std::string::npos) {
        while (t.back() == '0') t.pop_back();
        if (t.back() == '.') t.pop_back();
    }
    return t + " s";
}

}  // namespace warplab::compute
