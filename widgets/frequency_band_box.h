// The frequency band of the metric panel: all frequencies, a named preset (delta, theta,
// alpha, beta, gamma), a band the user saved (kept in QSettings, "frequencyBands/user"), or a
// custom range typed in. A band the open recording cannot hold (an edge at or above its
// Nyquist frequency, a channel too short for the filter) is refused by name under the box,
// and the panel's band is then "none". "Also filter the traces" applies the band to the view.
// "Compare…" chooses the set of bands a per-band job runs over.
#pragma once
#include <optional>
#include <vector>

#include <QString>
#include <QWidget>

#include "compute/spectral/frequency_band.h"

class QComboBox;
class QDoubleSpinBox;
class QCheckBox;
class QLabel;
class QToolButton;
class QMenu;

namespace warplab::widgets {

using compute::spectral::FrequencyBand;

// "alpha (8-13 Hz)", "8-13 Hz": a band as titles and exports name it.
QString bandText(const FrequencyBand& band);

class FrequencyBandBox : public QWidget {
    Q_OBJECT
public:
    explicit FrequencyBandBox(QWidget* parent = nullptr);

    static std::vector<FrequencyBand> userBands();  // from QSettings
    static void saveUserBands(const std::vector<FrequencyBand>& bands);

    // The band chosen and valid for the recording; nullopt for all frequencies or a refused band.
    std::optional<FrequencyBand> band() const;
    // The band chosen, valid or not (what a session saves).
    std::optional<FrequencyBand> chosen() const;
    void setBand(const std::optional<FrequencyBand>& band);  // a preset or user band by name, else custom
    bool filterDisplay() const;
    void setFilterDisplay(bool on);
    // The recording the band must fit: its lowest sampling rate and shortest channel.
    void setRecording(double rateHz, long long samples);
    QString refusal() const;  // why the chosen band is refused ("" when it is not)

    // The bands a per-band job runs over: the checked ones of Compare bands (the presets at
    // first), less those the recording cannot hold.
    std::vector<FrequencyBand> comparedBands() const;
    void setComparedBands(const std::vector<FrequencyBand>& bands);
    // Why `band` cannot be used on the recording set with setRecording ("" when it can).
    QString whyRefused(const FrequencyBand& band) const;

signals:
    void changed();

private:
    void refill();
    void refresh();
    void saveCustom();
    void removeUser();
    void rebuildCompareMenu();

    QComboBox* choice_ = nullptr;
    QDoubleSpinBox* low_ = nullptr;
    QDoubleSpinBox* high_ = nullptr;
    QToolButton* save_ = nullptr;
    QToolButton* remove_ = nullptr;
    QCheckBox* display_ = nullptr;
    QToolButton* compare_ = nullptr;
    QMenu* compareMenu_ = nullptr;
    QLabel* refusal_ = nullptr;
    double rate_ = 0;
    long long samples_ = 0;
    std::vector<FrequencyBand> compared_;
};

}  // namespace warplab::widgets
