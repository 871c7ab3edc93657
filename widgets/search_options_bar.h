// The Search panel's options: mode (subsequence / window), the window mode's band
// as a percentage of the query, whether the query may find itself, and, when a GPU is present,
// the subsequence search's precision (fp32 / half2). The controller reads choice() when it runs
// a search; nothing here computes.
#pragma once
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace warplab::widgets {

struct SearchChoice {
    bool window = false;       // false: subsequence DTW (METRICS.md sdtw)
    double bandPercent = 5.0;  // window mode: w = floor(bandPercent / 100 * m)
    bool includeSelf = false;  // keep the query's own place (excluded by default)
    bool half2 = false;        // subsequence mode on a GPU: half2 (rescored in fp32)
};

class SearchOptionsBar : public QWidget {
    Q_OBJECT
public:
    // gpuPresent: offer the precision choice (otherwise it stays fp32 and hidden).
    explicit SearchOptionsBar(bool gpuPresent, QWidget* parent = nullptr);
    SearchChoice choice() const;
    void setChoice(const SearchChoice& c);

signals:
    void choiceChanged();

private:
    void updateEnabled();
    QComboBox* mode_;
    QDoubleSpinBox* band_;
    QLabel* bandLabel_;
    QCheckBox* self_;
    QComboBox* precision_;
    QLabel* precisionLabel_;
};

}  // namespace warplab::widgets
