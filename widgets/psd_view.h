// Power spectral density (Welch) of what the user chose: the visible window of the current
// channel, a region, or the regions of one kind against the rest of the channel (seizure vs
// non-seizure), one curve each. Power on a log axis in the signal's unit squared per hertz
// (µV²/Hz), frequency in Hz; the chosen frequency band's edges and every preset band's name
// drawn over the curves. Exports the plot (PNG, SVG, PDF: right-click) and the curves as CSV
// with the source, the unit and the Welch parameters in '#' lines above the header.
//
// The view computes nothing: it asks (computeRequested) and is given curves (setSpectra).
#pragma once
#include <vector>

#include <QColor>
#include <QString>
#include <QWidget>

class QCustomPlot;
class QComboBox;
class QCheckBox;
class QLabel;
class QPushButton;

namespace warplab::widgets {

class ElidedLabel;

struct PsdCurve {
    QString label;               // "seizure (3 regions, 112 s)", "rest", "visible window"
    std::vector<double> freqs;   // Hz, ascending
    std::vector<double> power;   // unit²/Hz, one per frequency
    int segments = 0;            // Welch segments averaged
};

// A frequency band drawn over the spectrum: the chosen one shaded, the presets named.
struct PsdBandMark {
    QString name;
    double lowHz = 0, highHz = 0;
    bool chosen = false;
};

class PsdView : public QWidget {
    Q_OBJECT
public:
    enum class Source { VisibleWindow, SelectedRegion, KindVsRest };

    explicit PsdView(QWidget* parent = nullptr);

    // `unit` is the signal's unit as shown ("µV"); power is in unit²/Hz. `parameters` says how
    // the spectra were estimated ("Welch, 2 s Hann segments, 50 % overlap, mean"), `source`
    // what of which recording: both go in the title, the exports and the CSV's header lines.
    void setSpectra(std::vector<PsdCurve> curves, const QString& unit, const QString& source, const QString& parameters);
    void setBands(std::vector<PsdBandMark> bands);
    void clear();

    Source source() const;
    int regionKind() const;  // io::RegionKind as int, for KindVsRest
    bool logFrequency() const;
    void setLogFrequency(bool on);

    const std::vector<PsdCurve>& curves() const { return curves_; }
    QString unit() const { return unit_; }
    QString title() const;  // what the exports carry
    QCustomPlot* plot() const { return plot_; }

    // Both return "" on success, else why the file could not be written.
    QString exportCsv(const QString& path) const;

signals:
    void computeRequested();

private:
    void redraw();
    void askExportCsv();

    QComboBox* sourceBox_ = nullptr;
    QComboBox* kindBox_ = nullptr;
    QCheckBox* logFreq_ = nullptr;
    QPushButton* compute_ = nullptr;
    QPushButton* exportCsv_ = nullptr;
    ElidedLabel* sourceLabel_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    std::vector<PsdCurve> curves_;
    std::vector<PsdBandMark> bands_;
    QString unit_, source_, parameters_;
};

}  // namespace warplab::widgets
