// The metric panel: metric and its parameters (band, gamma, nu, lambda, degree, cost,
// z-normalisation, square root), backend (auto, CPU, each GPU backend; unavailable ones greyed
// with the reason) and kernel (from the registry), and the devices a job would run on (every
// GPU for a GPU backend, else the CPU cores). Produces compute::Params and RunOptions.
#pragma once
#include <QWidget>

#include "compute/core/job.h"
#include "compute/core/params.h"

class QComboBox;
class QSpinBox;
class QDoubleSpinBox;
class QCheckBox;
class QFormLayout;
class QLabel;

namespace warplab::widgets {

class FrequencyBandBox;

class MetricPanel : public QWidget {
    Q_OBJECT
public:
    explicit MetricPanel(QWidget* parent = nullptr);

    compute::Params params() const;
    compute::RunOptions runOptions() const;  // backend and kernel; no progress or cancel yet
    void setParams(const compute::Params& p);
    void setMetric(compute::Metric m);
    void setBackend(compute::Backend b);
    void setKernel(const QString& name);  // "" = best for the backend
    static QString backendName(compute::Backend b);  // "auto", "cpu", "cuda", "hip"
    // The frequency band analysed (widgets/frequency_band_box.h); its changes emit changed().
    FrequencyBandBox* frequencyBands() const { return freqBand_; }

    // Why a backend cannot be chosen here ("" when it can): no kernel built for it, or none
    // of its kernels can run on this machine.
    static QString backendUnavailableReason(compute::Backend b);

signals:
    void changed();

private:
    void refreshKernels();
    void refreshEnabled();
    void refreshDevices();

    QComboBox* metric_;
    QComboBox* cost_;
    QSpinBox* band_;
    QDoubleSpinBox* gamma_;
    QDoubleSpinBox* nu_;
    QDoubleSpinBox* lambda_;
    QDoubleSpinBox* degree_;
    QCheckBox* znorm_;
    QCheckBox* sqrt_;
    QComboBox* backend_;
    QComboBox* kernel_;
    QLabel* devices_;  // objectName "devices"
    FrequencyBandBox* freqBand_;
    QFormLayout* form_;
};

}  // namespace warplab::widgets
