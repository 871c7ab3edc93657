// EDF+ Time-stamped Annotation Lists (TALs) of one data record, for the lenient reader (EDFlib
// decodes them itself on its own path): "+onset[\x15duration]\x14text\x14...\x14\0".
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "io/recording.h"

namespace warplab::io {

struct TalRecord {
    bool hasTimekeeping = false;  // the record's first TAL gave its start time
    double recordOnsetS = 0;      // that start time, seconds from the file start
    std::vector<Annotation> annotations;
    std::vector<std::string> problems;  // malformed TALs, described without the record number
};

// Decodes the annotation bytes of one data record. Never throws: malformed TALs are skipped
// and described in `problems`.
TalRecord parseTalRecord(std::string_view bytes);

}  // namespace warplab::io
