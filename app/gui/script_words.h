// The words scripts are written in: Python literals, shell words, numbers that read back to the
// same double, and the metric parameters as `warplab` keywords or `warplab-cli` options.
#pragma once
#include <QString>
#include <QStringList>

#include "compute/core/params.h"
#include "compute/spectral/frequency_band.h"

namespace warplab::app {

QString pyString(const QString& s);  // a Python string literal
QString shellWord(const QString& s); // quoted only where a shell needs it
QString exactNumber(double v);       // the shortest text that reads back to v, never an exponent
// `metric="cdtw", band=12, cost="sq"`...: the keywords of warplab.align / distance_matrix.
QString pythonMetricArgs(const compute::Params& p);
// `--metric cdtw --band 12 --cost sq`...
QStringList cliMetricWords(const compute::Params& p);
// `cost="sq", znorm=True`... / `--cost sq --znorm`...: what a search takes besides its mode.
QString pythonCostArgs(const compute::Params& p);
QStringList cliCostWords(const compute::Params& p);
// A frequency band as warplab.filter, freq_band= and --freq-band read it back: "alpha" for a
// preset, "mu=8-12" for a user's named band, "8-13" for an unnamed range.
QString bandWord(const compute::spectral::FrequencyBand& band);
// "START:LEN" seconds that warplab-cli's --window rounds back to samples [first, last).
QString cliWindow(long long first, long long last, double rateHz);

}  // namespace warplab::app
