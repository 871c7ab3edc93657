// Montages: which channels to show and analyse, as derivations over the recording's signals.
// "A" is a channel as recorded (a subset when only some are listed); "A-B" is the bipolar
// derivation A minus B of two referential channels. Labels may themselves contain '-' (the
// CHB-MIT files hold already-bipolar "FP1-F7"), so a whole expression naming a signal wins.
#pragma once
#include <string>
#include <vector>

namespace warplab::io {

class Recording;

struct Derivation {
    std::string name;   // the expression as the user wrote it, trimmed
    int plus = -1;      // signal index
    int minus = -1;     // signal index, -1 for a channel as recorded
};

// Resolves each expression against `rec` (display names, labels or "#N"). An empty list means
// every signal as recorded. Throws IoError(file, "line N", reason) (N = index + 1: one
// expression a line) for an unknown channel, an expression that splits into signal pairs in
// more than one way (each reading named), or a bipolar pair whose rates differ.
std::vector<Derivation> resolveMontage(const Recording& rec, const std::vector<std::string>& expressions);

// How a difference whose labels contain '-' was read, e.g. "\"F7-T7-T7-P7\" read as (F7-T7)
// minus (T7-P7)"; empty for a channel as recorded or a plain A-B.
std::string derivationReading(const Recording& rec, const Derivation& d);

// Samples [start, start+count) of a derivation (plus minus minus), physical units.
std::vector<float> readDerivation(const Recording& rec, const Derivation& d, long long start, long long count);

}  // namespace warplab::io
