#include "app/gui/copy_as_script.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDockWidget>
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>

#include "app/gui/action_table.h"
#include "app/gui/analysis_controller.h"
#include "widgets/alignment_view.h"
#include "widgets/cost_matrix_view.h"
#include "widgets/distance_matrix_view.h"
#include "widgets/kernel_comparison_view.h"
#include "widgets/patterns_view.h"
#include "widgets/search_results_view.h"

namespace warplab::app {

QString analysisName(AnalysisRecipe::Kind kind) {
    switch (kind) {
        case AnalysisRecipe::Kind::Alignment: return QObject::tr("alignment");
        case AnalysisRecipe::Kind::Matrix: return QObject::tr("distance matrix");
        case AnalysisRecipe::Kind::Search: return QObject::tr("search");
        case AnalysisRecipe::Kind::Patterns: return QObject::tr("seizure patterns");
    }
    return {};
}

Script asPython(const AnalysisRecipe& r) {
    if (!r.why.isEmpty()) return {{}, r.why};
    switch (r.kind) {
        case AnalysisRecipe::Kind::Alignment: return alignmentPython(r);
        case AnalysisRecipe::Kind::Matrix: return matrixPython(r);
        case AnalysisRecipe::Kind::Search: return searchPython(r);
        case AnalysisRecipe::Kind::Patterns: return patternsPython(r);
    }
    return {};
}

Script asCommand(const AnalysisRecipe& r, const QString& cli) {
    if (!r.why.isEmpty()) return {{}, r.why};
    switch (r.kind) {
        case AnalysisRecipe::Kind::Alignment: return alignmentCommand(r, cli);
        case AnalysisRecipe::Kind::Matrix: return matrixCommand(r, cli);
        case AnalysisRecipe::Kind::Search: return searchCommand(r, cli);
        case AnalysisRecipe::Kind::Patterns: return patternsCommand(r, cli);
    }
    return {};
}

namespace {

// The result view brought forward last: by a job that fills it, or by its dock's tab.
class ShownView : public QObject {
public:
    ShownView(QMainWindow* window, AnalysisController* analysis) : QObject(window), window_(window), analysis_(analysis) {
        const Views& v = analysis->views();
        views_ = {v.cost, v.alignment, v.distances, v.search, v.patterns, v.kernels};
        connect(analysis, &AnalysisController::viewRequested, this, [this](QWidget* w) { setShown(w); });
        for (QDockWidget* d : window->findChildren<QDockWidget*>())
            connect(d, &QDockWidget::visibilityChanged, this, [this, d](bool visible) {
                if (visible) setShown(d->widget());
            });
    }
    // The recipe of the result shown, or why there is none.
    const AnalysisRecipe* recipe(QString& why) const {
        const AnalysisRecipe* r = shown_ ? analysis_->shownRecipe(shown_) : nullptr;
        if (!r) why = QObject::tr("bring an alignment, search, distance matrix or seizure patterns result forward first");
        return r;
    }
    // The menu names the analysis of the view shown (updated as the view changes).
    void retitle() {
        QString what;
        if (shown_ == views_[0] || shown_ == views_[1]) what = analysisName(AnalysisRecipe::Kind::Alignment);
        else if (shown_ == views_[2]) what = analysisName(AnalysisRecipe::Kind::Matrix);
        else if (shown_ == views_[3]) what = analysisName(AnalysisRecipe::Kind::Search);
        else if (shown_ == views_[4]) what = analysisName(AnalysisRecipe::Kind::Patterns);
        if (auto* a = window_->findChild<QAction*>("edit.copyPython"))
            a->setText(what.isEmpty() ? QObject::tr("Copy as &Python") : QObject::tr("Copy %1 as &Python").arg(what));
        if (auto* a = window_->findChild<QAction*>("edit.copyCommand"))
            a->setText(what.isEmpty() ? QObject::tr("Copy as co&mmand") : QObject::tr("Copy %1 as co&mmand").arg(what));
    }

private:
    void setShown(QWidget* w) {
        if (!views_.contains(w)) return;
        shown_ = w;
        retitle();
    }
    QMainWindow* window_;
    AnalysisController* analysis_;
    QList<QWidget*> views_;
    QPointer<QWidget> shown_;
};

}  // namespace

void addCopyAsScriptActions(ActionTable& actions, const QString& menu, QMainWindow* window, AnalysisController* analysis) {
    auto* shown = new ShownView(window, analysis);
    auto copy = [=](bool python) {
        QString why;
        Script s;
        if (const AnalysisRecipe* r = shown->recipe(why)) s = python ? asPython(*r) : asCommand(*r);
        if (s.text.isEmpty()) {
            QMessageBox::information(window, python ? QObject::tr("Copy as Python") : QObject::tr("Copy as command"),
                                     QObject::tr("Nothing to copy: %1.").arg(why.isEmpty() ? s.why : why));
            return;
        }
        QApplication::clipboard()->setText(s.text);
    };
    actions.add({"edit.copyPython", menu, QObject::tr("Copy as &Python"), {}, [=] { copy(true); }, false, {}, {}, {}});
    actions.add({"edit.copyCommand", menu, QObject::tr("Copy as co&mmand"), {}, [=] { copy(false); }, false, {}, {}, {}});
}

}  // namespace warplab::app
