#include "widgets/metric_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStandardItemModel>

#include "compute/engine/device_list.h"
#include "compute/registry/registry.h"
#include "widgets/elided_label.h"
#include "widgets/frequency_band_box.h"

namespace warplab::widgets {
namespace {

QDoubleSpinBox* doubleBox(double min, double max, double value, int decimals, double step) {
    auto* b = new QDoubleSpinBox;
    b->setRange(min, max);
    b->setDecimals(decimals);
    b->setSingleStep(step);
    b->setValue(value);
    return b;
}

// Greys out a combo-box entry and says why in its tooltip.
void setItemAvailable(QComboBox* box, int index, const QString& reason) {
    auto* model = qobject_cast<QStandardItemModel*>(box->model());
    if (!model) return;
    QStandardItem* item = model->item(index);
    item->setEnabled(reason.isEmpty());
    item->setToolTip(reason.isEmpty() ? QString() : reason);
    if (!reason.isEmpty()) item->setText(item->text() + QObject::tr(" — unavailable"));
}

}  // namespace

MetricPanel::MetricPanel(QWidget* parent) : QWidget(parent) {
    using compute::Metric;
    metric_ = new QComboBox;
    for (Metric m : compute::allMetrics())
        metric_->addItem(QString::fromLatin1(compute::metricName(m).data(), int(compute::metricName(m).size())), int(m));
    cost_ = new QComboBox;
    cost_->addItem(tr("squared (a−b)²"), int(compute::Cost::Squared));
    cost_->addItem(tr("absolute |a−b|"), int(compute::Cost::Absolute));
    band_ = new QSpinBox;
    band_->setRange(0, 1000000);
    band_->setValue(16);
    band_->setSuffix(tr(" samples"));
    gamma_ = doubleBox(1e-6, 1e6, 1.0, 4, 0.1);
    nu_ = doubleBox(0, 1e6, 0.001, 5, 0.001);
    lambda_ = doubleBox(0, 1e6, 1.0, 4, 0.1);
    degree_ = doubleBox(1, 100, 2.0, 2, 1);
    znorm_ = new QCheckBox(tr("z-normalise each series"));
    sqrt_ = new QCheckBox(tr("square root of the cost"));
    backend_ = new QComboBox;
    const std::pair<const char*, compute::Backend> backends[] = {
        {"auto", compute::Backend::Auto}, {"CPU", compute::Backend::Cpu},
        {"CUDA", compute::Backend::Cuda}, {"HIP", compute::Backend::Hip}};
    for (auto [name, b] : backends) {
        backend_->addItem(QString::fromLatin1(name), int(b));
        if (b != compute::Backend::Auto) setItemAvailable(backend_, backend_->count() - 1, backendUnavailableReason(b));
    }
    kernel_ = new QComboBox;
    // One short line (refreshDevices), the reason in its tooltip: wrapped lines were cut off at
    // top and bottom once the study strip made the dock short.
    devices_ = new ElidedLabel;
    devices_->setObjectName("devices");

    form_ = new QFormLayout(this);
    freqBand_ = new FrequencyBandBox;
    form_->addRow(tr("Frequency band"), freqBand_);
    form_->addRow(tr("Metric"), metric_);
    form_->addRow(tr("Local cost"), cost_);
    form_->addRow(tr("Band w"), band_);
    form_->addRow(tr("Gamma"), gamma_);
    form_->addRow(tr("Nu (stiffness)"), nu_);
    form_->addRow(tr("Lambda (edit)"), lambda_);
    form_->addRow(tr("Degree p"), degree_);
    form_->addRow(QString(), znorm_);
    form_->addRow(QString(), sqrt_);
    form_->addRow(tr("Backend"), backend_);
    form_->addRow(tr("Kernel"), kernel_);
    form_->addRow(tr("Devices"), devices_);

    // Wide parameter ranges would otherwise make the panel claim a third of the window.
    for (QWidget* field : std::initializer_list<QWidget*>{metric_, cost_, band_, gamma_, nu_, lambda_, degree_, backend_, kernel_})
        field->setMinimumWidth(90);

    setMetric(Metric::Dtw);
    connect(metric_, &QComboBox::currentIndexChanged, this, [this] { refreshEnabled(); refreshKernels(); emit changed(); });
    connect(backend_, &QComboBox::currentIndexChanged, this, [this] { refreshKernels(); refreshDevices(); emit changed(); });
    connect(kernel_, &QComboBox::currentIndexChanged, this, [this] { refreshDevices(); });
    for (auto* box : {gamma_, nu_, lambda_, degree_})
        connect(box, &QDoubleSpinBox::valueChanged, this, &MetricPanel::changed);
    connect(band_, &QSpinBox::valueChanged, this, &MetricPanel::changed);
    connect(cost_, &QComboBox::currentIndexChanged, this, &MetricPanel::changed);
    connect(kernel_, &QComboBox::currentIndexChanged, this, &MetricPanel::changed);
    connect(znorm_, &QCheckBox::toggled, this, &MetricPanel::changed);
    connect(sqrt_, &QCheckBox::toggled, this, &MetricPanel::changed);
    connect(freqBand_, &FrequencyBandBox::changed, this, &MetricPanel::changed);
    refreshEnabled();
    refreshKernels();
    refreshDevices();
}

// Where a job would run: every visible GPU (the engine spreads tiles over all of them) for a
// GPU backend or kernel, or auto with a GPU present; else the CPU cores.
void MetricPanel::refreshDevices() {
    const auto b = compute::Backend(backend_->currentData().toInt());
    const QString kernel = kernel_->currentData().toString();
    const bool cpuKernel = kernel.startsWith("cpu.");
    const std::vector<std::string> gpus = compute::gpuDeviceLabels();
    QStringList names;
    for (const auto& g : gpus) names << QString::fromStdString(g);
    // Short enough for the panel's width at 1280 x 800: why there is no GPU goes to the tooltip.
    auto* label = static_cast<ElidedLabel*>(devices_);
    const QString why = tr("No GPU: %1.").arg(QString::fromStdString(compute::gpuUnavailableReason()));
    if (b == compute::Backend::Cpu || cpuKernel) {
        label->setFullText(tr("all CPU cores"));
        label->setBaseToolTip({});
    } else if (!gpus.empty()) {
        label->setFullText(names.join(", "));  // cut ones carry the whole list in the tooltip
        label->setBaseToolTip({});
    } else if (b == compute::Backend::Auto) {
        label->setFullText(tr("all CPU cores (no GPU)"));
        label->setBaseToolTip(why);
    } else {
        label->setFullText(tr("none (no GPU)"));
        label->setBaseToolTip(why);
    }
}

QString MetricPanel::backendUnavailableReason(compute::Backend b) {
    QString reason = tr("no %1 kernel is built into this program").arg(b == compute::Backend::Cuda ? "CUDA" : b == compute::Backend::Hip ? "HIP" : "CPU");
    for (compute::Kernel* k : compute::KernelRegistry::instance().all()) {
        if (k->backend() != b) continue;
        const std::string why = k->unavailableReason();
        if (why.empty()) return {};
        reason = QString::fromStdString(why);
    }
    return reason;
}

void MetricPanel::refreshEnabled() {
    using compute::Metric;
    const auto m = Metric(metric_->currentData().toInt());
    band_->setEnabled(m == Metric::Cdtw);
    gamma_->setEnabled(m == Metric::SoftDtw);
    nu_->setEnabled(m == Metric::Twed);
    lambda_->setEnabled(m == Metric::Twed);
    degree_->setEnabled(m == Metric::Twed);
    cost_->setEnabled(m != Metric::Twed);
}

void MetricPanel::refreshKernels() {
    const QString previous = kernel_->currentData().toString();
    const QSignalBlocker block(kernel_);
    kernel_->clear();
    kernel_->addItem(tr("best for backend"), QString());
    const auto m = compute::Metric(metric_->currentData().toInt());
    const auto b = compute::Backend(backend_->currentData().toInt());
    for (compute::Kernel* k : compute::KernelRegistry::instance().forMetric(m)) {
        if (b != compute::Backend::Auto && k->backend() != b) continue;
        const QString name = QString::fromStdString(k->name());
        kernel_->addItem(name, name);
        kernel_->setItemData(kernel_->count() - 1, QString::fromStdString(k->description()), Qt::ToolTipRole);
        setItemAvailable(kernel_, kernel_->count() - 1, QString::fromStdString(k->unavailableReason()));
    }
    const int idx = kernel_->findData(previous);
    kernel_->setCurrentIndex(idx >= 0 ? idx : 0);
}

compute::Params MetricPanel::params() const {
    compute::Params p;
    p.metric = compute::Metric(metric_->currentData().toInt());
    p.cost = compute::Cost(cost_->currentData().toInt());
    p.band = band_->value();
    p.gamma = gamma_->value();
    p.nu = nu_->value();
    p.lambda = lambda_->value();
    p.degree = degree_->value();
    p.znorm = znorm_->isChecked();
    p.sqrt = sqrt_->isChecked();
    return p;
}

void MetricPanel::setParams(const compute::Params& p) {
    setMetric(p.metric);
    cost_->setCurrentIndex(cost_->findData(int(p.cost)));
    band_->setValue(p.band);
    gamma_->setValue(p.gamma);
    nu_->setValue(p.nu);
    lambda_->setValue(p.lambda);
    degree_->setValue(p.degree);
    znorm_->setChecked(p.znorm);
    sqrt_->setChecked(p.sqrt);
}

void MetricPanel::setMetric(compute::Metric m) { metric_->setCurrentIndex(metric_->findData(int(m))); }

void MetricPanel::setBackend(compute::Backend b) { backend_->setCurrentIndex(backend_->findData(int(b))); }

void MetricPanel::setKernel(const QString& name) {
    const int idx = kernel_->findData(name);
    kernel_->setCurrentIndex(idx >= 0 ? idx : 0);
}

QString MetricPanel::backendName(compute::Backend b) {
    switch (b) {
    case compute::Backend::Cpu: return "cpu";
    case compute::Backend::Cuda: return "cuda";
    case compute::Backend::Hip: return "hip";
    default: return "auto";
    }
}

compute::RunOptions MetricPanel::runOptions() const {
    compute::RunOptions o;
    o.backend = compute::Backend(backend_->currentData().toInt());
    o.kernel = kernel_->currentData().toString().toStdString();
    return o;
}

}  // namespace warplab::widgets
