#include "widgets/uniform_ticker.h"

#include <algorithm>
#include <cmath>

namespace warplab::widgets {
namespace {
constexpr int kMaxDigits = 6;

// The fewest digits after the point (fixed, or of the mantissa) that tell every tick exactly
// (up to a millionth of the step between ticks).
int digitsFor(const QVector<double>& ticks, char format, const QLocale& locale) {
    double step = 0;
    for (int i = 1; i < ticks.size(); ++i) step = std::max(step, std::abs(ticks[i] - ticks[i - 1]));
    for (int d = 0; d < kMaxDigits; ++d) {
        bool exact = true;
        for (double t : ticks) {
            bool ok = false;
            const double back = locale.toDouble(locale.toString(t, format, d), &ok);
            const double tolerance = step > 0 ? step * 1e-6 : std::abs(t) * 1e-9;
            if (!ok || std::abs(back - t) > tolerance) exact = false;
        }
        if (exact) return d;
    }
    return kMaxDigits;
}
}  // namespace

QVector<QString> uniformTickLabels(const QVector<double>& ticks, const QLocale& locale) {
    QLocale l = locale;
    l.setNumberOptions(QLocale::OmitGroupSeparator);
    double largest = 0, step = 0;
    for (double t : ticks) largest = std::max(largest, std::abs(t));
    for (int i = 1; i < ticks.size(); ++i) step = std::max(step, std::abs(ticks[i] - ticks[i - 1]));
    const char format = largest == 0 || (largest >= 1e-3 && largest < 1e5) ? 'f' : 'e';
    const int digits = digitsFor(ticks, format, l);
    QVector<QString> out;
    out.reserve(ticks.size());
    // Zero reads "0" in either format (not "0.0e+00", nor "-0.0" for a tick computed as -1e-17).
    for (double t : ticks) out << (std::abs(t) <= step * 1e-9 ? QStringLiteral("0") : l.toString(t, format, digits));
    return out;
}

void UniformTicker::generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision,
                             QVector<double>& ticks, QVector<double>* subTicks, QVector<QString>* tickLabels) {
    QCPAxisTicker::generate(range, locale, formatChar, precision, ticks, subTicks, nullptr);
    if (tickLabels) *tickLabels = uniformTickLabels(ticks, locale);
}

}  // namespace warplab::widgets
