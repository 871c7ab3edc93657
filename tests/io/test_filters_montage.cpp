// Butterworth designs against the closed-form magnitude of the bilinear-transformed
// prototype, zero-phase filtering of sines, the notch, and montage derivations on real files.
#include <QtTest>
#undef signals

#include <cmath>
#include <complex>

#include "io/filters.h"
#include "io/montage.h"
#include "io/recording.h"
#include "io_test_util.h"

using namespace warplab::io;
using iotest::errorOf;

namespace {

double magnitude(const std::vector<Biquad>& s, double f, double rate) {
    const std::complex<double> z1 = std::polar(1.0, -2 * M_PI * f / rate), z2 = z1 * z1;
    std::complex<double> h = 1;
    for (const auto& b : s) h *= (b.b0 + b.b1 * z1 + b.b2 * z2) / (1.0 + b.a1 * z1 + b.a2 * z2);
    return std::abs(h);
}

// |H|^2 of an order-n digital Butterworth low-pass made by the bilinear transform.
double butterworthLowMag(int n, double f, double fc, double rate) {
    const double r = std::tan(M_PI * f / rate) / std::tan(M_PI * fc / rate);
    return 1 / std::sqrt(1 + std::pow(r, 2 * n));
}

std::vector<float> sine(double f, double rate, std::size_t n, double amp = 1, double offset = 0) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = float(offset + amp * std::sin(2 * M_PI * f * i / rate));
    return v;
}

double maxAbsDiffMiddle(const std::vector<float>& a, const std::vector<float>& b) {
    double m = 0;
    for (std::size_t i = a.size() / 4; i < 3 * a.size() / 4; ++i) m = std::max(m, std::abs(double(a[i]) - b[i]));
    return m;
}

}  // namespace

