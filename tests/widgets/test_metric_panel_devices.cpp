// The Metric panel's "Devices" row: every GPU the engine would spread a job over,
// or the CPU cores — following the backend and kernel chosen. Saves a picture of the panel
// (metric_panel_devices.png in the build folder) for a look.
#include <QtTest/QtTest>

#include <QLabel>

#include "compute/engine/device_list.h"
#include "widgets/elided_label.h"
#include "widgets/metric_panel.h"

using namespace warplab;

class TestMetricPanelDevices : public QObject {
    Q_OBJECT
private slots:
    void followsBackend() {
        widgets::MetricPanel panel;
        auto* label = panel.findChild<QLabel*>("devices");
        QVERIFY(label);
        auto* devices = qobject_cast<widgets::ElidedLabel*>(label);
        QVERIFY(devices);
        const auto gpus = compute::gpuDeviceLabels();
        panel.setBackend(compute::Backend::Cpu);
        QCOMPARE(label->text(), QString("all CPU cores"));
        panel.setBackend(compute::Backend::Auto);
        if (gpus.empty()) {
            // Short, so that it fits the panel at 1280 x 800; the reason is in the tooltip.
            const QString why = QString::fromStdString(compute::gpuUnavailableReason());
            QCOMPARE(devices->fullText(), QString("all CPU cores (no GPU)"));
            QVERIFY2(label->toolTip().contains(why), qPrintable(label->toolTip()));
            panel.setBackend(compute::Backend::Cuda);
            QCOMPARE(devices->fullText(), QString("none (no GPU)"));
            QVERIFY2(label->toolTip().contains(why), qPrintable(label->toolTip()));
        } else {
            for (const auto& g : gpus) QVERIFY(label->text().contains(QString::fromStdString(g)));
        }
        panel.setBackend(compute::Backend::Auto);
        panel.setKernel("cpu.simd");
        QCOMPARE(label->text(), QString("all CPU cores"));
        QVERIFY2(!label->toolTip().contains("No GPU"), qPrintable(label->toolTip()));  // no stale reason
        panel.setKernel("");
        panel.resize(420, panel.sizeHint().height());
        QVERIFY(panel.grab().save(WARPLAB_BINARY_DIR "/metric_panel_devices.png"));
    }
};

QTEST_MAIN(TestMetricPanelDevices)
#include "test_metric_panel_devices.moc"
