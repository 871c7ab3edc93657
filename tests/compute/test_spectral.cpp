// Frequency bands, the band filter, Welch's PSD and the spectrogram against SciPy on the real
// recordings of tests/data (CHB-MIT excerpt, eegmmidb, Bonn). SciPy's answers are computed at
// test time by tests/compute/scipy_spectral.py under Debian's /usr/bin/python3; without SciPy
// the comparisons skip and say so (the refusals and the cache are still tested).
//
// Tolerances (what the comparisons assert; the figures measured are printed by the test):
//  - band filter: in the middle 80 % of each channel, max |ours - scipy| <= 1e-6 * max |scipy|
//    (ours is rounded to float32 at the end, about 6e-8 of the peak);
//  - Welch PSD: each bin within 1e-9 relative plus 1e-12 of the largest bin (both in double);
//  - spectrogram: each value within 1e-6 relative plus 1e-9 of the largest (stored as float32).
// io/recording.h has a member named signals(): read the EEG before Qt's keywords exist.
#include "io/recording.h"
#include "io/series_file.h"
#include <string>
#include <vector>
namespace {
struct Channel {
    std::string name;
    std::vector<float> x;
    double rate = 0;
};

std::vector<Channel> realChannels() {
    std::vector<Channel> out;
    const std::string data = WARPLAB_SOURCE_DIR "/tests/data/";
    for (const auto& [file, sig] : std::vector<std::pair<std::string, int>>{
             {"chbmit/chb01_03_Seizure.edf", 0}, {"chbmit/chb01_03_Seizure.edf", 12}, {"eegmmidb/S001R03.edf", 0}}) {
        auto rec = warplab::io::Recording::open(data + file);
        const auto& info = rec->signals()[std::size_t(sig)];
        out.push_back({file + ":" + info.label, rec->read(sig, 0, info.samples), info.rateHz});
    }
    const auto bonn = warplab::io::readSeriesFile(data + "bonn/S/S001.txt", {.multivariate = true});
    out.push_back({"bonn/S/S001.txt", bonn.at(0).values, 173.61});
    return out;
}

}  // namespace

#include <QtTest>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "compute/core/error.h"
#include "compute/spectral/band_filter.h"
#include "compute/spectral/frequency_band.h"
#include "compute/spectral/spectrogram.h"
#include "compute/spectral/spectrogram_device.h"
#include "compute/spectral/welch.h"

using namespace warplab::compute;
using namespace warplab::compute::spectral;

