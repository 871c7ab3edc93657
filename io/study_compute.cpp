// The bridge from a study to compute: a pattern request and search sources that read their
// samples lazily through the study.
#include "io/io_error.h"
#include "io/study.h"

namespace warplab::io {

compute::PatternRequest studyPatternRequest(const Study& study, int channel, std::vector<std::string>* skipped) {
    if (channel < 0 || channel >= int(study.channels().size()))
        throw IoError(study.sourcePath(), "channel", "index " + std::to_string(channel) + " outside the study's channels");
    const StudyChannel& c = study.channels()[std::size_t(channel)];
    compute::PatternRequest req;
    req.channel = c.name;
    req.rateHz = c.rateHz;
    for (std::size_t i = 0; i < study.recordings().size(); ++i) {
        const auto& r = study.recordings()[i];
        if (r.status != RecordingStatus::Ok) continue;
        if (c.signalOf[i] < 0) {
            if (skipped) skipped->push_back(r.name + ": no channel " + c.name);
            continue;
        }
        compute::PatternSegment seg;
        seg.sampleCount = study.sampleCount(int(i), channel);
        const int ri = int(i);
        seg.reader = [&study, ri, channel](long long start, long long count, float* out) {
            study.read(ri, channel, start, count, out);
        };
        seg.seizures = study.seizureSpans(ri, channel);
        seg.recording = r.name;
        seg.recordingIndex = ri;
        seg.clockStartS = r.offsetS;
        req.segments.push_back(std::move(seg));
    }
    if (req.segments.empty())
        throw IoError(study.sourcePath(), "channel", "no readable recording of the study has channel " + c.name);
    return req;
}

std::vector<compute::SearchSource> studySearchSources(const Study& study, const std::vector<int>& channels,
                                                      std::vector<std::string>* skipped) {
    std::vector<compute::SearchSource> out;
    for (std::size_t i = 0; i < study.recordings().size(); ++i) {
        const auto& r = study.recordings()[i];
        if (r.status != RecordingStatus::Ok) continue;
        for (int ch : channels) {
            if (ch < 0 || ch >= int(study.channels().size()))
                throw IoError(study.sourcePath(), "channel", "index " + std::to_string(ch) + " outside the study's channels");
            const StudyChannel& c = study.channels()[std::size_t(ch)];
            if (c.signalOf[i] < 0) {
                if (skipped) skipped->push_back(r.name + ": no channel " + c.name);
                continue;
            }
            compute::SearchSource s;
            s.recording = r.name;
            s.channel = c.name;
            s.recordingIndex = int(i);
            s.channelIndex = ch;
            s.rateHz = c.rateHz;
            s.clockStartS = r.offsetS;
            const int ri = int(i);
            s.load = [&study, ri, ch]() {
                const long long n = study.sampleCount(ri, ch);
                return compute::Series(study.read(ri, ch, 0, n), 1,
                                       study.recordings()[std::size_t(ri)].name + " " + study.channels()[std::size_t(ch)].name);
            };
            out.push_back(std::move(s));
        }
    }
    return out;
}

}  // namespace warplab::io
