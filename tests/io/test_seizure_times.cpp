// Seizure times from the real CHB-MIT summary (matched by the name the user gives), from EDF+
// annotations, and the check of regions against the recording.
#include <QtTest>
#undef signals

#include "io/recording.h"
#include "io/regions.h"
#include "io_test_util.h"

using namespace warplab::io;
using iotest::errorOf;

namespace {
const std::string kSummary = std::string(WARPLAB_TEST_DATA) + "/chbmit/chb01-summary.txt";
const std::string kSample = std::string(WARPLAB_SOURCE_DIR) + "/resources/sample/chb01_03_sample.edf";
}  // namespace

class TestSeizureTimes : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void chbSummaryByName_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("start");
        QTest::addColumn<double>("end");
        QTest::newRow("chb01_03.edf") << "chb01_03.edf" << 2996.0 << 3036.0;
        QTest::newRow("with a directory") << "/data/physionet/chb01/chb01_03.edf" << 2996.0 << 3036.0;
        QTest::newRow("without extension") << "chb01_03" << 2996.0 << 3036.0;
        QTest::newRow("chb01_04") << "chb01_04.edf" << 1467.0 << 1494.0;
        QTest::newRow("chb01_15") << "chb01_15.edf" << 1732.0 << 1772.0;
        QTest::newRow("chb01_26") << "chb01_26.edf" << 1862.0 << 1963.0;
    }
    void chbSummaryByName() {
        QFETCH(QString, name);
        QFETCH(double, start);
        QFETCH(double, end);
        auto r = seizuresFromChbSummary(kSummary, name.toStdString());
        QCOMPARE(r.size(), std::size_t(1));
        QCOMPARE(r[0].kind, RegionKind::Seizure);
        QCOMPARE(r[0].channel, -1);
        QCOMPARE(r[0].startS, start);
        QCOMPARE(r[0].endS, end);
    }

    void chbSummaryWithoutSeizures() { QVERIFY(seizuresFromChbSummary(kSummary, "chb01_01.edf").empty()); }

    // The cropped files in tests/data have other names: the summary does not name them.
    void chbSummaryWithoutTheFile() {
        const std::string m = errorOf([&] { seizuresFromChbSummary(kSummary, "chb01_03_Seizure.edf"); });
        QVERIFY2(m.rfind(kSummary + ": File Name: no entry for \"chb01_03_Seizure.edf\"", 0) == 0, m.c_str());
        QVERIFY2(m.find("chb01_01.edf") != std::string::npos, m.c_str());
        QVERIFY(errorOf([&] { seizuresFromChbSummary("/nonexistent/chb99-summary.txt", "x.edf"); }).find("cannot open") != std::string::npos);
    }

    void laterCaseFormatAndMismatch() {
        const std::string p = dir_.filePath("chb05-summary.txt").toStdString();
        iotest::writeFile(p, "File Name: chb05_06.edf\nFile Start Time: 13:11:54\nNumber of Seizures in File: 2\n"
                             "Seizure 1 Start Time: 417 seconds\nSeizure 1 End Time: 532 seconds\n"
                             "Seizure 2 Start Time:  1086 seconds\nSeizure 2 End Time: 1196 seconds\n\n"
                             "File Name: chb05_13.edf\nNumber of Seizures in File: 2\n"
                             "Seizure 1 Start Time: 1086 seconds\nSeizure 1 End Time: 1196 seconds\n");
        auto r = seizuresFromChbSummary(p, "chb05_06.edf");
        QCOMPARE(r.size(), std::size_t(2));
        QCOMPARE(r[1].startS, 1086.0);
        QCOMPARE(r[1].endS, 1196.0);
        const std::string m = errorOf([&] { seizuresFromChbSummary(p, "chb05_13.edf"); });
        QVERIFY2(m.find("says 2 seizures but lists 1 start") != std::string::npos, m.c_str());
    }

    void fromAnnotations() {
        auto sample = Recording::open(kSample);
        auto r = seizuresFromAnnotations(*sample, "SEIZURE");
        QCOMPARE(r.size(), std::size_t(1));
        QCOMPARE(r[0].startS, 42.0);
        QCOMPARE(r[0].endS, 82.0);
        auto mm = Recording::open(std::string(WARPLAB_TEST_DATA) + "/eegmmidb/S001R03.edf");
        auto t1 = seizuresFromAnnotations(*mm, "t1");
        QCOMPARE(t1.size(), std::size_t(8));
        for (const auto& x : t1) QVERIFY(std::abs((x.endS - x.startS) - 4.1) < 1e-9);
        QVERIFY(seizuresFromAnnotations(*mm, "seizure").empty());
    }

    void regionsInsideTheRecording() {
        auto rec = Recording::open(kSample);
        std::vector<Region> ok = {{RegionKind::Seizure, -1, 42, 82, ""}, {RegionKind::Query, 22, 0, 0.5, "q"}};
        QVERIFY(errorOf([&] { checkRegions(*rec, ok); }).empty());
        auto expect = [&](Region bad, const char* reason) {
            std::vector<Region> rs = ok;
            rs.push_back(bad);
            const std::string m = errorOf([&] { checkRegions(*rec, rs); });
            QVERIFY2(m.rfind(kSample + ": regions[2]: ", 0) == 0 && m.find(reason) != std::string::npos, m.c_str());
        };
        expect({RegionKind::Seizure, -1, 80, 83, ""}, "80-83 s ends after the recording's end at 82 s");
        expect({RegionKind::Reference, -1, -1, 3, ""}, "negative start");
        expect({RegionKind::Seizure, -1, 5, 5, ""}, "is empty");
        expect({RegionKind::Seizure, 23, 1, 2, ""}, "channel 23 outside 0..22");
        QCOMPARE(regionKindName(RegionKind::Reference), std::string("reference"));
    }
};

QTEST_GUILESS_MAIN(TestSeizureTimes)
#include "test_seizure_times.moc"
