// One Python snippet and one warplab-cli command per analysis, from the recipe of its result
// (analysis_recipe.h): each reads the same samples with the same parameters and prints what
// the view shows (the alignment's cost; the search's and the patterns' ranked rows as the CLI's
// CSV; the distance matrix's rows).
#pragma once
#include <QString>

#include "app/gui/analysis_recipe.h"

namespace warplab::app {

// A script, or why there is none.
struct Script {
    QString text;
    QString why;  // empty when text is usable
};

Script alignmentPython(const AnalysisRecipe& r);
Script alignmentCommand(const AnalysisRecipe& r, const QString& cli);
Script searchPython(const AnalysisRecipe& r);
Script searchCommand(const AnalysisRecipe& r, const QString& cli);
Script matrixPython(const AnalysisRecipe& r);
Script matrixCommand(const AnalysisRecipe& r, const QString& cli);
Script patternsPython(const AnalysisRecipe& r);
Script patternsCommand(const AnalysisRecipe& r, const QString& cli);

// The two lines every Python snippet starts with: the import and the opened recording.
QString pythonOpening(const AnalysisRecipe& r);
// `rec.read("FP1-F7", 768, 1152)`.
QString pythonRead(const SampleCut& c);
// `expr` filtered to the recipe's frequency band, `warplab.filter(expr, 256, "alpha")`, or
// `expr` itself when it has none.
QString pythonBand(const AnalysisRecipe& r, const QString& expr, double rateHz);

}  // namespace warplab::app
