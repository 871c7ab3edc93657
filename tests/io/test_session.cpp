// Session files: exact round trip, unknown and newer fields kept, atomic save, bad files.
#include <QtTest>
#undef signals

#include <filesystem>

#include "io/session.h"
#include "io_test_util.h"

using namespace warplab;
using namespace warplab::io;
using iotest::errorOf;

namespace {

Session example() {
    Session s;
    s.recordingPath = "/data/chb01_03_sample.edf";
    s.montage = {"FP1-F7", "T8-P8 (2)", "Fc5.-Fc3."};
    s.filters.highpassHz = 0.5;
    s.filters.lowpassHz = 40.1;
    s.filters.notchHz = 50;
    s.filters.order = 3;
    s.filters.applyToAnalysis = true;
    s.regions = {{RegionKind::Seizure, -1, 42, 82, "from annotation"},
                 {RegionKind::Query, 22, 0.1, 1.0 / 3.0, "ünïcode note, \"quoted\""},
                 {RegionKind::Reference, 3, 5, 10.000000000000002, ""}};
    s.params.metric = compute::Metric::Twed;
    s.params.nu = 0.0001234;
    s.params.lambda = 0.7;
    s.params.rate = 256;
    s.params.band = 12;
    s.params.cost = compute::Cost::Absolute;
    s.params.sqrt = true;
    s.channel = "FP1-F7";
    s.backend = "cpu";
    s.kernel = "cpu.simd";
    return s;
}

void compareSessions(const Session& a, const Session& b) {
    QCOMPARE(a.recordingPath, b.recordingPath);
    QVERIFY(a.montage == b.montage);
    QCOMPARE(a.filters.highpassHz, b.filters.highpassHz);
    QCOMPARE(a.filters.lowpassHz, b.filters.lowpassHz);
    QCOMPARE(a.filters.notchHz, b.filters.notchHz);
    QCOMPARE(a.filters.order, b.filters.order);
    QCOMPARE(a.filters.applyToAnalysis, b.filters.applyToAnalysis);
    QCOMPARE(a.regions.size(), b.regions.size());
    for (std::size_t i = 0; i < a.regions.size(); ++i) {
        QCOMPARE(a.regions[i].kind, b.regions[i].kind);
        QCOMPARE(a.regions[i].channel, b.regions[i].channel);
        QCOMPARE(a.regions[i].startS, b.regions[i].startS);  // exact, not approximately
        QCOMPARE(a.regions[i].endS, b.regions[i].endS);
        QCOMPARE(a.regions[i].note, b.regions[i].note);
    }
    QCOMPARE(a.params.metric, b.params.metric);
    QCOMPARE(a.params.cost, b.params.cost);
    QCOMPARE(a.params.band, b.params.band);
    QCOMPARE(a.params.gamma, b.params.gamma);
    QCOMPARE(a.params.nu, b.params.nu);
    QCOMPARE(a.params.lambda, b.params.lambda);
    QCOMPARE(a.params.degree, b.params.degree);
    QCOMPARE(a.params.rate, b.params.rate);
    QCOMPARE(a.params.znorm, b.params.znorm);
    QCOMPARE(a.params.sqrt, b.params.sqrt);
    QCOMPARE(a.params.topk, b.params.topk);
    QCOMPARE(a.channel, b.channel);
    QCOMPARE(a.backend, b.backend);
    QCOMPARE(a.kernel, b.kernel);
}

}  // namespace

class TestSession : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* n) { return dir_.filePath(n).toStdString(); }

