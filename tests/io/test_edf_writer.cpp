// EdfWriter round trips (EDF+ and BDF+, one and several signals, different rates), read back
// through EDFlib and through the lenient reader, windows crossing record boundaries.
#include <QtTest>
#undef signals

#include <cmath>

#include "edf_reference.h"
#include "io/edf_writer.h"
#include "io/recording.h"
#include "io_test_util.h"

using namespace warplab::io;

namespace {

// Digital value of signal s, sample k: deterministic, covering the digital range's ends.
int value(int s, long k, int dmin, int dmax) {
    const long span = long(dmax) - dmin + 1;
    return int(dmin + (k * 7919 + s * 104729 + (k * k) % 31) % span);
}

}  // namespace

class TestEdfWriter : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void roundTrip_data() {
        QTest::addColumn<bool>("bdf");
        QTest::addColumn<int>("signals");
        QTest::newRow("EDF+ one signal") << false << 1;
        QTest::newRow("EDF+ three signals") << false << 3;
        QTest::newRow("BDF+ two signals") << true << 2;
    }
    void roundTrip() {
        QFETCH(bool, bdf);
        QFETCH(int, signals);
        const std::string p = dir_.filePath(QString("w_%1_%2.%3").arg(bdf).arg(signals).arg(bdf ? "bdf" : "edf")).toStdString();
        const int dmin = bdf ? -8388608 : -32768, dmax = bdf ? 8388607 : 32767;
        std::vector<EdfWriterSignal> sig;
        for (int s = 0; s < signals; ++s)
            sig.push_back({"S" + std::to_string(s), "uV", "HP:0.1Hz", "AgAgCl", -1000.0 - s, 1000.0 + s, dmin, dmax, 100 * (s + 1)});
        EdfWriterHeader h;
        h.bdf = bdf;
        h.recordDurationS = 0.5;
        h.year = 2021;
        h.month = 3;
        h.day = 4;
        h.hour = 5;
        h.minute = 6;
        h.second = 7;
        const int records = 37;
        {
            EdfWriter w(p, h, sig);
            std::vector<int> rec;
            for (int r = 0; r < records; ++r) {
                rec.clear();
                for (int s = 0; s < signals; ++s)
                    for (int k = 0; k < sig[s].samplesPerRecord; ++k) rec.push_back(value(s, long(r) * sig[s].samplesPerRecord + k, dmin, dmax));
                w.writeRecordDigital(rec.data());
            }
            w.addAnnotation(1.25, 2.5, "event A");
            w.addAnnotation(10, -1, "event B");
            w.close();
        }
        edfref::File ref(p);
        auto strict = Recording::open(p);
        OpenOptions o;
        o.forceLenient = true;
        auto lenient = Recording::open(p, o);
        QCOMPARE(strict->format(), bdf ? Format::BDFPlusC : Format::EDFPlusC);
        QCOMPARE(strict->startIso(), std::string("2021-03-04T05:06:07"));
        for (const Recording* rec : {strict.get(), lenient.get()}) {
            QVERIFY(rec->warnings().empty());
            QCOMPARE(rec->durationS(), records * 0.5);
            QCOMPARE(int(rec->signals().size()), signals);
            for (int s = 0; s < signals; ++s) {
                const SignalInfo& info = rec->signals()[s];
                QCOMPARE(info.rateHz, 200.0 * (s + 1));
                QCOMPARE(info.prefilter, std::string("HP:0.1Hz"));
                QCOMPARE(info.transducer, std::string("AgAgCl"));
                const auto d = rec->readDigital(s, 0, info.samples);
                const auto v = rec->read(s, 0, info.samples);
                for (long k = 0; k < info.samples; ++k) {
                    QCOMPARE(d[k], value(s, k, dmin, dmax));
                    QVERIFY(std::abs(v[k] - ref.physical(s, k)) <= 1e-6 * std::abs(ref.physical(s, k)) + 1e-3);
                }
                // Windows that start and end inside records and cross several of them.
                for (long long start : {0LL, 1LL, 99LL, 100LL, 101LL, 777LL})
                    for (long long n : {1LL, 99LL, 250LL}) {
                        if (start + n > info.samples) continue;
                        const auto w = rec->read(s, start, n);
                        QVERIFY(std::equal(w.begin(), w.end(), v.begin() + start));
                    }
            }
            QCOMPARE(rec->annotations().size(), std::size_t(2));
            QCOMPARE(rec->annotations()[0].text, std::string("event A"));
            QCOMPARE(rec->annotations()[0].onsetS, 1.25);
            QCOMPARE(rec->annotations()[0].durationS, 2.5);
            QCOMPARE(rec->annotations()[1].onsetS, 10.0);
            QCOMPARE(rec->annotations()[1].durationS, 0.0);
        }
    }

    void recordShapeHoldsWholeSamples() {
        auto is = [](double rate, int n, double d) {
            const auto r = edfRecordFor(rate);
            return r && r->samplesPerRecord == n && r->durationS == d;
        };
        QVERIFY(is(256, 256, 1.0));
        QVERIFY(is(160, 160, 1.0));
        QVERIFY(is(250.5, 501, 2.0));
        QVERIFY(is(0.5, 1, 2.0));
        QVERIFY(is(1000.25, 4001, 4.0));
        QVERIFY(is(12.8, 2, 0.15625));  // the shortest: 2 samples in 15,625 units of 10 us
        QVERIFY(!edfRecordFor(173.61));  // needs 100 s records; EDFlib writes up to 60 s
        QVERIFY(!edfRecordFor(0.01));    // one sample lasts 100 s
        QVERIFY(!edfRecordFor(0));
        QVERIFY(!edfRecordFor(std::nan("")));
    }

    void refusedSettings() {
        const std::string p = dir_.filePath("bad.edf").toStdString();
        EdfWriterHeader h;
        const std::string m = iotest::errorOf([&] { EdfWriter w(p, h, {{"X", "uV", "", "", 1, 1, -10, 10, 10}}); });
        QVERIFY2(m.find("bad.edf: signal 0 'X' physical maximum: must differ") != std::string::npos, m.c_str());
        QVERIFY(iotest::errorOf([&] { EdfWriter w(p, h, {}); }).find("at least one signal") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestEdfWriter)
#include "test_edf_writer.moc"
