// Colour-bar tick labels in one number format per bar: all fixed with the same decimals
// ("0.5", "1.0", "1.5") or, for very large or small values, all scientific with the same
// mantissa digits ("1.0e+06", "1.5e+06"), never "1e+03" beside "1000" and "0.5". Zero is "0".
#pragma once
#include <QLocale>
#include <QString>
#include <QVector>
#include <qcustomplot.h>

namespace warplab::widgets {

// The labels of `ticks` in one format (fixed where the largest |tick| lies in [1e-3, 1e5)).
QVector<QString> uniformTickLabels(const QVector<double>& ticks, const QLocale& locale = QLocale::c());

// QCustomPlot's ticker positions with uniformTickLabels as labels.
class UniformTicker : public QCPAxisTicker {
public:
    void generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision, QVector<double>& ticks,
                  QVector<double>* subTicks, QVector<QString>* tickLabels) override;
};

}  // namespace warplab::widgets
