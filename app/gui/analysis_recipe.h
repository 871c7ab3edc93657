// What an analysis shown in a result view was computed from: the recording, the samples cut
// from it and the parameters, taken when its job was submitted and kept once its result reached
// the view. "Copy as Python" / "Copy as command" write scripts from it, so that they reproduce
// the result on screen even after the panel or the marks have changed.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <QString>

#include "compute/core/params.h"
#include "compute/spectral/frequency_band.h"

namespace warplab::app {

// Samples [first, last) of one channel, as Document::segment cuts them.
struct SampleCut {
    std::string channel;  // its display name (what the recording's read() takes)
    long long first = 0, last = 0;
    double rateHz = 0;
};

struct AnalysisRecipe {
    enum class Kind { Alignment, Matrix, Search, Patterns };
    Kind kind = Kind::Alignment;
    QString recording;       // the file's path
    compute::Params params;  // as the job ran it (search: sdtw or the window search's cdtw)
    QString why;             // why no script can read the same samples (montage, filters); "" if none
    // The frequency band every cut was filtered to after reading (zero phase, the default order;
    // the patterns' whole channel filtered once); none: the samples as read. Scripts filter the
    // same (warplab.filter, freq_band=, --freq-band).
    std::optional<compute::spectral::FrequencyBand> freqBand;

    // Alignment: x against y; lowMemory: the distance alone by the fast kernels (no matrix).
    SampleCut x, y;
    bool lowMemory = false;

    // Distance matrix of all pairs of `rows` (channels over a window); or, with epochS > 0, of
    // the epochs of `x` (its whole channel, x.last = the channel's samples) starting at
    // 0, strideS, 2 strideS, ... while start + epochS <= durationS.
    std::vector<SampleCut> rows;
    double epochS = 0, strideS = 0, durationS = 0;

    // Search of the query `x` in the whole channel `y`; the query's own place excluded unless
    // includeSelf (the overlap allowed: toleranceSamples); window: the z-normalised window
    // search with the band in params.
    int topK = 0;
    bool window = false, half2 = false, includeSelf = false;
    long long toleranceSamples = 0;

    // Pattern discovery on the channel of `x` with the seizures (seconds) and epoch/stride
    // (samples); the band is params.band.
    std::vector<std::pair<double, double>> seizures;
    int epoch = 0, stride = 0;
};

class Document;

// A recipe of `kind` on the open recording, with `why` set when a montage or filters of the
// analysis make the samples differ from the file's.
AnalysisRecipe recipeOn(const Document& doc, AnalysisRecipe::Kind kind, const compute::Params& params);
// The samples Document::segment(channel, startS, endS) reads.
SampleCut sampleCut(const Document& doc, int channel, double startS, double endS);

}  // namespace warplab::app
