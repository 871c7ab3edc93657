// The bundled sample is the two real CHB-MIT excerpts joined: every digital sample of the
// splice equals the source files' bytes, the calibration is unchanged, and the seizure is
// annotated at 42-82 s.
#include <QtTest>
#undef signals

#include "edf_reference.h"
#include "io/recording.h"

using namespace warplab::io;

class TestSampleSplice : public QObject {
    Q_OBJECT
private slots:
    void spliceEqualsSources() {
        const std::string dir = std::string(WARPLAB_TEST_DATA) + "/chbmit/";
        edfref::File pre(dir + "chb01_03_NonSeizure.edf"), ictal(dir + "chb01_03_Seizure.edf");
        auto rec = Recording::open(std::string(WARPLAB_SOURCE_DIR) + "/resources/sample/chb01_03_sample.edf");
        QCOMPARE(rec->format(), Format::EDFPlusC);
        QVERIFY(rec->warnings().empty());  // a valid EDF+ file: EDFlib's own path
        QCOMPARE(rec->durationS(), 82.0);
        QCOMPARE(rec->startIso(), std::string("2076-11-06T13:43:04"));  // the NonSeizure start
        QCOMPARE(rec->signals().size(), std::size_t(23));
        const long n = 41 * 256;
        for (long s = 0; s < 23; ++s) {
            const SignalInfo& info = rec->signals()[s];
            QCOMPARE(info.label, pre.sig[s].label);
            QCOMPARE(info.rateHz, 256.0);
            QCOMPARE(info.samples, 2LL * n);
            QCOMPARE(info.physicalMin, pre.sig[s].pmin);
            QCOMPARE(info.physicalMax, pre.sig[s].pmax);
            QCOMPARE(info.digitalMin, (long long)pre.sig[s].dmin);
            QCOMPARE(info.digitalMax, (long long)pre.sig[s].dmax);
            const auto d = rec->readDigital(int(s), 0, 2 * n);
            for (long k = 0; k < n; ++k) {
                if (d[k] != pre.digital(s, k)) QFAIL(qPrintable(QString("signal %1 sample %2 differs from NonSeizure").arg(s).arg(k)));
                if (d[n + k] != ictal.digital(s, k)) QFAIL(qPrintable(QString("signal %1 sample %2 differs from Seizure").arg(s).arg(k)));
            }
        }
        QCOMPARE(rec->signals()[22].displayName, std::string("T8-P8 (2)"));
        int seizures = 0;
        for (const auto& a : rec->annotations()) {
            if (a.text != "seizure") continue;
            ++seizures;
            QCOMPARE(a.onsetS, 42.0);
            QCOMPARE(a.durationS, 40.0);
        }
        QCOMPARE(seizures, 1);
    }
};

QTEST_GUILESS_MAIN(TestSampleSplice)
#include "test_sample_splice.moc"
