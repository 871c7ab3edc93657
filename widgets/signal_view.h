// The recording browser: stacked channels with labels, a time axis in seconds (and clock time
// on top), per-channel and global amplitude scale, a 1 s .. 5 min window with scroll bar and
// keys, annotations as labelled markers, marked regions drawn over the traces. Only the
// visible window is read from the recording and each trace is reduced to min/max per pixel.
//
// Mouse: drag on the traces marks a region over all channels (Ctrl: only the channel under
// the cursor), inside an existing region too; Alt+drag inside a region moves it; a click
// selects it; double-click edits it; Delete removes the selected region. The view never
// changes regions itself: it emits requests that the document turns into undoable commands.
#pragma once
#include <memory>
#include <vector>

#include <QWidget>

#include <optional>

#include "widgets/recording_access.h"
#include "compute/spectral/frequency_band.h"
#include "io/filters.h"
#include "io/regions.h"

class QCustomPlot;
class QCPAbstractItem;
class QCPAbstractPlottable;
class QCPItemRect;
class QScrollBar;
class QComboBox;
class QLabel;
class QMouseEvent;

namespace warplab::widgets {

class SignalView : public QWidget {
    Q_OBJECT
public:
    explicit SignalView(QWidget* parent = nullptr);
    ~SignalView() override;

    void setRecording(std::shared_ptr<const io::Recording> recording);
    void setRegions(const std::vector<io::Region>& regions);
    // Display filters (zero phase over the window plus a margin on each side).
    void setFilters(const io::FilterSettings& filters);
    // A frequency band the traces are filtered to as well (after the filters; zero phase);
    // nullopt: none. Named on the traces' bar with the filters.
    void setDisplayBand(const std::optional<compute::spectral::FrequencyBand>& band);
    // A vertical line at `t` s over all rows (the time cursor another view follows); < 0: none.
    void setCursorTime(double t);
    void setHighlight(int channel, double startS, double endS);  // e.g. a search match; channel -1 = all
    void clearHighlight();
    // A trace drawn over a channel's row from `startS` at `rateHz`, scaled as that row (e.g. the
    // pattern a detection matched, over the epoch it matched); `label` names it. A new recording
    // clears it.
    void setOverlayTrace(int channel, double startS, double rateHz, std::vector<float> samples, const QString& label);
    void clearOverlayTrace();
    bool hasOverlayTrace() const { return !overlayTrace_.samples.empty(); }

    // The visible window, clamped to the recording; length 1 s .. 5 min.
    void setWindow(double startS, double lengthS);
    double windowStart() const { return start_; }
    double windowLength() const { return length_; }
    void scrollBy(double fraction);  // of the window length

    // Global amplitude: physical units per row; per-channel gain multiplies it.
    void setUnitsPerRow(double units);
    double unitsPerRow() const { return unitsPerRow_; }
    void setChannelGain(int channel, double gain);
    double channelGain(int channel) const;

    // Channels shown at once (the rest through the vertical scroll bar or the mouse wheel):
    // a 100-series UCR file stays readable. 0 = all.
    void setChannelsPerPage(int count);
    void setFirstChannel(int channel);
    int firstChannel() const { return firstRow_; }
    int channelsShown() const;

    // Which channels are drawn, in this order (channel selection); empty = all.
    void setVisibleChannels(const std::vector<int>& channels);
    const std::vector<int>& visibleChannels() const { return rowChannels_; }

    void setMarkKind(io::RegionKind kind);
    io::RegionKind markKind() const;
    int currentChannel() const { return currentChannel_; }
    void setCurrentChannel(int channel);  // the channel analyses use when a region covers all
    int selectedRegion() const { return selected_; }
    void selectRegion(int index);  // and bring it into view

    // For tests and other views: widget coordinates of the plot for a time and channel.
    QCustomPlot* plot() const { return plot_; }
    QPoint plotPoint(double timeS, int channel) const;
    int drawnPointCount(int channel) const;  // points handed to the plot for a channel
    QString filterText() const;              // "Filters: 1–30 Hz, notch 60 Hz", "" when none
    // Annotation labels drawn in the window: full text, shown text and row (0 = bottom).
    struct AnnotationLabel { QString text, shown; int row; QRect rect; };
    std::vector<AnnotationLabel> annotationLabels() const { return annotationLabels_; }

signals:
    void regionDrawn(const warplab::io::Region& region);
    void regionMoveRequested(int index, double startS, double endS);
    void regionEditRequested(int index);
    void regionDeleteRequested(int index);
    void regionSelected(int index);
    void currentChannelChanged(int channel);
    void windowChanged(double startS, double lengthS);
    void cursorMoved(double t);  // the mouse over the traces, in s; -1 when it leaves them

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void onPress(QMouseEvent* e);
    void onMove(QMouseEvent* e);
    void onRelease(QMouseEvent* e);
    void onDoubleClick(QMouseEvent* e);
    void rebuildChannels();
    void reloadTraces();
    void rebuildOverlays();
    void syncScrollBar();
    int channelAtY(double y) const;              // channel index at plot y, -1 outside
    double rowCenter(int channel) const;
    int regionAt(double t, int channel) const;
    void autoScale();

    std::shared_ptr<const io::Recording> rec_;
    std::vector<io::Region> regions_;
    std::vector<double> gains_;
    io::FilterSettings filters_;
    std::optional<compute::spectral::FrequencyBand> displayBand_;
    QCPAbstractItem* cursorLine_ = nullptr;
    double start_ = 0, length_ = 10, unitsPerRow_ = 200;
    int currentChannel_ = 0, selected_ = -1;
    int firstRow_ = 0, perPage_ = 32;
    struct Highlight { int channel = -1; double start = 0, end = 0; bool on = false; } highlight_;
    struct OverlayTrace { int channel = -1; double start = 0, rate = 0; std::vector<float> samples; QString label; } overlayTrace_;
    QCPAbstractPlottable* overlayCurve_ = nullptr;

    // Mouse drag state: new region (anchor) or moving region `dragRegion_`.
    enum class Drag { None, Mark, Move } drag_ = Drag::None;
    double dragAnchorS_ = 0, dragNowS_ = 0;
    int dragChannel_ = -1, dragRegion_ = -1;
    bool dragMoved_ = false;
    QPoint pressPos_;

    QCustomPlot* plot_ = nullptr;
    QScrollBar* scroll_ = nullptr;
    QScrollBar* channelScroll_ = nullptr;
    void applyRowRange();
    void rebuildRowLabels();
    int rowOf(int channel) const;  // row of a visible channel from the top, -1 when hidden
    std::vector<int> rowChannels_;       // the channel drawn in each row
    QComboBox* windowBox_ = nullptr;
    QComboBox* kindBox_ = nullptr;
    QLabel* scaleLabel_ = nullptr;
    QLabel* filterLabel_ = nullptr;  // the active filters, on the traces' bar while any is on
    void updateExportTitle();
    std::vector<AnnotationLabel> annotationLabels_;
    std::vector<QCPAbstractItem*> overlayItems_;
    QCPItemRect* rubber_ = nullptr;
};

}  // namespace warplab::widgets
