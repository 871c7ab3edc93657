#include "app/gui/session_bridge.h"

#include "app/gui/document.h"
#include "widgets/metric_panel.h"
#include "widgets/signal_view.h"

namespace warplab::app {

io::Session captureSession(const Document& doc, const widgets::MetricPanel& metric, const widgets::SignalView& view,
                           const io::Session& previous) {
    io::Session s = previous;
    s.recordingPath = doc.path().toStdString();
    s.regions = doc.regions();
    s.filters = doc.filters();
    s.params = metric.params();
    const compute::RunOptions o = metric.runOptions();
    s.backend = widgets::MetricPanel::backendName(o.backend).toStdString();
    s.kernel = o.kernel;
    s.channel = doc.channelName(view.currentChannel()).toStdString();
    // The channel selection as a montage of channels as recorded; empty when all are shown.
    // Under a montage, the rows shown of it: the montage of those derivations.
    s.montage = doc.montage();
    const auto rec = doc.recording();
    if (rec && view.visibleChannels().size() != widgets::signalList(*rec).size()) {
        const std::vector<std::string> montage = s.montage;
        s.montage.clear();
        for (int c : view.visibleChannels())
            s.montage.push_back(c >= 0 && std::size_t(c) < montage.size() ? montage[std::size_t(c)] : doc.channelName(c).toStdString());
    }
    return s;
}

bool restoreSession(const io::Session& s, Document& doc, widgets::MetricPanel& metric, widgets::SignalView& view) {
    if (!doc.open(QString::fromStdString(s.recordingPath))) return false;
    // Channels as recorded only: a channel selection; with a bipolar term: the document's montage.
    std::vector<int> channels;
    for (const std::string& name : s.montage)
        if (const int c = doc.recording()->findSignal(name); c >= 0) channels.push_back(c);
    if (channels.size() == s.montage.size()) view.setVisibleChannels(channels);
    else if (!doc.setMontage(s.montage)) return false;
    doc.setRegions(s.regions);
    doc.setFilters(s.filters);
    if (!s.channel.empty()) view.setCurrentChannel(doc.recording()->findSignal(s.channel));
    metric.setParams(s.params);
    const QString b = QString::fromStdString(s.backend);
    metric.setBackend(b == "cpu" ? compute::Backend::Cpu : b == "cuda" ? compute::Backend::Cuda
                      : b == "hip" ? compute::Backend::Hip : compute::Backend::Auto);
    metric.setKernel(QString::fromStdString(s.kernel));
    return true;
}

}  // namespace warplab::app