class TestFiltersMontage : public QObject {
    Q_OBJECT
private slots:
    void butterworthMagnitude_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<double>("cutoff");
        for (int n : {1, 2, 3, 4, 5, 8})
            for (double fc : {0.5, 10.0, 40.0, 100.0}) QTest::newRow(qPrintable(QString("n%1 fc%2").arg(n).arg(fc))) << n << fc;
    }
    void butterworthMagnitude() {
        QFETCH(int, order);
        QFETCH(double, cutoff);
        const double rate = 256;
        const auto lp = butterworthLowpass(order, cutoff, rate), hp = butterworthHighpass(order, cutoff, rate);
        for (double f : {0.1, 0.25, 1.0, cutoff, 12.5, 50.0, 127.0}) {
            const double want = butterworthLowMag(order, f, cutoff, rate);
            QVERIFY2(std::abs(magnitude(lp, f, rate) - want) < 1e-9 + 1e-7 * want, qPrintable(QString("low f=%1").arg(f)));
            // The high-pass mirrors it: |H_hp|^2 = r^2n / (1 + r^2n), r = tan(pi f/fs) / tan(pi fc/fs).
            const double r = std::pow(std::tan(M_PI * f / rate) / std::tan(M_PI * cutoff / rate), order);
            const double hpWant = r / std::sqrt(1 + r * r);
            QVERIFY2(std::abs(magnitude(hp, f, rate) - hpWant) < 1e-12 + 1e-7 * hpWant, qPrintable(QString("high f=%1").arg(f)));
        }
        QVERIFY(std::abs(magnitude(lp, cutoff, rate) - M_SQRT1_2) < 1e-9);  // -3 dB at the cutoff
    }

    void zeroPhaseKeepsPassbandAndPhase() {
        const double rate = 256;
        FilterSettings s;
        s.lowpassHz = 30;
        const auto slow = sine(3, rate, 4096);
        auto y = applyFilters(slow, rate, s, true);
        QVERIFY(maxAbsDiffMiddle(y, slow) < 2e-3);  // no delay, gain |H(3 Hz)|^2 ~ 1
        // |H(80 Hz)|^2 = 1 / (1 + (tan(80 pi/256) / tan(30 pi/256))^8) ~ 2e-5.
        auto fast = applyFilters(sine(80, rate, 4096), rate, s, true);
        QVERIFY(maxAbsDiffMiddle(fast, std::vector<float>(4096, 0.f)) < 1e-4);
        // The causal (display) filter delays the sine: it differs from the input.
        auto causal = applyFilters(slow, rate, s, false);
        QVERIFY(maxAbsDiffMiddle(causal, slow) > 0.05);
    }

    void highpassRemovesOffsetAndBandpass() {
        const double rate = 256;
        FilterSettings s;
        s.highpassHz = 1;
        const auto x = sine(10, rate, 8192, 1, 500);  // a large DC offset, as BioSemi data
        auto y = applyFilters(x, rate, s, true);
        QVERIFY(maxAbsDiffMiddle(y, sine(10, rate, 8192)) < 5e-3);
        s.lowpassHz = 20;
        auto band = applyFilters(sine(40, rate, 8192, 1, 500), rate, s, true);
        QVERIFY(maxAbsDiffMiddle(band, std::vector<float>(8192, 0.f)) < 0.05);
    }

    void notch() {
        const double rate = 256;
        FilterSettings s;
        s.notchHz = 50;
        auto y50 = applyFilters(sine(50, rate, 8192), rate, s, true);
        QVERIFY(maxAbsDiffMiddle(y50, std::vector<float>(8192, 0.f)) < 0.01);
        const auto x40 = sine(40, rate, 8192);
        QVERIFY(maxAbsDiffMiddle(applyFilters(x40, rate, s, true), x40) < 0.01);
        QVERIFY(std::abs(magnitude({notchFilter(60, 500)}, 60, 500)) < 1e-12);
    }

    void badFilterSettings() {
        QVERIFY(errorOf([] { butterworthLowpass(4, 128, 256); }).find("filters.lowpass_hz: must lie between 0 and the Nyquist") != std::string::npos);
        QVERIFY(errorOf([] { butterworthHighpass(0, 1, 256); }).find("filters.order") != std::string::npos);
        QVERIFY(errorOf([] { butterworthBandpass(4, 30, 10, 256); }).find("high-pass 30") != std::string::npos);
    }

    void montageOnRealFiles() {
        auto chb = Recording::open(std::string(WARPLAB_TEST_DATA) + "/chbmit/chb01_03_Seizure.edf");
        // Labels that contain '-' are channels as recorded; a subset keeps the order given.
        auto m = resolveMontage(*chb, {"T8-P8 (2)", "FP1-F7"});
        QCOMPARE(m.size(), std::size_t(2));
        QCOMPARE(m[0].plus, 22);
        QCOMPARE(m[0].minus, -1);
        QCOMPARE(m[1].plus, 0);
        QCOMPARE(resolveMontage(*chb, {}).size(), std::size_t(23));
        // A derivation of two of them: "#0-#1" = FP1-F7 minus F7-T7.
        auto d = resolveMontage(*chb, {"#0-#1"});
        QCOMPARE(d[0].plus, 0);
        QCOMPARE(d[0].minus, 1);
        const auto a = chb->read(0, 100, 50), b = chb->read(1, 100, 50), v = readDerivation(*chb, d[0], 100, 50);
        for (int i = 0; i < 50; ++i) QCOMPARE(v[i], a[i] - b[i]);
        // Hyphens inside labels: "F7-T7-T7-P7" splits into signals one way only, (F7-T7) minus
        // (T7-P7), and the reading is said; a plain label or "#0-#1" needs no explanation.
        auto h = resolveMontage(*chb, {"F7-T7-T7-P7", "FP1-F7"});
        QCOMPARE(h[0].plus, chb->findSignal("F7-T7"));
        QCOMPARE(h[0].minus, chb->findSignal("T7-P7"));
        QCOMPARE(derivationReading(*chb, h[0]), std::string("\"F7-T7-T7-P7\" read as (F7-T7) minus (T7-P7)"));
        QCOMPARE(derivationReading(*chb, h[1]), std::string());
        const std::string unknown = errorOf([&] { resolveMontage(*chb, {"F7-T7-XX"}); });
        QVERIFY2(unknown.find(": line 1: \"F7-T7-XX\" names no signal") != std::string::npos, unknown.c_str());

        auto mm = Recording::open(std::string(WARPLAB_TEST_DATA) + "/eegmmidb/S001R03.edf");
        auto bip = resolveMontage(*mm, {"Fc5.-Fc3.", " C3..-Cz.. "});
        QCOMPARE(bip[0].plus, mm->findSignal("Fc5."));
        QCOMPARE(bip[0].minus, mm->findSignal("Fc3."));
        QCOMPARE(bip[1].name, std::string("C3..-Cz.."));
        const std::string e = errorOf([&] { resolveMontage(*mm, {"Fc5.", "Fc5.-Xx"}); });
        QVERIFY2(e.find("S001R03.edf: line 2: \"Fc5.-Xx\" names no signal") != std::string::npos, e.c_str());
    }
};

QTEST_GUILESS_MAIN(TestFiltersMontage)
#include "test_filters_montage.moc"
