// A CHB-MIT summary names whole files (chb01_03.edf). Excerpts cut from them keep the file's
// name before their own suffix ("chb01_03_Seizure.edf") and carry their own clock start, so
// their place in the file, and so their seizures, follow: a seizure of the file, shifted by
// the excerpt's start in it and clipped to the excerpt.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "io/study.h"
#include "io/study_summary.h"

namespace warplab::io {

// The seizures of summary entry `e` inside recording `r`, in seconds from r's start, when r
// is an excerpt of e's file (name "<stem>_..." or "<stem>-...", a known clock start within
// the file's start .. end); empty otherwise.
std::vector<std::pair<double, double>> cropSeizures(const SummaryEntry& e, const StudyRecording& r);

}  // namespace warplab::io
