// What the study-aware commands share: the options that open a study (--skip-missing,
// and for folder studies --summary / --annotation as seizure sources), opening it with its
// warnings on stderr and its missing or damaged files refused (exit 2) unless --skip-missing,
// and `info STUDY`.
#pragma once
#include <memory>
#include <string>

#include "io/study.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace warplab::cli {

struct StudyFlags {
    bool skipMissing = false;
    std::string summary;     // seizures from a CHB-MIT summary (folder / list studies)
    std::string annotation;  // seizures from EDF+ annotations containing this text
};

// --skip-missing; `withSeizureSources` adds --study-summary and --study-annotation (for
// commands whose --summary / --annotation already mean something else, pass the names).
void addStudyFlags(CLI::App& cmd, StudyFlags& o, bool withSeizureSources, const std::string& summaryName = "--summary",
                   const std::string& annotationName = "--annotation");

// True for a folder or a CHB-MIT summary file: what `info` treats as a study.
bool isStudyPath(const std::string& path);

// Opens the study at `path` (folder or summary), or the list `files`; prints its warnings on
// stderr ("warning: ..."). Missing or damaged recordings: with `refuseMissing` and without
// --skip-missing, throws EngineError(BadInput, role) listing them; else warns about each.
// Throws EngineError(BadInput, role) when no readable recording remains.
std::unique_ptr<io::Study> openStudyForCli(const std::string& path, const StudyFlags& flags, const std::string& role,
                                           bool refuseMissing = true);
std::unique_ptr<io::Study> openListForCli(const std::vector<std::string>& files, const StudyFlags& flags,
                                          const std::string& role);

// A CSV field: as is, or in double quotes (quotes doubled) when it holds a comma, quote or newline.
std::string csvText(const std::string& s);

// `warplab-cli info STUDY [--json]` (cmd_info.cpp dispatches here for a folder or summary).
void runStudyInfo(const std::string& path, bool json, const StudyFlags& flags);

}  // namespace warplab::cli
