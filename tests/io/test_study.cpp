// io::Study on generated studies (EdfWriter files in a temporary folder: order, gaps, a
// channel missing from one file, a repeated label, seizures from a summary and from
// annotations, lazy reads equal to the recording's own, and every kind of bad input) and on
// tests/data (the two CHB-MIT excerpts as a two-file study; chb01-summary.txt parsed whole).
#include <QtTest>
#undef signals

#include <filesystem>
#include <random>

#include "io/recording.h"
#include "io/study.h"
#include "io/study_summary.h"
#include "io_test_util.h"
#include "study_fixture.h"

using namespace warplab::io;
namespace fx = study_fixture;

namespace {

const std::string kData = WARPLAB_TEST_DATA;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

bool anyWarning(const Study& st, const std::string& a, const std::string& b = {}) {
    for (const auto& w : st.warnings())
        if (contains(w, a) && contains(w, b)) return true;
    return false;
}

}  // namespace

class TestStudy : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string folder_;

    std::string sub(const std::string& name) {
        const std::string p = dir_.filePath(QString::fromStdString(name)).toStdString();
        std::filesystem::create_directories(p);
        return p;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        folder_ = sub("full");
        fx::writeFiles(folder_);
        fx::writeSummary(folder_ + "/study-summary.txt", false);
        fx::writeSummary(folder_ + "/with-missing-summary.txt", true);
    }

    void folderOrderGapsChannels() {
        auto st = Study::openFolder(folder_);
        QCOMPARE(st->source(), StudySource::Folder);
        QCOMPARE(int(st->recordings().size()), 4);
        const std::vector<std::string> names = {"s_a.edf", "s_b.edf", "s_c.edf", "s_d.edf"};
        const std::vector<double> offsets = {0, 60, 300, 355};
        for (int i = 0; i < 4; ++i) {
            const auto& r = st->recordings()[std::size_t(i)];
            QCOMPARE(r.name, names[std::size_t(i)]);
            QCOMPARE(r.status, RecordingStatus::Ok);
            QCOMPARE(r.offsetS, offsets[std::size_t(i)]);
            QCOMPARE(r.durationS, double(fx::files()[std::size_t(i)].seconds));
            QCOMPARE(r.timeSource, std::string("header"));
        }
        QCOMPARE(st->recordings()[2].startIso, std::string("2020-02-03T10:05:00"));
        QCOMPARE(int(st->gaps().size()), 3);
        QCOMPARE(st->gaps()[0].seconds, 0.0);
        QCOMPARE(st->gaps()[1].seconds, 195.0);
        QCOMPARE(st->gaps()[2].seconds, 5.0);
        QVERIFY(st->missing().empty());
        QVERIFY(st->damaged().empty());
        // Channels by display name: the repeated label becomes "T8-P8 (2)"; CZ is absent from s_b.
        QCOMPARE(int(st->channels().size()), 4);
        QCOMPARE(st->channels()[2].name, std::string("T8-P8 (2)"));
        QCOMPARE(st->channels()[2].recordingCount, 4);
        const int cz = st->findChannel("CZ");
        QCOMPARE(cz, 3);
        QCOMPARE(st->channels()[3].recordingCount, 3);
        QCOMPARE(st->channels()[3].signalOf[1], -1);
        QCOMPARE(st->skippedFor(cz), std::vector<int>{1});
        QCOMPARE(st->channels()[0].rateHz, double(fx::kRate));
        QCOMPARE(st->channels()[0].totalSamples, 185LL * fx::kRate);
        QCOMPARE(st->findChannel("#2"), 2);
        QCOMPARE(st->findChannel("nope"), -1);
        // Clock times of places in the study.
        QCOMPARE(st->clockTime(2, 10.5), std::string("2020-02-03T10:05:10.500"));
        QCOMPARE(st->clockText(3600 * 14 + 1), std::string("2020-02-04T00:00:01.000"));
        // No seizure source asked for: none.
        QVERIFY(st->seizures().empty());
    }

    void lazyReadsEqualTheRecording() {
        auto st = Study::openFolder(folder_);
        auto rec0 = [&] { return Recording::open(folder_ + "/s_a.edf"); };
        for (int r : {0, 3}) {
            auto rec = Recording::open(st->recordings()[std::size_t(r)].path);
            for (int c = 0; c < 4; ++c) {
                const std::string& name = st->channels()[std::size_t(c)].name;
                const int sig = rec->findSignal(name);
                QVERIFY(sig >= 0);
                QCOMPARE(st->sampleCount(r, c), rec->signals()[std::size_t(sig)].samples);
                QCOMPARE(st->read(r, c, 100, 333), rec->read(sig, 100, 333));
            }
        }
        // read() opens for samples only; recording() (for a view) has the annotations all the same.
        QCOMPARE(st->recording(0)->annotations().size(), std::size_t(2));
        QCOMPARE(st->recording(0)->format(), Format::EDFPlusC);
        QVERIFY(st->recording(0)->warnings().empty());
        QCOMPARE(st->read(0, 1, 0, 50), rec0()->read(1, 0, 50));
        // The missing channel and a range outside the recording are refused, naming the file.
        QVERIFY(contains(iotest::errorOf([&] { st->read(1, 3, 0, 10); }), "s_b.edf"));
        QVERIFY(contains(iotest::errorOf([&] { st->read(1, 0, 0, 45 * fx::kRate + 1); }), "s_b.edf"));
        QCOMPARE(st->sampleCount(1, 3), 0LL);
        // More recordings than the open limit: reads still work (files reopen on demand).
        StudyOptions o;
        o.openRecordingLimit = 1;
        auto one = Study::openFolder(folder_, o);
        for (int r = 0; r < 4; ++r) QCOMPARE(one->read(r, 0, 5, 7), st->read(r, 0, 5, 7));
    }

    void seizuresFromAnnotationsAndRegions() {
        StudyOptions o;
        o.annotationPattern = "seizure";
        auto st = Study::openFolder(folder_, o);
        QCOMPARE(int(st->seizures().size()), 2);
        QCOMPARE(st->seizures()[0].recording, 0);
        QCOMPARE(st->seizures()[0].startS, 20.0);
        QCOMPARE(st->seizures()[0].endS, 35.0);
        QCOMPARE(st->seizures()[1].recording, 2);
        QCOMPARE(st->seizures()[1].startS, 10.0);
        QVERIFY(contains(st->seizures()[1].source, "annotation"));
        QVERIFY(st->seizureSpans(1, 0).empty());
        // A user region on one channel of s_d (signal index 3 there = CZ).
        st->addRegions(3, {{RegionKind::Seizure, 3, 2, 4, "mine"}, {RegionKind::Query, -1, 1, 2, "ignored"}});
        QCOMPARE(int(st->seizures().size()), 3);
        QCOMPARE(st->seizures()[2].channel, st->findChannel("CZ"));
        QCOMPARE(int(st->seizureSpans(3, st->findChannel("CZ")).size()), 1);
        QVERIFY(st->seizureSpans(3, 0).empty());
        QVERIFY(contains(iotest::errorOf([&] { st->addRegions(3, {{RegionKind::Seizure, -1, 20, 31, ""}}); }), "s_d.edf"));
        // The user's regions of a recording come back as regions (for sessions) and can be replaced.
        const auto mine = st->regionsOf(3);
        QCOMPARE(int(mine.size()), 1);
        QCOMPARE(mine[0].channel, 3);
        QCOMPARE(mine[0].note, std::string("mine"));
        QCOMPARE(mine[0].endS, 4.0);
        st->setRegions(3, {{RegionKind::Seizure, -1, 5, 9, "new"}});
        QCOMPARE(int(st->seizures().size()), 3);
        QCOMPARE(st->regionsOf(3)[0].startS, 5.0);
        QVERIFY(st->regionsOf(0).empty());  // annotation seizures are not user regions
        QVERIFY(!iotest::errorOf([&] { st->setRegions(3, {{RegionKind::Seizure, -1, 1, 2, ""}, {RegionKind::Seizure, -1, 29, 40, ""}}); }).empty());
        QCOMPARE(st->regionsOf(3)[0].startS, 5.0);  // unchanged after a refused replacement
        st->setRegions(3, {});
        QCOMPARE(int(st->seizures().size()), 2);
        // The same seizures from a summary given to a folder study.
        StudyOptions s;
        s.seizureSummary = folder_ + "/study-summary.txt";
        auto bySummary = Study::openFolder(folder_, s);
        QCOMPARE(int(bySummary->seizures().size()), 2);
        QCOMPARE(bySummary->seizures()[1].recording, 2);
        QCOMPARE(bySummary->seizures()[1].endS, 30.0);
    }

    void summaryStudy() {
        auto st = Study::open(folder_ + "/study-summary.txt");
        QCOMPARE(st->source(), StudySource::Summary);
        QCOMPARE(int(st->recordings().size()), 4);
        QCOMPARE(st->recordings()[3].offsetS, 355.0);
        QCOMPARE(st->recordings()[3].timeSource, std::string("summary"));
        // A header dated the summary: clock times carry the date.
        QCOMPARE(st->recordings()[2].startIso, std::string("2020-02-03T10:05:00"));
        QCOMPARE(int(st->seizures().size()), 2);
        QCOMPARE(st->seizures()[0].source, std::string("summary"));
        QCOMPARE(st->recordings()[1].summaryChannels.size(), std::size_t(3));  // "Channels changed" without CZ
        QCOMPARE(st->recordings()[2].summaryChannels.size(), std::size_t(4));
        for (const auto& w : st->warnings()) QVERIFY2(false, w.c_str());  // montage lists agree with the headers
    }

    void summaryWithMissingFile() {
        auto st = Study::open(folder_ + "/with-missing-summary.txt");
        QCOMPARE(st->missing(), std::vector<int>{4});
        const auto& e = st->recordings()[4];
        QCOMPARE(e.name, std::string("s_e.edf"));
        QCOMPARE(e.status, RecordingStatus::Missing);
        QVERIFY(contains(e.error, "not found"));
        QCOMPARE(e.offsetS, 420.0);  // placed on the time line by the summary
        QCOMPARE(e.durationS, 60.0);
        QVERIFY(contains(iotest::errorOf([&] { st->read(4, 0, 0, 1); }), "s_e.edf"));
        // Channels and the other recordings are unaffected.
        QCOMPARE(st->channels()[0].recordingCount, 4);
    }

    void overlappingRecordingsAreKept() {
        const std::string d = sub("overlap");
        fx::writeFiles(d, {0});
        // s_b again, but starting 30 s into s_a.
        std::filesystem::copy_file(folder_ + "/s_b.edf", d + "/s_b.edf");
        auto bytes = iotest::readFile(d + "/s_b.edf");
        bytes.replace(176, 8, "10.00.30");
        iotest::writeFile(d + "/s_b.edf", bytes);
        auto st = Study::openFolder(d);
        QCOMPARE(int(st->recordings().size()), 2);
        QCOMPARE(st->gaps()[0].seconds, -30.0);
        QVERIFY(anyWarning(*st, "s_b.edf", "s_a.edf"));
        QVERIFY(anyWarning(*st, "overlap"));
    }

    void differentRatesAreRefused() {
        const std::string d = sub("rates");
        fx::writeFiles(d, {0});
        std::vector<EdfWriterSignal> sig = {{"FP1-F7", "uV", "", "", -500, 500, -32768, 32767, 128}};
        EdfWriterHeader h;
        h.year = 2020;
        h.month = 2;
        h.day = 3;
        h.hour = 11;
        {
            EdfWriter w(d + "/fast.edf", h, sig);
            std::vector<double> rec(128, 1.0);
            for (int r = 0; r < 3; ++r) w.writeRecordPhysical(rec.data());
            w.close();
        }
        const std::string err = iotest::errorOf([&] { Study::openFolder(d); });
        QVERIFY2(contains(err, "fast.edf") && contains(err, "s_a.edf") && contains(err, "FP1-F7") &&
                     contains(err, "128") && contains(err, "64"),
                 err.c_str());
    }

    void badFolders() {
        const std::string empty = sub("empty");
        iotest::writeFile(empty + "/notes.txt", "nothing here");
        QVERIFY(contains(iotest::errorOf([&] { Study::openFolder(empty); }), "no recording"));
        QVERIFY(contains(iotest::errorOf([&] { Study::open(empty + "/notes.txt"); }), "not a study"));
        QVERIFY(contains(iotest::errorOf([&] { Study::open(empty + "/none"); }), "no such"));
        QVERIFY(contains(iotest::errorOf([&] { Study::openList({}); }), "empty"));
        // A damaged file is named, never dropped silently; the others open.
        const std::string dmg = sub("damaged");
        fx::writeFiles(dmg, {0, 2});
        iotest::writeFile(dmg + "/s_x.edf", "0       this is not an EDF header");
        auto st = Study::openFolder(dmg);
        QCOMPARE(int(st->recordings().size()), 3);
        QCOMPARE(int(st->damaged().size()), 1);
        const auto& bad = st->recordings()[std::size_t(st->damaged()[0])];
        QCOMPARE(bad.name, std::string("s_x.edf"));
        QVERIFY(!bad.error.empty());
        QVERIFY(anyWarning(*st, "s_x.edf", "cannot be read"));
        QCOMPARE(st->channels()[0].recordingCount, 2);
        // A summary that lists a file twice, or a broken seizure line.
        iotest::writeFile(dmg + "/twice.txt", "File Name: s_a.edf\nFile Name: s_a.edf\n");
        QVERIFY(contains(iotest::errorOf([&] { Study::openSummary(dmg + "/twice.txt"); }), "second time"));
        iotest::writeFile(dmg + "/bad.txt", "File Name: s_a.edf\nNumber of Seizures in File: 1\nSeizure Start Time: soon\n");
        const std::string err = iotest::errorOf([&] { Study::openSummary(dmg + "/bad.txt"); });
        QVERIFY2(contains(err, "bad.txt") && contains(err, "line 3"), err.c_str());
        iotest::writeFile(dmg + "/count.txt", "File Name: s_a.edf\nNumber of Seizures in File: 2\nSeizure Start Time: 1\nSeizure End Time: 2\n");
        QVERIFY(contains(iotest::errorOf([&] { Study::openSummary(dmg + "/count.txt"); }), "says 2 seizures"));
    }

    void unknownStartTime() {
        const std::string d = sub("nodate");
        fx::writeFiles(d, {0, 2});
        auto bytes = iotest::readFile(d + "/s_a.edf");
        bytes.replace(168, 8, "xx.yy.zz");
        iotest::writeFile(d + "/s_a.edf", bytes);
        auto st = Study::openFolder(d);
        // Known starts first, then the undated file after it, no gap assumed, with a warning.
        QCOMPARE(st->recordings()[0].name, std::string("s_c.edf"));
        QCOMPARE(st->recordings()[1].name, std::string("s_a.edf"));
        QVERIFY(!st->recordings()[1].startKnown);
        QCOMPARE(st->recordings()[1].timeSource, std::string("none"));
        QCOMPARE(st->recordings()[1].startIso, std::string());
        QCOMPARE(st->recordings()[1].offsetS, 50.0);
        QCOMPARE(st->gaps()[0].seconds, 0.0);
        QVERIFY(anyWarning(*st, "s_a.edf", "no usable start"));
        // One EDF file is a one-recording study.
        auto one = Study::open(d + "/s_c.edf");
        QCOMPARE(one->source(), StudySource::List);
        QCOMPARE(int(one->recordings().size()), 1);
    }

    // Mutations of the real summary (truncations, flipped bytes, repeated lines) end in a
    // study or an IoError, never in another exception or a crash.
    void mutatedSummaries() {
        const std::string real = iotest::readFile(kData + "/chbmit/chb01-summary.txt");
        const std::string d = sub("mutated");
        std::mt19937 rng(12345);
        int opened = 0, refused = 0;
        for (int i = 0; i < 300; ++i) {
            std::string t = real;
            switch (i % 3) {
            case 0: t.resize(rng() % t.size()); break;
            case 1:
                for (int k = 0; k < 8; ++k) t[rng() % t.size()] = "0123456789:*\n -xZ"[rng() % 17];
                break;
            default: {
                const std::size_t at = rng() % t.size(), len = rng() % 200;
                t.insert(rng() % t.size(), t.substr(at, len));
            }
            }
            const std::string p = d + "/m-summary.txt";
            iotest::writeFile(p, t);
            try {
                auto st = Study::openSummary(p);
                for (std::size_t r = 1; r < st->recordings().size(); ++r)
                    QVERIFY(st->recordings()[r].offsetS >= st->recordings()[r - 1].offsetS);
                ++opened;
            } catch (const warplab::compute::EngineError&) {
                ++refused;
            } catch (const std::exception& e) {
                QFAIL(e.what());
            }
        }
        QVERIFY(opened > 0 && refused > 0);
    }

    void listStudy() {
        auto st = Study::openList({folder_ + "/s_c.edf", folder_ + "/s_a.edf"});
        QCOMPARE(st->source(), StudySource::List);
        QCOMPARE(st->recordings()[0].name, std::string("s_a.edf"));  // ordered by start, not by the list
        QCOMPARE(st->gaps()[0].seconds, 240.0);
        QVERIFY(contains(iotest::errorOf([&] { Study::openList({folder_ + "/s_a.edf", folder_ + "/s_a.edf"}); }), "twice"));
        auto withMissing = Study::openList({folder_ + "/s_a.edf", folder_ + "/gone.edf"});
        QCOMPARE(withMissing->missing().size(), std::size_t(1));
    }

    void patternAndSearchInputs() {
        StudyOptions o;
        o.annotationPattern = "seizure";
        auto st = Study::openFolder(folder_, o);
        std::vector<std::string> skipped;
        const auto req = studyPatternRequest(*st, st->findChannel("CZ"), &skipped);
        QCOMPARE(int(req.segments.size()), 3);
        QCOMPARE(skipped, std::vector<std::string>{"s_b.edf: no channel CZ"});
        QCOMPARE(req.segments[1].recording, std::string("s_c.edf"));
        QCOMPARE(req.segments[1].clockStartS, 300.0);
        QCOMPARE(int(req.segments[1].seizures.size()), 1);
        QCOMPARE(req.rateHz, double(fx::kRate));
        std::vector<float> v(10);
        req.segments[2].reader(3, 10, v.data());
        QCOMPARE(v, st->read(3, 3, 3, 10));
        skipped.clear();
        const auto src = studySearchSources(*st, {0, 3}, &skipped);
        QCOMPARE(int(src.size()), 7);
        QCOMPARE(skipped.size(), std::size_t(1));
        QCOMPARE(src[1].channel, std::string("CZ"));
        QCOMPARE(src[2].recording, std::string("s_b.edf"));
        QCOMPARE(src[2].load().values, st->read(1, 0, 0, 45 * fx::kRate));
    }

    // The two CHB-MIT excerpts of tests/data as a folder study.
    void realExcerpts() {
        auto st = Study::openFolder(kData + "/chbmit");
        QCOMPARE(int(st->recordings().size()), 2);
        QCOMPARE(st->recordings()[0].name, std::string("chb01_03_NonSeizure.edf"));  // 13:43:04
        QCOMPARE(st->recordings()[1].name, std::string("chb01_03_Seizure.edf"));     // 14:32:59
        // "06.11.76": EDF years 85-99 are 19xx and 00-84 20xx, so 76 reads as 2076.
        QCOMPARE(st->recordings()[0].startIso, std::string("2076-11-06T13:43:04"));
        QCOMPARE(st->gaps()[0].seconds, 2995.0 - 41.0);
        QCOMPARE(int(st->channels().size()), 23);
        QVERIFY(st->findChannel("T8-P8 (2)") >= 0);
        for (const auto& c : st->channels()) QCOMPARE(c.recordingCount, 2);
        auto rec = Recording::open(kData + "/chbmit/chb01_03_Seizure.edf");
        const int c = st->findChannel("FP1-F7");
        QCOMPARE(st->read(1, c, 256, 1000), rec->read(rec->findSignal("FP1-F7"), 256, 1000));
    }

    // chb01-summary.txt: 42 entries, 7 seizures, day roll-over, the channel list; none of its
    // files is here, so every recording is missing and reported.
    void realSummary() {
        const ChbSummary sum = parseChbSummary(kData + "/chbmit/chb01-summary.txt");
        QCOMPARE(sum.rateHz, 256.0);
        QCOMPARE(int(sum.entries.size()), 42);
        QCOMPARE(int(sum.entries[0].channels.size()), 23);
        QCOMPARE(sum.entries[0].channels[22], std::string("T8-P8"));
        QCOMPARE(sum.entries[2].file, std::string("chb01_03.edf"));
        QCOMPARE(sum.entries[2].seizures, (std::vector<std::pair<double, double>>{{2996, 3036}}));
        auto st = Study::open(kData + "/chbmit/chb01-summary.txt");
        QCOMPARE(int(st->recordings().size()), 42);
        QCOMPARE(int(st->missing().size()), 42);
        QCOMPARE(int(st->seizures().size()), 7);
        QVERIFY(st->channels().empty());
        const int r14 = st->findRecording("chb01_14.edf");
        QCOMPARE(r14, 13);
        QCOMPARE(st->recordings()[13].offsetS, 86400.0 + 2677.0 - 42174.0);  // 00:44:37 the next day
        QCOMPARE(st->recordings()[12].durationS, 3600.0);                     // 23:44:29 to 24:44:29
        QCOMPARE(st->recordings()[13].startIso, std::string("+1d 00:44:37"));  // no file gives the date
        const int r3 = st->findRecording("chb01_03.edf");
        QCOMPARE(st->seizures()[0].recording, r3);
        QCOMPARE(st->seizures()[0].startS, 2996.0);
        for (std::size_t i = 1; i < st->recordings().size(); ++i)
            QVERIFY(st->recordings()[i].offsetS > st->recordings()[i - 1].offsetS);
    }
};

QTEST_GUILESS_MAIN(TestStudy)
#include "test_study.moc"
