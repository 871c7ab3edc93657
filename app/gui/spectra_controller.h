// The frequency side of the window: keeps the metric panel's frequency band, the document
// (what is analysed), the traces (when the band is shown on them too), the spectrum and the
// spectrogram in step; computes the power spectrum the spectrum view asks for (a job: the
// regions of a kind against the rest read the whole channel) and feeds the spectrogram under
// the traces with the current channel, the visible window, the regions and the time cursor.
#pragma once
#include <QObject>
#include <QString>

namespace warplab::widgets {
class SignalView;
class MetricPanel;
class PsdView;
class SpectrogramView;
}  // namespace warplab::widgets

namespace warplab::app {

class Document;
class JobRunner;

class SpectraController : public QObject {
    Q_OBJECT
public:
    SpectraController(Document* doc, JobRunner* runner, widgets::SignalView* signal, widgets::MetricPanel* metric,
                      widgets::PsdView* psd, widgets::SpectrogramView* spectrogram, QObject* parent = nullptr);

    // The spectrum of what the spectrum view's choice names, on the current channel; returns
    // the job id, 0 when refused (errorOccurred says why).
    quint64 computeSpectrum();

Q_SIGNALS:
    void errorOccurred(const QString& title, const QString& message);
    void viewRequested(QWidget* view);

private:
    void applyBand();
    void refreshSpectrogram();

    Document* doc_;
    JobRunner* runner_;
    widgets::SignalView* signal_;
    widgets::MetricPanel* metric_;
    widgets::PsdView* psd_;
    widgets::SpectrogramView* spectrogram_;
};

}  // namespace warplab::app
