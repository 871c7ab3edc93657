// The GPU ceilings the kernel-comparison chart draws: the figures of the Hopper chips for the
// metrics whose limiting unit is known, nothing for other chips or metrics.
#include <QtTest>

#include "compute/bench/chip_ceiling.h"
#if WARPLAB_HAVE_GPU
#include "compute/gpu/runtime/gpu_device.h"
#endif

using namespace warplab::compute;

class TestChipCeiling : public QObject {
    Q_OBJECT
private slots:
    void hopperCeilings() {
        // The published ceilings of the H100 (the H200 has the same GH100 compute die):
        // fp32 DTW 8.4 T cells/s (min/max pipe at half the FMA rate), soft-DTW 1.4 T (exp/log
        // unit), fp32 TWED 3.3 T.
        const auto d = ceilingFor("NVIDIA H100 80GB HBM3", Metric::Dtw);
        QVERIFY(d.has_value());
        QCOMPARE(d->cellsPerSecond, 8.4e12);
        QVERIFY(d->label.find("H100") != std::string::npos);
        QCOMPARE(ceilingFor("NVIDIA H200", Metric::Cdtw)->cellsPerSecond, 8.4e12);
        QCOMPARE(ceilingFor("NVIDIA H200", Metric::SoftDtw)->cellsPerSecond, 1.4e12);
        QCOMPARE(ceilingFor("NVIDIA H100 PCIe", Metric::Twed)->cellsPerSecond, 3.3e12);
        // The search designs: the fp32 line, and the label gives half2's (two cells per instruction).
        const auto s = ceilingFor("NVIDIA H100 80GB HBM3", Metric::Sdtw);
        QVERIFY(s.has_value());
        QCOMPARE(s->cellsPerSecond, 8.4e12);
        QVERIFY2(s->label.find("half2 rows: 16.8e12") != std::string::npos, s->label.c_str());
    }
    void unknownChipsAndMetrics() {
        QVERIFY(!ceilingFor("NVIDIA A100-SXM4-40GB", Metric::Dtw).has_value());
        QVERIFY(!ceilingFor("", Metric::Dtw).has_value());
        QVERIFY(!ceilingFor("NVIDIA H100", Metric::Euclidean).has_value());
    }
    void noDeviceNoCeiling() {
        // Without a GPU backend or a device (CI), the chart must draw no ceiling at all.
#if WARPLAB_HAVE_GPU
        if (gpu::available()) QSKIP("a GPU is present: its ceiling depends on which one");
#endif
        QVERIFY(!gpuCeiling(Metric::Dtw).has_value());
        QVERIFY(!gpuCeiling(Metric::SoftDtw).has_value());
    }
};

QTEST_GUILESS_MAIN(TestChipCeiling)
#include "test_chip_ceiling.moc"