private slots:
    void roundTripExact() {
        const std::string p = path("a.warplab.json");
        saveSession(p, example());
        const Session back = loadSession(p);
        compareSessions(example(), back);
        saveSession(p, back);  // a second save of what was read changes nothing
        QCOMPARE(iotest::readFile(p), sessionToJson(loadSession(p)).dump(2) + "\n");
    }

    void unknownAndNewerFieldsKept() {
        const std::string p = path("newer.json");
        auto j = sessionToJson(example());
        j["warplab_session"] = 7;
        j["future_panel"] = {{"zoom", 2.5}, {"tabs", {"a", "b"}}};
        j["filters"]["rolloff"] = "steep";
        j["analysis"]["params"]["warp_penalty"] = 0.25;
        j["regions"][1]["colour"] = "#ff0000";
        iotest::writeFile(p, j.dump());
        Session s = loadSession(p);
        QCOMPARE(s.version, 7);
        s.regions[0].note = "edited";  // the user changes something, then saves
        saveSession(p, s);
        const auto out = nlohmann::json::parse(iotest::readFile(p));
        QCOMPARE(out["warplab_session"].get<int>(), 7);
        QCOMPARE(out["future_panel"]["zoom"].get<double>(), 2.5);
        QCOMPARE(out["filters"]["rolloff"].get<std::string>(), std::string("steep"));
        QCOMPARE(out["analysis"]["params"]["warp_penalty"].get<double>(), 0.25);
        QCOMPARE(out["regions"][1]["colour"].get<std::string>(), std::string("#ff0000"));
        QCOMPARE(out["regions"][0]["note"].get<std::string>(), std::string("edited"));
    }

    // A session with a study: its source and the regions of each recording come
    // back exactly; a session without one (every older file) has none and writes no "study".
    void studyRoundTrip() {
        const std::string p = path("study.warplab.json");
        Session s = example();
        s.studyPath = "/data/chb01/chb01-summary.txt";
        s.studyRegions["chb01_03.edf"] = {{RegionKind::Seizure, -1, 2996, 3036, "summary"},
                                          {RegionKind::Query, 4, 10.25, 11.5, "spike"}};
        s.studyRegions["chb01_04.edf"] = {{RegionKind::Seizure, 2, 1467, 1494.000000000001, "mine"}};
        saveSession(p, s);
        const Session back = loadSession(p);
        compareSessions(s, back);
        QCOMPARE(back.studyPath, s.studyPath);
        QCOMPARE(back.studyRegions.size(), std::size_t(2));
        for (const auto& [name, list] : s.studyRegions) {
            const auto& got = back.studyRegions.at(name);
            QCOMPARE(got.size(), list.size());
            for (std::size_t i = 0; i < list.size(); ++i) {
                QCOMPARE(got[i].kind, list[i].kind);
                QCOMPARE(got[i].channel, list[i].channel);
                QCOMPARE(got[i].startS, list[i].startS);
                QCOMPARE(got[i].endS, list[i].endS);
                QCOMPARE(got[i].note, list[i].note);
            }
        }
        // Closing the study: the next save drops it.
        Session closed = back;
        closed.studyPath.clear();
        closed.studyRegions.clear();
        saveSession(p, closed);
        QVERIFY(!nlohmann::json::parse(iotest::readFile(p)).contains("study"));
        QVERIFY(loadSession(p).studyPath.empty());
        // An old session (no "study") loads with no study; a broken one is named.
        const std::string old = path("old.json");
        iotest::writeFile(old, R"({"warplab_session": 1, "recording": "/x.edf"})");
        QVERIFY(loadSession(old).studyPath.empty());
        iotest::writeFile(old, R"({"warplab_session": 1, "recording": "/x.edf", "study": {"source": "/d", "regions": {"a.edf": 3}}})");
        QVERIFY(errorOf([&] { loadSession(old); }).find("study.regions.a.edf") != std::string::npos);
    }

    void frequencyBandsRoundTrip() {
        const std::string p = path("bands.warplab.json");
        Session s = example();
        s.freqBands.bands = {compute::spectral::parseFrequencyBand("alpha"), compute::spectral::parseFrequencyBand("mu=8-12.5"),
                             compute::spectral::parseFrequencyBand("0.5-4")};
        s.freqBands.order = 6;
        s.freqBands.applyToDisplay = true;
        saveSession(p, s);
        QVERIFY(loadSession(p).freqBands == s.freqBands);
        const auto j = nlohmann::json::parse(iotest::readFile(p));
        QCOMPARE(j["analysis"]["frequency_bands"]["bands"][1]["name"].get<std::string>(), std::string("mu"));
        QCOMPARE(j["analysis"]["frequency_bands"]["bands"][1]["high_hz"].get<double>(), 12.5);
        // A session from before frequency bands loads with none; a bad band is named.
        const std::string old = path("old_bands.json");
        iotest::writeFile(old, R"({"warplab_session": 1, "recording": "/x.edf", "analysis": {"channel": "C3"}})");
        QVERIFY(loadSession(old).freqBands == compute::spectral::BandChoice{});
        iotest::writeFile(old, R"({"warplab_session": 1, "analysis": {"frequency_bands": {"bands": [{"name": "x", "low_hz": 13, "high_hz": 8}]}}})");
        const std::string e = errorOf([&] { loadSession(old); });
        QVERIFY2(e.find("analysis.frequency_bands.bands[0]") != std::string::npos && e.find("x (13-8 Hz)") != std::string::npos,
                 e.c_str());
        iotest::writeFile(old, R"({"warplab_session": 1, "analysis": {"frequency_bands": {"order": 40}}})");
        QVERIFY(errorOf([&] { loadSession(old); }).find("analysis.frequency_bands.order") != std::string::npos);
    }

    void atomicSaveLeavesNoTemporary() {
        QTemporaryDir sub;
        const std::string p = sub.filePath("s.json").toStdString();
        iotest::writeFile(p, "{\"warplab_session\": 1, \"recording\": \"old.edf\"}");
        saveSession(p, example());
        std::size_t files = 0;
        for (auto& e : std::filesystem::directory_iterator(sub.path().toStdString())) {
            (void)e;
            ++files;
        }
        QCOMPARE(files, std::size_t(1));
        QCOMPARE(loadSession(p).recordingPath, example().recordingPath);
        // A save that cannot happen leaves the old file untouched.
        const std::string m = errorOf([&] { saveSession(sub.filePath("missing/dir/s.json").toStdString(), example()); });
        QVERIFY2(m.find("missing/dir/s.json") != std::string::npos, m.c_str());
    }

    // Paths in a session are data: relative ones are taken from the session's folder (never the
    // current directory), and those outside that folder are named for the GUI to show.
    void pathsAreTakenFromTheSessionFolder() {
        namespace fs = std::filesystem;
        QTemporaryDir sub;
        const fs::path dir = fs::path(sub.path().toStdString()).lexically_normal();
        const std::string p = (dir / "s.json").string();
        iotest::writeFile(p, R"({"warplab_session": 1, "recording": "rec/a.edf", "study": {"source": "."}})");
        Session s = loadSession(p);
        QCOMPARE(s.recordingPath, (dir / "rec/a.edf").string());
        QCOMPARE(s.studyPath, dir.string() + "/");
        QVERIFY(sessionPathsOutside(s, p).empty());
        iotest::writeFile(p, R"({"warplab_session": 1, "recording": "../../x/b.edf", "study": {"source": "/data/chb01"}})");
        s = loadSession(p);
        QCOMPARE(s.recordingPath, (dir.parent_path().parent_path() / "x/b.edf").string());
        const auto outside = sessionPathsOutside(s, p);
        QCOMPARE(outside.size(), std::size_t(2));
        QCOMPARE(outside[0], s.recordingPath);
        QCOMPARE(outside[1], std::string("/data/chb01"));
        // A name that only starts like the folder ("<dir>-other") is outside too.
        s.recordingPath = dir.string() + "-other/c.edf";
        s.studyPath.clear();
        QVERIFY(sessionPathsOutside(s, p) == std::vector<std::string>{s.recordingPath});
    }

    void badFiles_data() {
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << "{\"warplab_session\": 1," << "json: not valid JSON at byte";
        // A number beyond double range: the JSON library throws out_of_range, not a parse error.
        QTest::newRow("number overflow") << "{\"warplab_session\": 1, \"x\": 1e400}" << "json: not valid JSON: [json.exception.out_of_range.406]";
        QTest::newRow("not a session") << "{\"recording\": \"x.edf\"}" << "warplab_session: missing";
        QTest::newRow("bad region") << "{\"warplab_session\":1,\"regions\":[{\"start_s\":1,\"end_s\":2},{\"start_s\":\"a\",\"end_s\":3}]}"
                                     << "regions[1].start_s: wrong type";
        QTest::newRow("bad kind") << "{\"warplab_session\":1,\"regions\":[{\"kind\":\"ictal\",\"start_s\":1,\"end_s\":2}]}"
                                   << "regions[0].kind: unknown kind \"ictal\"";
        QTest::newRow("bad metric") << "{\"warplab_session\":1,\"analysis\":{\"params\":{\"metric\":\"lcss\"}}}"
                                     << "analysis.params.metric: unknown metric \"lcss\"";
        QTest::newRow("bad filter") << "{\"warplab_session\":1,\"filters\":{\"order\":\"high\"}}" << "filters.order: wrong type";
        // Numbers an int cannot hold (fuzz_text_readers found the first: undefined behaviour
        // in the JSON library's cast before readJsonField checked it).
        QTest::newRow("huge filter order") << "{\"warplab_session\":1,\"filters\":{\"order\":8.88889e+104}}"
                                           << "filters.order: not a whole number from -2147483648 to 2147483647: 8.88889e+104";
        QTest::newRow("fractional channel") << "{\"warplab_session\":1,\"regions\":[{\"channel\":1.5,\"start_s\":1,\"end_s\":2}]}"
                                            << "regions[0].channel: not a whole number";
        QTest::newRow("integer beyond int") << "{\"warplab_session\":4294967296}" << "warplab_session: not a whole number";
        QTest::newRow("huge band") << "{\"warplab_session\":1,\"analysis\":{\"params\":{\"band\":-1e300}}}"
                                    << "analysis.params.band: not a whole number";
    }
    void badFiles() {
        QFETCH(QString, content);
        QFETCH(QString, expected);
        const std::string p = path("bad.json");
        iotest::writeFile(p, content.toStdString());
        const std::string m = errorOf([&] { loadSession(p); });
        QVERIFY2(m.rfind(p + ": ", 0) == 0 && m.find(expected.toStdString()) != std::string::npos, m.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSession)
#include "test_session.moc"
