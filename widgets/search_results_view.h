// Matches of a subsequence search, ranked by cost; activating a row asks for the match to be
// highlighted in the signal view.
#pragma once
#include <vector>

#include <QStringList>
#include <QWidget>

#include "compute/core/results.h"

class QTableWidget;
namespace warplab::widgets {
class SearchOptionsBar;
}
class QLabel;
namespace warplab::widgets { class ElidedLabel; }

namespace warplab::widgets {

class SearchResultsView : public QWidget {
    Q_OBJECT
public:
    explicit SearchResultsView(QWidget* parent = nullptr);
    // `rateHz` converts sample indices of the reference into seconds from `offsetS`.
    void setMatches(const std::vector<compute::Match>& matches, int channel, double rateHz, double offsetS,
                    const QString& description);
    int matchCount() const;
    // Of the cost column: the header shows `symbol` ("µV²") when given, its tooltip the whole unit.
    void setValueUnit(const QString& unit, const QString& symbol = {});
    void clear();
    // What the result was computed on (recording, channel set, metric, band, time range): the
    // first line of the view and the title of its exported plots. Cleared with the result.
    void setSource(const QString& text);
    QString source() const;
    QStringList headers() const;
    QTableWidget* table() const;
    const std::vector<compute::Match>& matches() const { return matches_; }
    // The search options above the results (mode, band, include-self, precision).
    SearchOptionsBar* options() const { return options_; }

signals:
    void matchActivated(int channel, double startS, double endS);

private:
    void fitColumns();
    QTableWidget* table_;
    QLabel* info_;
    ElidedLabel* source_ = nullptr;
    SearchOptionsBar* options_;
    int channel_ = -1;
    std::vector<compute::Match> matches_;
};

}  // namespace warplab::widgets