namespace {

// SciPy's values for `mode` on `x`, or an empty vector with `why` set when SciPy cannot run.
std::vector<double> scipy(const std::string& mode, const std::vector<float>& x, double rate,
                          const std::vector<std::string>& args, QString& why) {
    const QString dir = QDir::tempPath() + "/warplab_spectral_" + QString::number(QCoreApplication::applicationPid());
    QDir().mkpath(dir);
    const std::string in = (dir + "/in.f32").toStdString(), out = (dir + "/out.f64").toStdString();
    {
        std::ofstream f(in, std::ios::binary);
        f.write(reinterpret_cast<const char*>(x.data()), std::streamsize(x.size() * sizeof(float)));
    }
    if (!QFile::exists("/usr/bin/python3")) {
        why = "no /usr/bin/python3 (Debian's python3-scipy) to compute the reference";
        return {};
    }
    QStringList a{WARPLAB_SOURCE_DIR "/tests/compute/scipy_spectral.py", QString::fromStdString(mode),
                  QString::fromStdString(in), QString::fromStdString(out), QString::number(rate, 'g', 17)};
    for (const auto& s : args) a << QString::fromStdString(s);
    QProcess p;
    p.start("/usr/bin/python3", a);
    p.waitForFinished(120000);
    if (p.exitCode() == 3) {
        why = "SciPy is missing (apt install python3-scipy): " + QString::fromUtf8(p.readAllStandardError()).trimmed();
        return {};
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        qFatal("scipy_spectral.py failed: %s", p.readAllStandardError().constData());
    std::ifstream f(out, std::ios::binary | std::ios::ate);
    std::vector<double> y(std::size_t(f.tellg()) / sizeof(double));
    f.seekg(0);
    f.read(reinterpret_cast<char*>(y.data()), std::streamsize(y.size() * sizeof(double)));
    return y;
}

QString refusal(const std::function<void()>& f) {
    try {
        f();
    } catch (const EngineError& e) {
        if (!e.isBadInput()) return "wrong kind: " + QString::fromStdString(e.what());
        return QString::fromStdString(e.what());
    }
    return "not refused";
}

}  // namespace

class TestSpectral : public QObject {
    Q_OBJECT
private slots:
    void parsesPresetsAndRanges();
    void refusesBadBandsByName();
    void bandFilterEqualsScipy();
    void welchEqualsScipy();
    void spectrogramEqualsScipy();
    void cacheGivesTheSameFramesAndReusesThem();
    void regionSpectraSplitTheChannel();
    void backendChoosesTheSpectrogramPath();
};

void TestSpectral::parsesPresetsAndRanges() {
    QCOMPARE(bandPresets().size(), std::size_t(5));
    const FrequencyBand alpha = parseFrequencyBand("Alpha");
    QCOMPARE(QString::fromStdString(alpha.name), QString("alpha"));
    QCOMPARE(alpha.lowHz, 8.0);
    QCOMPARE(alpha.highHz, 13.0);
    QCOMPARE(parseFrequencyBand("delta").lowHz, 0.5);
    QCOMPARE(parseFrequencyBand("gamma").highHz, 80.0);
    const FrequencyBand r = parseFrequencyBand(" 0.5 - 4 Hz");
    QVERIFY(r.name.empty());
    QCOMPARE(r.lowHz, 0.5);
    QCOMPARE(r.highHz, 4.0);
    QCOMPARE(QString::fromStdString(r.label()), QString("0.5-4 Hz"));
    QCOMPARE(QString::fromStdString(r.key()), QString("0.5-4Hz"));
    const FrequencyBand mu = parseFrequencyBand("mu=8-12");
    QCOMPARE(QString::fromStdString(mu.describe()), QString("mu (8-12 Hz)"));
    QCOMPARE(parseFrequencyBand("mu", {mu}), mu);  // a user's saved band by name
    QCOMPARE(minimumBandLength(4), std::size_t(28));
}

void TestSpectral::refusesBadBandsByName() {
    QVERIFY(refusal([] { parseFrequencyBand("alfa"); }).contains("'alfa'"));
    QVERIFY(refusal([] { parseFrequencyBand("alfa"); }).contains("delta, theta, alpha, beta, gamma"));
    QVERIFY(refusal([] { parseFrequencyBand("13-8"); }).contains("13-8 Hz"));
    QVERIFY(refusal([] { parseFrequencyBand("4-4"); }).contains("below the high edge"));
    QVERIFY(refusal([] { parseFrequencyBand("nan-4"); }).contains("finite"));
    QVERIFY(refusal([] { parseFrequencyBand("0-4"); }).contains("above 0 Hz"));
    const QString nyquist = refusal([] { validateBand(parseFrequencyBand("gamma"), 160.0); });
    QVERIFY2(nyquist.contains("gamma (30-80 Hz)") && nyquist.contains("above 160 Hz") && nyquist.contains("Nyquist 80 Hz"),
             qPrintable(nyquist));
    const QString shortSignal = refusal([] { bandFilter(std::vector<float>(27, 1.0f), 256.0, parseFrequencyBand("alpha")); });
    QVERIFY2(shortSignal.contains("alpha") && shortSignal.contains("27 samples") && shortSignal.contains("at least 28"),
             qPrintable(shortSignal));
    std::vector<float> bad(100, 1.0f);
    bad[7] = NAN;
    QVERIFY(refusal([&] { bandFilter(bad, 256.0, parseFrequencyBand("alpha")); }).contains("sample 7"));
    QVERIFY(refusal([] { welch(std::vector<float>(100, 1.0f), 256.0, {.segmentLength = 64, .overlap = 64}); })
                .contains("noverlap"));
}

void TestSpectral::bandFilterEqualsScipy() {
    double worstMiddle = 0, worstWhole = 0;
    int compared = 0;
    for (const Channel& c : realChannels()) {
        for (const FrequencyBand& band : bandPresets()) {
            if (band.highHz >= c.rate / 2) {  // gamma on eegmmidb's 160 Hz: refused by name
                QVERIFY(refusal([&] { bandFilter(c.x, c.rate, band); }).contains(QString::fromStdString(band.name)));
                continue;
            }
            for (int order : {2, 4}) {
                if (order == 2 && c.name.rfind("bonn", 0) != 0) continue;  // order 2 on one recording: SciPy runs take time
                QString why;
                const auto ref = scipy("bandpass", c.x, c.rate,
                                       {std::to_string(band.lowHz), std::to_string(band.highHz), std::to_string(order)}, why);
                if (ref.empty()) QSKIP(qPrintable(why));
                const auto ours = bandFilter(c.x, c.rate, band, order);
                QCOMPARE(ours.size(), ref.size());
                const std::size_t n = ref.size(), from = n / 10, to = n - n / 10;
                double peak = 0, errMiddle = 0, errWhole = 0;
                for (std::size_t i = 0; i < n; ++i) peak = std::max(peak, std::fabs(ref[i]));
                for (std::size_t i = 0; i < n; ++i) {
                    const double e = std::fabs(double(ours[i]) - ref[i]) / peak;
                    errWhole = std::max(errWhole, e);
                    if (i >= from && i < to) errMiddle = std::max(errMiddle, e);
                }
                QVERIFY2(errMiddle <= 1e-6, qPrintable(QString("%1 %2 order %3: %4 of the peak")
                                                           .arg(QString::fromStdString(c.name),
                                                                QString::fromStdString(band.name))
                                                           .arg(order)
                                                           .arg(errMiddle)));
                worstMiddle = std::max(worstMiddle, errMiddle);
                worstWhole = std::max(worstWhole, errWhole);
                ++compared;
            }
        }
    }
    qInfo("band filter vs scipy, %d channel x band x order: max error %.3g of the peak in the middle 80 %%, %.3g over the "
          "whole channel",
          compared, worstMiddle, worstWhole);
}

void TestSpectral::welchEqualsScipy() {
    struct Case {
        std::size_t nperseg, noverlap;
        Detrend detrend;
        Scaling scaling;
    };
    const std::vector<Case> cases{{256, 128, Detrend::Constant, Scaling::Density},
                                  {512, 0, Detrend::Linear, Scaling::Density},
                                  {250, 200, Detrend::None, Scaling::Spectrum}};
    double worst = 0;
    for (const Channel& c : realChannels()) {
        for (const Case& k : cases) {
            QString why;
            const auto ref = scipy("welch", c.x, c.rate,
                                   {std::to_string(k.nperseg), std::to_string(k.noverlap), detrendName(k.detrend),
                                    scalingName(k.scaling)},
                                   why);
            if (ref.empty()) QSKIP(qPrintable(why));
            const Spectrum s = welch(c.x, c.rate, {k.nperseg, k.noverlap, k.detrend, k.scaling});
            const std::size_t bins = ref.size() / 2;
            QCOMPARE(s.power.size(), bins);
            double peak = 0;
            for (std::size_t b = 0; b < bins; ++b) peak = std::max(peak, ref[bins + b]);
            for (std::size_t b = 0; b < bins; ++b) {
                QVERIFY(std::fabs(s.frequencyHz[b] - ref[b]) <= 1e-9 * std::max(1.0, ref[b]));
                const double r = ref[bins + b], e = std::fabs(s.power[b] - r);
                QVERIFY2(e <= 1e-9 * std::fabs(r) + 1e-12 * peak,
                         qPrintable(QString("%1 bin %2: %3 against %4").arg(QString::fromStdString(c.name)).arg(b).arg(s.power[b]).arg(r)));
                worst = std::max(worst, e / std::max(std::fabs(r), 1e-300));
            }
        }
    }
    qInfo("welch vs scipy: max relative error per bin %.3g", worst);
}

void TestSpectral::spectrogramEqualsScipy() {
    double worst = 0;
    for (const Channel& c : realChannels()) {
        const SpectrogramOptions o{256, 64, Detrend::Constant, Scaling::Density};
        QString why;
        const auto ref = scipy("spectrogram", c.x, c.rate, {"256", "192"}, why);
        if (ref.empty()) QSKIP(qPrintable(why));
        const Spectrogram s = spectrogram(c.x, c.rate, o);
        QCOMPARE(s.power.size(), ref.size());
        QCOMPARE(s.bins, std::size_t(129));
        double peak = 0;
        for (double v : ref) peak = std::max(peak, v);
        for (std::size_t i = 0; i < ref.size(); ++i) {
            const double e = std::fabs(double(s.power[i]) - ref[i]);
            QVERIFY2(e <= 1e-6 * ref[i] + 1e-9 * peak, qPrintable(QString("value %1: %2 against %3").arg(i).arg(s.power[i]).arg(ref[i])));
            if (ref[i] > 1e-9 * peak) worst = std::max(worst, e / ref[i]);
        }
        QCOMPARE(s.frameCentreS(0), 128 / c.rate);  // scipy's first time: nperseg / 2 / fs
    }
    qInfo("spectrogram vs scipy: max relative error %.3g (float32 values)", worst);
}

void TestSpectral::cacheGivesTheSameFramesAndReusesThem() {
    const Channel c = realChannels().front();
    const SpectrogramOptions o{256, 128, Detrend::Constant, Scaling::Density};
    const long long total = (long long)c.x.size();
    int reads = 0;
    const auto reader = [&](long long start, long long count) {
        ++reads;
        return std::vector<float>(c.x.begin() + start, c.x.begin() + start + count);
    };
    SpectrogramCache cache;
    const long long rate = 256;
    for (long long start : {0LL, 5 * rate + 17, 10 * rate, 5 * rate + 17}) {  // scroll, and back
        const long long end = std::min(total, start + 20 * rate);
        const Spectrogram w = cache.window("chb01_03:FP1-F7", c.rate, o, start, end, total, reader);
        const Spectrogram direct = spectrogram(std::span<const float>(c.x.data() + start, std::size_t(end - start)), c.rate, o, start);
        QCOMPARE(w.firstFrame, direct.firstFrame);
        QCOMPARE(w.frames, direct.frames);
        QVERIFY(w.frames > 0);
        QVERIFY(w.power == direct.power);  // the same frames, bit for bit
    }
    const std::size_t computed = cache.blocksComputed();
    QVERIFY(computed >= 1);
    QCOMPARE(std::size_t(reads), computed);
    cache.window("chb01_03:FP1-F7", c.rate, o, 3 * rate, 15 * rate, total, reader);
    QCOMPARE(cache.blocksComputed(), computed);  // inside what was computed: nothing new
    cache.forget("chb01_03:FP1-F7");
    QCOMPARE(cache.bytes(), std::size_t(0));
    cache.window("chb01_03:FP1-F7", c.rate, o, 3 * rate, 15 * rate, total, reader);
    QVERIFY(cache.blocksComputed() > computed);
}

void TestSpectral::regionSpectraSplitTheChannel() {
    const Channel c = realChannels().front();  // 41 s at 256 Hz
    const std::span<const float> x(c.x);
    const WelchOptions o{512, 256, Detrend::Constant, Scaling::Density};
    // Overlapping, unsorted stretches merge: the seizure is 10-30 s.
    const RegionSpectra r = regionSpectra(x, 256, {{15, 30}, {10, 20}}, o);
    const Spectrum in = welch(std::vector<std::span<const float>>{x.subspan(2560, 5120)}, 256, o);
    const Spectrum out = welch(std::vector<std::span<const float>>{x.subspan(0, 2560), x.subspan(7680)}, 256, o);
    QCOMPARE(r.inside.segments, in.segments);
    QVERIFY(r.inside.power == in.power);
    QCOMPARE(r.outside.segments, out.segments);
    QVERIFY(r.outside.power == out.power);
    // A stretch shorter than a segment: that side has none, the other is still there.
    const RegionSpectra tiny = regionSpectra(x, 256, {{1, 1.5}}, o);
    QCOMPARE(tiny.inside.segments, std::size_t(0));
    QVERIFY(tiny.inside.power.empty());
    QVERIFY(tiny.outside.segments > 0);
}

// spectrogramOn: cpu is FFTW; auto is FFTW where no GPU spectrogram can run (the GPU one is
// checked against FFTW in tests/gpu/test_gpu_spectrogram.cpp); cuda where it cannot run is a
// Device error saying why, never a silent CPU result.
void TestSpectral::backendChoosesTheSpectrogramPath() {
    std::vector<float> x(5000);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(std::sin(0.05 * double(i)) + 0.01 * double(i % 7));
    const Spectrogram ref = spectrogram(x, 256);
    QCOMPARE(spectrogramOn(warplab::compute::Backend::Cpu, x, 256).power, ref.power);
    const std::string why = gpuSpectrogramUnavailable();
    if (why.empty()) QSKIP("a GPU spectrogram can run here: tests/gpu compares it");
    QCOMPARE(spectrogramOn(warplab::compute::Backend::Auto, x, 256).power, ref.power);
    try {
        spectrogramOn(warplab::compute::Backend::Cuda, x, 256);
        QFAIL("a GPU spectrogram without a GPU");
    } catch (const warplab::compute::EngineError& e) {
        QCOMPARE(e.kind(), warplab::compute::EngineError::Kind::Device);
        QVERIFY2(std::string(e.what()).find(why) != std::string::npos, e.what());
    }
}

QTEST_GUILESS_MAIN(TestSpectral)
#include "test_spectral.moc"
