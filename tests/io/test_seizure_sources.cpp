// Where seizures come from besides the user: annotations whose text names a seizure
// (io/seizure_annotations.h; the bundled sample's "seizure" at 42 s for 40 s) and a CHB-MIT
// summary beside excerpts of the files it names (io/summary_crops.h; the shared CHB-MIT crops).
// io headers first: io::Study has a member named `signals` (a Qt macro).
#include "io/recording.h"
#include "io/seizure_annotations.h"
#include "io/study.h"
#include "io/study_summary.h"
#include "io/summary_crops.h"

#include <QtTest>

using namespace warplab::io;

class TestSeizureSources : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void textsThatNameASeizure() {
        for (const char* yes : {"seizure", "Seizure", "SEIZURE onset", "sz", "Sz1", "sz 2", "electrographic seizures",
                                "seizure-start", "start of SZ"})
            QVERIFY2(annotationNamesSeizure(yes), yes);
        for (const char* no : {"", "chb01_03 from 0 s", "chb01_03 from 2995 s (splice)", "T0", "eyes closed", "size",
                               "buzz", "szx", "pre-ictal"})
            QVERIFY2(!annotationNamesSeizure(no), no);
    }

    void sampleCarriesOneSeizure() {
        auto rec = Recording::open(WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf");
        const auto found = namedSeizureRegions(*rec);
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found[0].startS, 42.0);
        QCOMPARE(found[0].endS, 82.0);
        QCOMPARE(found[0].channel, -1);
        QCOMPARE(found[0].note, std::string("annotation: seizure"));
    }

    // An excerpt is placed by its clock start within the file the summary names.
    void excerptSeizures() {
        SummaryEntry e;
        e.file = "chb01_03.edf";
        e.hasTimes = true;
        e.startClockS = 13 * 3600 + 43 * 60 + 4;  // 13:43:04
        e.endClockS = e.startClockS + 3600;
        e.seizures = {{2996, 3036}};
        StudyRecording r;
        r.name = "chb01_03_Seizure.edf";
        r.startKnown = true;
        r.startIso = "2076-11-06T14:32:59";  // 2995 s into the file
        r.durationS = 41;
        auto got = cropSeizures(e, r);
        QCOMPARE(got.size(), std::size_t(1));
        QCOMPARE(got[0].first, 1.0);
        QCOMPARE(got[0].second, 41.0);
        r.startIso = "2076-11-06T13:43:04";  // the first 41 s: no seizure there
        QVERIFY(cropSeizures(e, r).empty());
        r.startIso = "2076-11-06T14:32:59";
        r.name = "chb01_030.edf";  // another file, not an excerpt
        QVERIFY(cropSeizures(e, r).empty());
        r.name = "chb01_03_Seizure.edf";
        r.startKnown = false;  // no clock: no place
        QVERIFY(cropSeizures(e, r).empty());
    }

    void sharedCropsWithTheirSummary() {
        const std::string folder = WARPLAB_TEST_DATA "/chbmit";
        QVERIFY2(QFile::exists(QString::fromStdString(folder + "/chb01-summary.txt")), "chb01-summary.txt is missing (tests/data/chbmit)");
        QCOMPARE(chbSummaryInFolder(folder), folder + "/chb01-summary.txt");
        StudyOptions o;
        o.seizureSummary = chbSummaryInFolder(folder);
        auto st = Study::openFolder(folder, o);
        QCOMPARE(st->seizures().size(), std::size_t(1));
        const StudySeizure& s = st->seizures()[0];
        QCOMPARE(st->recordings()[std::size_t(s.recording)].name, std::string("chb01_03_Seizure.edf"));
        QCOMPARE(s.startS, 1.0);
        QCOMPARE(s.endS, 41.0);
        QCOMPARE(s.source, std::string("summary (excerpt of chb01_03.edf)"));
        // A folder with no summary, or with two: none chosen.
        QCOMPARE(chbSummaryInFolder(WARPLAB_SOURCE_DIR "/resources/sample"), std::string());
    }
};

QTEST_GUILESS_MAIN(TestSeizureSources)
#include "test_seizure_sources.moc"
