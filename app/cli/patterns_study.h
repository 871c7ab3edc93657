// `warplab-cli patterns --study FOLDER|SUMMARY`: the requests (one per --channel, each with one
// segment per recording that has the channel) and the CSV columns a study adds.
#pragma once
#include <string>
#include <vector>

#include "compute/patterns/pattern_discovery.h"
#include "io/study.h"

namespace warplab::cli {

// Adds the seizures of `--seizures "FILE:START-END,..."` (seconds from that file's start) to
// the study, then builds one request per channel name (default: FP1-F7 when the study has it,
// else its first channel). Recordings lacking a channel are skipped with a warning on stderr.
// Throws EngineError (BadParameter "seizures[i]", BadInput "channel") naming what is wrong.
std::vector<compute::PatternRequest> studyPatternRequests(io::Study& study, const std::vector<std::string>& channels,
                                                          const std::string& seizures);

// ",recording,clock_time,nearest_recording,nearest_start_seconds,nearest_clock_time" and a row's values.
std::string studyPatternColumns();
std::string studyPatternFields(const io::Study& study, const compute::PatternRanking& ranking, const compute::PatternScore& p);

}  // namespace warplab::cli
