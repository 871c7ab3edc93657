// Events tables (io/events_tsv.h) written and read back, refused with file, line, column and
// reason; reference seizures (io/reference_events.h) from each source: an events table, the
// CHB-MIT summary, the EDF+ annotations of the bundled sample, a regions file.
#include <QTemporaryDir>
#include <QtTest>

#include "io/events_tsv.h"
#include "io/reference_events.h"
#include "io/regions_exchange.h"
#include "io_test_util.h"

using namespace warplab::io;
using iotest::errorOf;

class TestEventsTsv : public QObject {
    Q_OBJECT
private slots:
    void roundTrip() {
        EventTable t;
        t.recordingDurationS = 3600;
        t.rows.push_back({12.5, 30, "sz", "T8-P8", 0.75, ""});
        t.rows.push_back({1000.000001, 4.25, "sz", "", std::nullopt, "2076-11-06T13:43:04"});
        t.rows.push_back({2000, 10, "bckg", "", std::nullopt, ""});
        QTemporaryDir dir;
        const std::string p = dir.filePath("sub-01_events.tsv").toStdString();
        writeEventsTsv(p, t);
        const std::string text = iotest::readFile(p);
        QVERIFY(text.starts_with("onset\tduration\teventType\tconfidence\tchannels\tdateTime\trecordingDuration\n"));
        QVERIFY(text.find("12.5\t30\tsz\t0.75\tT8-P8\tn/a\t3600\n") != std::string::npos);
        const EventTable back = readEventsTsv(p);
        QCOMPARE(back.rows.size(), std::size_t(3));
        QCOMPARE(back.rows[1].onsetS, 1000.000001);
        QCOMPARE(back.rows[0].confidence.value(), 0.75);
        QVERIFY(!back.rows[1].confidence);
        QCOMPARE(back.rows[1].dateTime, std::string("2076-11-06T13:43:04"));
        QCOMPARE(back.rows[0].channels, std::string("T8-P8"));
        QCOMPARE(back.recordingDurationS.value(), 3600.0);
        const auto sz = seizureEvents(back);  // the background row is not a seizure
        QCOMPARE(sz.size(), std::size_t(2));
        QCOMPARE(sz[0].endS, 42.5);
    }

    void minimalTableAnyOrderCrLf() {
        const auto t = parseEventsTsv("duration\tnote\tonset\r\n5\tx\t10\r\n\r\n7.5\ty\t0\r\n", "m.tsv");
        QCOMPARE(t.rows.size(), std::size_t(2));
        QCOMPARE(t.rows[0].onsetS, 10.0);
        QCOMPARE(t.rows[1].durationS, 7.5);
        QVERIFY(isSeizureEventType(t.rows[0].eventType));
        QVERIFY(isSeizureEventType("SZ_foc_ia") && isSeizureEventType("seizure") && !isSeizureEventType("bckg"));
    }

    void refusals_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << "" << "bad.tsv: empty: no header row (onset, duration, ...)";
        QTest::newRow("no onset") << "start\tduration\n1\t2\n" << "bad.tsv: line 1: no 'onset' column in the header (columns are separated by tabs)";
        QTest::newRow("no duration") << "onset\n1\n" << "bad.tsv: line 1: no 'duration' column in the header";
        QTest::newRow("commas") << "onset,duration\n1,2\n" << "bad.tsv: line 1: no 'onset' column in the header (columns are separated by tabs)";
        QTest::newRow("short row") << "onset\tduration\teventType\n1\t2\tsz\n3\t4\n"
                                   << "bad.tsv: line 3: has 2 fields, the header 3 (fields are separated by tabs)";
        QTest::newRow("bad onset") << "onset\tduration\n1\t2\nabc\t4\n"
                                   << "bad.tsv: line 3, column 'onset': 'abc' is not a finite number of seconds";
        QTest::newRow("nan duration") << "onset\tduration\n1\tnan\n"
                                      << "bad.tsv: line 2, column 'duration': 'nan' is not a finite number of seconds";
        QTest::newRow("negative") << "onset\tduration\n-1\t2\n" << "bad.tsv: line 2, column 'onset': is negative";
        QTest::newRow("confidence") << "onset\tduration\tconfidence\n1\t2\thigh\n"
                                    << "bad.tsv: line 2, column 'confidence': 'high' is not a number";
        QTest::newRow("durations disagree") << "onset\tduration\trecordingDuration\n1\t2\t100\n3\t4\t200\n"
                                            << "bad.tsv: line 3, column 'recordingDuration': disagrees with an earlier row (100 s)";
    }
    void refusals() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        QCOMPARE(QString::fromStdString(errorOf([&] { parseEventsTsv(text.toStdString(), "bad.tsv"); })), message);
    }

    void referenceFromEachSource() {
        const std::string data = WARPLAB_TEST_DATA;
        // The CHB-MIT summary: chb01_03's seizure, and its length from the clock times.
        const auto s = readReferenceEvents(data + "/chbmit/chb01-summary.txt", "/anywhere/chb01_03.edf");
        QCOMPARE(s.source, std::string("CHB-MIT summary"));
        QCOMPARE(s.events.size(), std::size_t(1));
        QCOMPARE(s.events[0].startS, 2996.0);
        QCOMPARE(s.events[0].endS, 3036.0);
        QCOMPARE(s.durationS.value(), 3600.0);
        QVERIFY(errorOf([&] { readReferenceEvents(data + "/chbmit/chb01-summary.txt", ""); }).find("--recording") !=
                std::string::npos);
        QVERIFY(errorOf([&] { readReferenceEvents(data + "/chbmit/chb01-summary.txt", "chb99_01.edf"); })
                    .ends_with("has no entry for chb99_01.edf"));
        // The bundled sample's EDF+ annotation "seizure" at 42 s for 40 s.
        const std::string sample = WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf";
        const auto a = readReferenceEvents(sample, "");
        QCOMPARE(a.source, std::string("EDF+ annotations"));
        QCOMPARE(a.events.size(), std::size_t(1));
        QCOMPARE(a.events[0].startS, 42.0);
        QCOMPARE(a.events[0].endS, 82.0);
        QCOMPARE(a.durationS.value(), 82.0);  // the seizure runs to the end of the file
        // A regions file: only its seizure regions.
        QTemporaryDir dir;
        const std::string csv = iotest::writeIn(dir, "x_regions.csv",
                                                "kind,channel,start_s,end_s,note\nseizure,all,10,20,a\nquery,all,30,40,\n");
        const auto r = readReferenceEvents(csv, "");
        QCOMPARE(r.events.size(), std::size_t(1));
        QCOMPARE(r.events[0].endS, 20.0);
        // An events table, and what is not a reference.
        const std::string tsv = iotest::writeIn(dir, "e_events.tsv", "onset\tduration\teventType\n5\t10\tsz\n50\t5\tbckg\n");
        QCOMPARE(readReferenceEvents(tsv, "").events.size(), std::size_t(1));
        const std::string other = iotest::writeIn(dir, "notes.txt", "hello\n");
        QVERIFY(errorOf([&] { readReferenceEvents(other, ""); }).starts_with(other + ": not a reference the scorer reads"));
        QCOMPARE(QString::fromStdString(errorOf([&] { readReferenceEvents(dir.filePath("none.tsv").toStdString(), ""); })),
                 dir.filePath("none.tsv") + ": no such file");
    }
};

QTEST_GUILESS_MAIN(TestEventsTsv)
#include "test_events_tsv.moc"
