// Every EDF/EDF+/BDF file of tests/data opened through Recording::open and checked against
// its header and against an independent reading of the raw bytes (edf_reference.h).
#include <QtTest>
#undef signals  // Qt keyword macro; io::Recording::signals() is meant here

#include <cmath>
#include <atomic>
#include <map>
#include <thread>

#include "edf_reference.h"
#include "io_test_util.h"
#include "io/recording.h"

using namespace warplab::io;

namespace {

const std::string kData = WARPLAB_TEST_DATA;
const std::string kSeizure = kData + "/chbmit/chb01_03_Seizure.edf";
const std::string kNonSeizure = kData + "/chbmit/chb01_03_NonSeizure.edf";
const std::string kMmidb = kData + "/eegmmidb/S001R03.edf";
const std::string kBdf = kData + "/bdf/Newtest17-256.bdf";

const std::vector<std::string> kChbLabels = {
    "FP1-F7", "F7-T7", "T7-P7", "P7-O1", "FP1-F3", "F3-C3", "C3-P3", "P3-O1", "FP2-F4", "F4-C4", "C4-P4", "P4-O2",
    "FP2-F8", "F8-T8", "T8-P8", "P8-O2", "FZ-CZ", "CZ-PZ", "P7-T7", "T7-FT9", "FT9-FT10", "FT10-T8", "T8-P8"};

// Header facts and every sample of every data signal against the raw bytes.
void compareWithReference(const Recording& rec, const edfref::File& ref) {
    std::vector<long> data;
    for (long i = 0; i < ref.ns; ++i)
        if (ref.sig[i].label != "EDF Annotations" && ref.sig[i].label != "BDF Annotations") data.push_back(i);
    QCOMPARE(rec.signals().size(), data.size());
    QCOMPARE(rec.durationS(), double(ref.records) * ref.recordS);
    for (std::size_t s = 0; s < data.size(); ++s) {
        const auto& g = ref.sig[data[s]];
        const SignalInfo& info = rec.signals()[s];
        QCOMPARE(info.index, int(s));
        QCOMPARE(info.label, g.label);
        QCOMPARE(info.unit, g.unit);
        QCOMPARE(info.rateHz, double(g.spr) / ref.recordS);
        QCOMPARE(info.samples, (long long)(g.spr * ref.records));
        QCOMPARE(info.physicalMin, g.pmin);
        QCOMPARE(info.physicalMax, g.pmax);
        QCOMPARE(info.digitalMin, (long long)g.dmin);
        QCOMPARE(info.digitalMax, (long long)g.dmax);
        const std::vector<float> v = rec.read(int(s), 0, info.samples);
        const std::vector<int> d = rec.readDigital(int(s), 0, info.samples);
        QCOMPARE((long long)v.size(), info.samples);
        const double step = std::abs(g.pmax - g.pmin) / double(g.dmax - g.dmin);
        for (long k = 0; k < info.samples; ++k) {
            if (d[k] != ref.digital(data[s], k))
                QFAIL(qPrintable(QString("%1 sample %2: digital %3, raw bytes %4").arg(info.label.c_str()).arg(k).arg(d[k]).arg(ref.digital(data[s], k))));
            const double expect = ref.physical(data[s], k);
            if (std::abs(v[k] - expect) > 1e-6 * std::abs(expect) + 1e-3 * step)
                QFAIL(qPrintable(QString("%1 sample %2: %3, expected %4").arg(info.label.c_str()).arg(k).arg(v[k]).arg(expect)));
        }
    }
}

void compareRecordings(const Recording& a, const Recording& b) {
    QCOMPARE(a.signals().size(), b.signals().size());
    QCOMPARE(a.durationS(), b.durationS());
    QCOMPARE(a.startIso(), b.startIso());
    QCOMPARE(a.format(), b.format());
    for (std::size_t s = 0; s < a.signals().size(); ++s) {
        QCOMPARE(a.signals()[s].displayName, b.signals()[s].displayName);
        QCOMPARE(a.signals()[s].rateHz, b.signals()[s].rateHz);
        QVERIFY(a.read(int(s), 0, a.signals()[s].samples) == b.read(int(s), 0, b.signals()[s].samples));
    }
    QCOMPARE(a.annotations().size(), b.annotations().size());
    for (std::size_t i = 0; i < a.annotations().size(); ++i) {
        QCOMPARE(a.annotations()[i].text, b.annotations()[i].text);
        QVERIFY(std::abs(a.annotations()[i].onsetS - b.annotations()[i].onsetS) < 1e-6);
        QVERIFY(std::abs(a.annotations()[i].durationS - b.annotations()[i].durationS) < 1e-6);
    }
}

}  // namespace

