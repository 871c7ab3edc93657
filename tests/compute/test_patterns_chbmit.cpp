// Seizure pattern discovery on real EEG: CHB-MIT chb01_03, the first 41 s (no seizure) then
// the 41 s that hold the seizure (PROVENANCE.md: it starts 1 s into that crop), joined as in
// the bundled sample, so the seizure runs from 42 s to 82 s. The ranking of the pipeline must
// equal the ranking computed from a naive scalar band DTW and pairwise quality counts, for
// every quality measure and for the scalar reference kernel as well as the default one.
#include <QtTest/QtTest>

#include <edflib.h>

#include <map>

#include "compute/core/error.h"
#include "compute/registry/registry.h"
#include "compute/patterns/pattern_discovery.h"
#include "patterns_reference.h"

using namespace warplab::compute;

namespace {

// Physical samples of the signal labelled `label` (EDFlib reads the file; no parser here).
std::vector<float> readChannel(const std::string& path, const std::string& label) {
    edf_hdr_struct hdr{};
    if (edfopen_file_readonly(path.c_str(), &hdr, EDFLIB_DO_NOT_READ_ANNOTATIONS) != 0) {
        qWarning("cannot open %s", path.c_str());
        return {};
    }
    std::vector<float> out;
    for (int s = 0; s < hdr.edfsignals; ++s) {
        if (QString(hdr.signalparam[s].label).trimmed() != QString::fromStdString(label)) continue;
        std::vector<double> buf(std::size_t(hdr.signalparam[s].smp_in_file));
        edfread_physical_samples(hdr.handle, s, int(buf.size()), buf.data());
        out.assign(buf.begin(), buf.end());
        break;
    }
    edfclose_file(hdr.handle);
    return out;
}

std::vector<float> spliced(const std::string& label) {
    const std::string dir = std::string(WARPLAB_TEST_DATA) + "/chbmit/";
    auto x = readChannel(dir + "chb01_03_NonSeizure.edf", label);
    auto y = readChannel(dir + "chb01_03_Seizure.edf", label);
    x.insert(x.end(), y.begin(), y.end());
    return x;
}

}  // namespace

class TestPatternsChbmit : public QObject {
    Q_OBJECT
private slots:
    void rankingEqualsScalarReference_data() {
        QTest::addColumn<QString>("channel");
        QTest::addColumn<int>("quality");
        QTest::addColumn<QString>("kernel");
        for (QString ch : {"FP1-F7", "T7-P7"})
            for (int q : {int(Quality::Auc), int(Quality::InfoGain)})
                for (QString k : {"cpu.reference", ""})
                    QTest::newRow(qPrintable(ch + " " + QString::fromStdString(std::string(qualityName(Quality(q)))) + " " +
                                             (k.isEmpty() ? "default kernel" : k)))
                        << ch << q << k;
    }

    void rankingEqualsScalarReference() {
        QFETCH(QString, channel);
        QFETCH(int, quality);
        QFETCH(QString, kernel);
        const std::vector<float> x = spliced(channel.toStdString());
        QCOMPARE(x.size(), std::size_t(82 * 256));

        PatternRequest r;
        r.samples = x;
        r.rateHz = 256;
        r.channel = channel.toStdString();
        r.seizures = {{42, 82}};
        r.epoch = 256;
        r.stride = 128;
        r.band = 16;
        r.quality = Quality(quality);
        r.keepMatrix = true;
        RunOptions o;
        o.backend = Backend::Cpu;
        o.kernel = kernel.toStdString();
        const PatternRanking got = findPatterns(r, o);

        // By hand: 82 s = 20992 samples, (20992-256)/128+1 = 163 epochs; the seizure is
        // samples 10752..20991 (40 s = 10240), (10240-256)/128+1 = 79 patterns. Epoch j is
        // ictal when 2*overlap >= 256, i.e. when it starts at or after 10752-128: j >= 83.
        QCOMPARE(got.epochCount, std::size_t(163));
        QCOMPARE(got.patternCount, std::size_t(79));
        for (std::size_t j = 0; j < 163; ++j) QCOMPARE(int(got.epochIctal[j]), j >= 83 ? 1 : 0);

        qInfo("kernel %s", got.kernel.c_str());
        // The naive reference matrix, once per channel (it is the slow part of this test).
        static std::map<QString, std::vector<double>> referenceCache;
        std::vector<double>& ref = referenceCache[channel];
        if (ref.empty()) {
            ref.resize(79 * 163);
            for (std::size_t i = 0; i < 79; ++i)
                for (std::size_t j = 0; j < 163; ++j)
                    ref[i * 163 + j] = patterns_reference::cdtw(x.data() + 10752 + i * 128, x.data() + j * 128, 256, 16);
        }
        std::vector<double> q(79);
        for (std::size_t i = 0; i < 79; ++i) {
            std::vector<double> row(ref.begin() + std::ptrdiff_t(i * 163), ref.begin() + std::ptrdiff_t((i + 1) * 163));
            for (std::size_t j = 0; j < 163; ++j) {
                const double rel = std::abs(got.matrix.at(i, j) - row[j]) / std::max(1.0, row[j]);
                QVERIFY2(rel < 1e-5, qPrintable(QString("DM[%1][%2] = %3, reference %4").arg(i).arg(j)
                                                    .arg(got.matrix.at(i, j)).arg(row[j])));
            }
            q[i] = quality == int(Quality::Auc) ? patterns_reference::auc(row, got.epochIctal)
                                                : patterns_reference::infoGain(row, got.epochIctal);
        }
        const auto order = patterns_reference::ranking(q);
        QCOMPARE(got.ranked.size(), order.size());
        for (std::size_t k = 0; k < order.size(); ++k) {
            QCOMPARE(got.ranked[k].index, order[k]);
            QVERIFY(std::abs(got.ranked[k].quality - q[order[k]]) < 1e-9);
            // Start seconds map back through the query: 42 s + i * 0.5 s.
            QCOMPARE(got.ranked[k].startS, 42.0 + double(order[k]) * 0.5);
        }
    }
};

QTEST_GUILESS_MAIN(TestPatternsChbmit)
#include "test_patterns_chbmit.moc"
