// Two aligned series one above the other with lines joining the samples the warping path
// pairs (a few hundred at most, evenly spread along the path), and the distance.
#pragma once
#include <memory>
#include <vector>

#include <QWidget>

#include "compute/core/results.h"

class QCustomPlot;
class QLabel;
namespace warplab::widgets { class ElidedLabel; }

namespace warplab::widgets {

class AlignmentView : public QWidget {
    Q_OBJECT
public:
    explicit AlignmentView(QWidget* parent = nullptr);
    void setAlignment(std::shared_ptr<const compute::Alignment> alignment, std::vector<float> x,
                      std::vector<float> y, const QString& xName, const QString& yName);
    void clear();
    // What the result was computed on (recording, channel set, metric, band, time range): the
    // first line of the view and the title of its exported plots. Cleared with the result.
    void setSource(const QString& text);
    QString source() const;
    int joiningLineCount() const { return lines_; }
    QCustomPlot* plot() const { return plot_; }
    void setValueUnit(const QString& unit);  // of the distance in the info line
    QString infoText() const;

private:
    QCustomPlot* plot_;
    QLabel* info_;
    ElidedLabel* source_;
    int lines_ = 0;
    QString valueUnit_;
};

}  // namespace warplab::widgets