class TestEdfReading : public QObject {
    Q_OBJECT
private slots:
    void chbmitHeaders_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("start");
        QTest::newRow("Seizure") << QString::fromStdString(kSeizure) << "2076-11-06T14:32:59";
        QTest::newRow("NonSeizure") << QString::fromStdString(kNonSeizure) << "2076-11-06T13:43:04";
    }
    void chbmitHeaders() {
        QFETCH(QString, file);
        QFETCH(QString, start);
        auto rec = Recording::open(file.toStdString());
        QCOMPARE(rec->format(), Format::EDF);
        QCOMPARE(formatName(rec->format()), std::string_view("EDF"));
        QCOMPARE(QString::fromStdString(rec->startIso()), start);  // "06.11.76": EDF's 1985-2084 rule
        QCOMPARE(rec->durationS(), 41.0);
        QVERIFY(rec->warnings().empty());
        QVERIFY(rec->annotations().empty());
        QCOMPARE(rec->signals().size(), std::size_t(23));
        for (std::size_t i = 0; i < 23; ++i) {
            QCOMPARE(rec->signals()[i].label, kChbLabels[i]);
            QCOMPARE(rec->signals()[i].rateHz, 256.0);
            QCOMPARE(rec->signals()[i].samples, 41LL * 256);
            QCOMPARE(rec->signals()[i].unit, std::string("uV"));
            QCOMPARE(rec->signals()[i].physicalMin, -800.0);
            QCOMPARE(rec->signals()[i].digitalMax, 2047LL);
        }
        // The repeated label stays usable: both by index, the second under a unique name.
        QCOMPARE(rec->signals()[14].displayName, std::string("T8-P8"));
        QCOMPARE(rec->signals()[22].displayName, std::string("T8-P8 (2)"));
        QCOMPARE(rec->findSignal("T8-P8"), 14);
        QCOMPARE(rec->findSignal("T8-P8 (2)"), 22);
        QCOMPARE(rec->findSignal("#22"), 22);
        QCOMPARE(rec->findSignal("Cz"), -1);
    }

    void samplesMatchRawBytes_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("chb Seizure") << QString::fromStdString(kSeizure);
        QTest::newRow("chb NonSeizure") << QString::fromStdString(kNonSeizure);
        QTest::newRow("eegmmidb EDF+") << QString::fromStdString(kMmidb);
        QTest::newRow("BDF") << QString::fromStdString(kBdf);
    }
    void samplesMatchRawBytes() {
        QFETCH(QString, file);
        auto rec = Recording::open(file.toStdString());
        edfref::File ref(file.toStdString());
        compareWithReference(*rec, ref);
    }

    void windowsMatchWholeReads() {
        auto rec = Recording::open(kMmidb);
        const auto all = rec->read(5, 0, rec->signals()[5].samples);
        for (long long start : {0LL, 1LL, 159LL, 160LL, 161LL, 7777LL, 19990LL}) {
            const long long n = std::min<long long>(333, 20000 - start);
            const auto w = rec->read(5, start, n);
            QVERIFY(std::equal(w.begin(), w.end(), all.begin() + start));
        }
        QCOMPARE(rec->read(5, 20000, 0).size(), std::size_t(0));
    }

    void mmidbHeaderAndWarnings() {
        auto rec = Recording::open(kMmidb);
        QCOMPARE(rec->format(), Format::EDFPlusC);
        QCOMPARE(QString::fromStdString(rec->startIso()), QString("2009-08-12T16:15:00"));
        QCOMPARE(rec->durationS(), 125.0);
        QCOMPARE(rec->signals().size(), std::size_t(64));  // the annotation signal is not a data signal
        QCOMPARE(rec->signals().front().label, std::string("Fc5."));
        QCOMPARE(rec->signals().back().label, std::string("Iz.."));
        QCOMPARE(rec->signals()[0].rateHz, 160.0);
        // EDFlib refuses it; it opens leniently, naming each violation.
        const auto& w = rec->warnings();
        auto has = [&](const char* a, const char* b) {
            return std::any_of(w.begin(), w.end(), [&](const std::string& s) {
                return s.find(a) != std::string::npos && s.find(b) != std::string::npos;
            });
        };
        QVERIFY(has("EDFlib", "format errors"));
        QVERIFY(has("'EDF Annotations' physical dimension", "\"-\""));
        QVERIFY(has("'EDF Annotations' prefilter", "HP:0Hz LP:0Hz N:0Hz"));
        QCOMPARE(w.size(), std::size_t(3));
    }

    void mmidbAnnotations() {
        auto rec = Recording::open(kMmidb);
        const auto& a = rec->annotations();
        std::map<std::string, int> count;
        for (const auto& x : a) ++count[x.text];
        QCOMPARE(a.size(), std::size_t(30));
        QCOMPARE(count["T0"], 15);
        QCOMPARE(count["T1"], 8);
        QCOMPARE(count["T2"], 7);
        const double onsets[] = {0.0, 4.2, 8.3, 12.5};
        const char* texts[] = {"T0", "T2", "T0", "T1"};
        for (int i = 0; i < 4; ++i) {
            QVERIFY(std::abs(a[i].onsetS - onsets[i]) < 1e-9);
            QCOMPARE(a[i].text, std::string(texts[i]));
        }
        QVERIFY(std::abs(a[0].durationS - 4.2) < 1e-9);
        QVERIFY(std::abs(a[1].durationS - 4.1) < 1e-9);
        QVERIFY(std::abs(a.back().onsetS - 120.4) < 1e-9);
        QCOMPARE(a.back().text, std::string("T1"));
    }

    void bdfHeaderAndStatusTriggers() {
        auto rec = Recording::open(kBdf);
        QCOMPARE(rec->format(), Format::BDF);
        QCOMPARE(rec->durationS(), 60.0);
        QCOMPARE(rec->signals().size(), std::size_t(17));
        QCOMPARE(rec->signals()[0].label, std::string("A1"));
        QCOMPARE(rec->signals()[15].label, std::string("A16"));
        QCOMPARE(rec->signals()[16].label, std::string("Status"));
        QCOMPARE(rec->signals()[0].prefilter, std::string("HP: DC; LP: 113 Hz"));
        QCOMPARE(rec->signals()[0].digitalMin, -8388608LL);
        const int status = rec->findSignal("Status");
        const auto d = rec->readDigital(status, 0, rec->signals()[status].samples);
        long first255 = -1;
        int onsets255 = 0, onsets254 = 0;
        // An onset is a change of the low 16 bits (sample 0 holds the idle level, no onset).
        for (std::size_t k = 1; k < d.size(); ++k) {
            const int v = d[k] & 0xffff, prev = d[k - 1] & 0xffff;
            if (v == prev) continue;
            if (v == 255) { ++onsets255; if (first255 < 0) first255 = long(k); }
            if (v == 254) ++onsets254;
        }
        QCOMPARE(first255, 414L);
        QCOMPARE(onsets255, 40);
        QCOMPARE(onsets254, 40);
    }

    // The lenient reader, forced on valid files, must see exactly what EDFlib sees.
    void lenientReaderEqualsEdflib_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("chb Seizure") << QString::fromStdString(kSeizure);
        QTest::newRow("BDF") << QString::fromStdString(kBdf);
        QTest::newRow("sample EDF+") << QString(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf");
    }
    void lenientReaderEqualsEdflib() {
        QFETCH(QString, file);
        auto strict = Recording::open(file.toStdString());
        OpenOptions o;
        o.forceLenient = true;
        auto lenient = Recording::open(file.toStdString(), o);
        QVERIFY(strict->warnings().empty());
        QVERIFY(lenient->warnings().empty());
        compareRecordings(*strict, *lenient);
    }

    // EDFlib refuses a second handle on an open file; the reader falls back, same data.
    void sameFileOpenedTwice() {
        auto a = Recording::open(kSeizure);
        auto b = Recording::open(kSeizure);
        QVERIFY(b->warnings().empty());
        compareRecordings(*a, *b);
    }

    // S001R03 with its two violations repaired (blank unit and prefilter on the annotation
    // signal) is valid for EDFlib: EDFlib's view of it must equal the lenient view of the
    // original, annotations included.
    void lenientMmidbEqualsEdflibOnRepairedCopy() {
        std::string b = iotest::readFile(kMmidb);
        const std::size_t ns = 65, ann = 64;
        b.replace(256 + ns * (16 + 80) + ann * 8, 8, std::string(8, ' '));
        b.replace(256 + ns * (16 + 80 + 8 * 5) + ann * 80, 80, std::string(80, ' '));
        QTemporaryDir dir;
        const std::string p = dir.filePath("S001R03_repaired.edf").toStdString();
        iotest::writeFile(p, b);
        auto repaired = Recording::open(p);
        QVERIFY(repaired->warnings().empty());  // EDFlib accepted it
        auto original = Recording::open(kMmidb);
        QCOMPARE(original->warnings().size(), std::size_t(3));
        compareRecordings(*repaired, *original);
    }

    // Worker threads read one recording at the same time (the GUI's jobs do): same samples as
    // one thread reading alone, on both readers.
    void concurrentReads() {
        OpenOptions lenient;
        lenient.forceLenient = true;
        for (bool raw : {false, true}) {
            auto rec = raw ? Recording::open(kBdf, lenient) : Recording::open(kBdf);
            std::vector<std::vector<float>> alone;
            for (int s = 0; s < 17; ++s) alone.push_back(rec->read(s, 0, rec->signals()[s].samples));
            std::atomic<int> mismatches{0};
            std::vector<std::thread> workers;
            for (int t = 0; t < 4; ++t)
                workers.emplace_back([&, t] {
                    for (int round = 0; round < 20; ++round)
                        for (int s = t; s < 17; s += 4) {
                            const long long start = (round * 997 + s * 131) % 15000, n = 300;
                            const auto w = rec->read(s, start, n);
                            if (!std::equal(w.begin(), w.end(), alone[s].begin() + start)) ++mismatches;
                        }
                });
            for (auto& w : workers) w.join();
            QCOMPARE(mismatches.load(), 0);
        }
    }

    // EDF+D: both readers say so, and read the records back to back.
    void discontinuousFileWarns() {
        QTemporaryDir dir;
        std::string b = iotest::readFile(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf");
        b.replace(192, 5, "EDF+D");
        const std::string p = dir.filePath("plusd.edf").toStdString();
        iotest::writeFile(p, b);
        OpenOptions lenientOpt;
        lenientOpt.forceLenient = true;
        auto strict = Recording::open(p);
        auto lenient = Recording::open(p, lenientOpt);
        for (const Recording* r : {strict.get(), lenient.get()}) {
            QCOMPARE(r->format(), Format::EDFPlusD);
            QCOMPARE(r->warnings().size(), std::size_t(1));
            QVERIFY(r->warnings()[0].find("discontinuous") != std::string::npos);
        }
        compareRecordings(*strict, *lenient);
    }

    void outOfRangeReadsThrow() {
        auto rec = Recording::open(kSeizure);
        const QString m = QString::fromStdString(iotest::errorOf([&] { rec->read(0, 10400, 97); }));
        QVERIFY2(m.contains("chb01_03_Seizure.edf") && m.contains("FP1-F7") && m.contains("10496"), qPrintable(m));
        QVERIFY(QString::fromStdString(iotest::errorOf([&] { rec->read(23, 0, 1); })).contains("signal: index 23"));
        QVERIFY(!iotest::errorOf([&] { rec->read(0, -1, 1); }).empty());
    }
};

QTEST_GUILESS_MAIN(TestEdfReading)
#include "test_edf_reading.moc"
