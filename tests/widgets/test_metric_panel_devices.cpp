// The Metric panel's "Devices" row: every GPU the engine would spread a job over,
// or the CPU cores — following the backend and kernel chosen. Saves a picture of the panel
// (metric_panel_devices.png in the build folder) for a look.
#include <QtTest/QtTest>

#include <QLabel>

#include "compute/engine/device_list.h"
#include "widgets/metric_panel.h"

using namespace warplab;

class TestMetricPanelDevices : public QObject {
    Q_OBJECT
private slots:
    void followsBackend() {
        widgets::MetricPanel panel;
        auto* label = panel.findChild<QLabel*>("devices");
        QVERIFY(label);
        const auto gpus = compute::gpuDeviceLabels();
        panel.setBackend(compute::Backend::Cpu);
        QCOMPARE(label->text(), QString("all CPU cores"));
        panel.setBackend(compute::Backend::Auto);
        if (gpus.empty()) {
            QVERIFY2(label->text().startsWith("all CPU cores (no GPU: "), qPrintable(label->text()));
            panel.setBackend(compute::Backend::Cuda);
            QVERIFY2(label->text().startsWith("none: "), qPrintable(label->text()));
        } else {
            for (const auto& g : gpus) QVERIFY(label->text().contains(QString::fromStdString(g)));
        }
        panel.setBackend(compute::Backend::Auto);
        panel.setKernel("cpu.simd");
        QCOMPARE(label->text(), QString("all CPU cores"));
        panel.setKernel("");
        panel.resize(420, panel.sizeHint().height());
        QVERIFY(panel.grab().save(WARPLAB_BINARY_DIR "/metric_panel_devices.png"));
    }
};

QTEST_MAIN(TestMetricPanelDevices)
#include "test_metric_panel_devices.moc"
