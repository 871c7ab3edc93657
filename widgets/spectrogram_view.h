// The spectrogram of one channel under the traces: time on the traces' axis (the plot's left
// and right edges follow the traces' so that a second lies under the same second), frequency
// up, power on a log colour scale (the colour bar above says its unit, µV²/Hz). The marked
// regions are outlined over it, the time cursor (the mouse over the traces or over the
// spectrogram) is a line in both, and the chosen frequency band's edges are dashed lines.
//
// Only what is visible is computed, on the FFTW frames of compute/spectral/spectrogram.h: its
// cache keeps frames on one grid from the channel's first sample, so scrolling back and forth
// over a long recording computes each frame once and a redraw of a 60 s window mostly copies.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <QString>
#include <QWidget>

#include "compute/spectral/spectrogram.h"
#include "io/regions.h"

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPAbstractItem;
class QComboBox;
class QLabel;

namespace warplab::widgets {

class SpectrogramView : public QWidget {
    Q_OBJECT
public:
    explicit SpectrogramView(QWidget* parent = nullptr);
    ~SpectrogramView() override;

    using Reader = compute::spectral::SpectrogramCache::Reader;
    // The channel shown: its index, name, rate, sample count, unit ("µV") and samples. `key`
    // names what the samples are (recording, montage, channel, filters): frames computed
    // under another key are never shown for this one.
    void setChannel(int channel, const QString& name, double rateHz, long long samples, const QString& unit,
                    const std::string& key, Reader read);
    void clearChannel();
    void setWindow(double startS, double lengthS);
    void setRegions(const std::vector<io::Region>& regions);
    void setBandEdges(double lowHz, double highHz);  // 0, 0: none
    void setCursorTime(double t);                    // < 0: none
    // Lines the time axis up with another plot's (the traces'): same left and right pixels.
    void alignWith(QCustomPlot* traces);

    QCustomPlot* plot() const { return plot_; }
    QCPColorScale* colorScale() const { return scale_; }
    double maxFrequency() const;
    // For tests and the benchmark.
    const compute::spectral::SpectrogramCache& cache() const { return *cache_; }
    const compute::spectral::Spectrogram& shown() const { return shown_; }
    double lastRedrawMs() const { return lastRedrawMs_; }
    QString message() const;  // "" or why nothing is drawn
    // The frames on screen as CSV (one row per frame: its centre in seconds, then the power of
    // each frequency bin), written whole or not at all; "" on success, else why not.
    QString exportCsv(const QString& path) const;
    // The segment and hop (samples) used for a window of `lengthS` at `rateHz`.
    static compute::spectral::SpectrogramOptions optionsFor(double rateHz, double lengthS);

signals:
    void cursorMoved(double t);  // the mouse over the spectrogram; -1 when it leaves

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;  // what changed while hidden is computed now
    void resizeEvent(QResizeEvent* event) override;

private:
    void redraw();
    void drawOverlays();
    void showMessage(const QString& text);
    void updateReadout(double t, double f);
    void realign();

    std::unique_ptr<compute::spectral::SpectrogramCache> cache_;
    compute::spectral::Spectrogram shown_;
    std::string key_;
    Reader read_;
    int channel_ = -1;
    QString channelName_, unit_;
    double rate_ = 0;
    long long samples_ = 0;
    double start_ = 0, length_ = 10;
    double bandLow_ = 0, bandHigh_ = 0, cursor_ = -1;
    std::vector<io::Region> regions_;
    double lastRedrawMs_ = 0;
    bool stale_ = false;  // hidden: nothing is computed until shown

    QCustomPlot* plot_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QCPColorMap* map_ = nullptr;
    std::vector<QCPAbstractItem*> overlays_;
    QComboBox* maxFreq_ = nullptr;
    QLabel* readout_ = nullptr;
    QLabel* message_ = nullptr;
    QCustomPlot* traces_ = nullptr;
};

}  // namespace warplab::widgets
