// warplab-cli on studies: `info STUDY` (text and JSON) on a generated study
// and tests/data; `patterns --study` equals the in-process study ranking (cpu.reference)
// with recording and clock-time columns, --dm-out streams the whole matrix; `search
// --reference-study / several --reference / --reference-channel all` equals searching each
// source with Engine::search and merging by cost; bad input (missing files without
// --skip-missing, rate conflicts, an empty folder, conflicting options) exits 2 naming the files.
#include "../io/study_fixture.h"
#include "compute/engine/engine.h"
#include "compute/engine/multi_search.h"
#include "compute/patterns/pattern_discovery.h"
#include "io/matrix_io.h"
#include "io/recording.h"
#include "io/study.h"

#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_process.h"

using cli_test::runCli;
using namespace warplab;
namespace fx = study_fixture;

namespace {

std::vector<std::vector<std::string>> rows(const QByteArray& out) {
    std::vector<std::vector<std::string>> r;
    for (const QByteArray& line : out.split('\n')) {
        if (line.trimmed().isEmpty()) continue;
        std::vector<std::string> f;
        for (const QByteArray& x : line.split(',')) f.push_back(x.toStdString());
        r.push_back(std::move(f));
    }
    return r;
}

// Numbers are compared by value: the CLI prints the shortest text that reads back exactly.
std::string fmt(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

// A row with its numeric fields (those that parse whole as numbers) rewritten by fmt().
std::vector<std::string> normal(std::vector<std::string> row) {
    for (auto& f : row) {
        double v = 0;
        auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
        if (!f.empty() && ec == std::errc() && end == f.data() + f.size()) f = fmt(v);
    }
    return row;
}

QByteArray why(const cli_test::CliRun& r) { return "stderr: " + r.err; }

}  // namespace

class TestCliStudy : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString folder_, summary_, missingSummary_;

private slots:
    void initTestCase() {
        folder_ = dir_.filePath("study");
        QDir().mkpath(folder_);
        fx::writeFiles(folder_.toStdString());
        summary_ = folder_ + "/study-summary.txt";
        missingSummary_ = dir_.filePath("with-missing-summary.txt");
        fx::writeSummary(summary_.toStdString(), false);
        // The summary naming an absent file lives beside copies of the four files.
        for (const auto& f : fx::files())
            std::filesystem::copy_file(folder_.toStdString() + "/" + f.name, dir_.filePath(QString::fromStdString(f.name)).toStdString());
        fx::writeSummary(missingSummary_.toStdString(), true);
    }

    void infoText() {
        const auto r = runCli({"info", folder_});
        QVERIFY2(r.exitCode == 0, why(r));
        const QString out = QString::fromUtf8(r.out);
        QVERIFY(out.contains("source\tfolder"));
        QVERIFY(out.contains("recordings\t4"));
        QVERIFY(out.contains("2\ts_c.edf\tok\t2020-02-03T10:05:00\t50\t300\t195\t4\t0"));
        QVERIFY(out.contains("CZ\t64\tuV\t3\ts_b.edf"));
        QVERIFY(out.contains("T8-P8 (2)\t64\tuV\t4\t-"));
        // Seizures from the summary, given to a folder study, with their clock times.
        const auto s = runCli({"info", folder_, "--summary", summary_});
        QVERIFY2(s.exitCode == 0, why(s));
        QVERIFY(QString::fromUtf8(s.out).contains("s_c.edf\t10\t30\t2020-02-03T10:05:10.000\tall\tsummary"));
    }

    void infoJson() {
        const auto r = runCli({"info", missingSummary_, "--json"});
        QVERIFY2(r.exitCode == 0, why(r));  // info lists missing files instead of refusing
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["source"].get<std::string>(), std::string("summary"));
        QCOMPARE(j["recordings"].size(), std::size_t(5));
        QCOMPARE(j["recordings"][4]["name"].get<std::string>(), std::string("s_e.edf"));
        QCOMPARE(j["recordings"][4]["status"].get<std::string>(), std::string("missing"));
        QCOMPARE(j["recordings"][2]["gap_before_s"].get<double>(), 195.0);
        QCOMPARE(j["recordings"][0]["signals"].size(), std::size_t(4));
        QCOMPARE(j["recordings"][0]["signals"][2]["label"].get<std::string>(), std::string("T8-P8"));
        QCOMPARE(j["channels"][3]["name"].get<std::string>(), std::string("CZ"));
        QCOMPARE(j["channels"][3]["recordings"].get<int>(), 3);
        QCOMPARE(j["seizures"].size(), std::size_t(2));
        QCOMPARE(j["seizures"][0]["clock_start"].get<std::string>(), std::string("2020-02-03T10:00:20.000"));
        // The real CHB-MIT summary: 42 files, all missing here, 7 seizures.
        const auto c = runCli({"info", cli_test::dataPath("chbmit/chb01-summary.txt"), "--json"});
        QVERIFY2(c.exitCode == 0, why(c));
        const auto cj = nlohmann::json::parse(c.out.toStdString());
        QCOMPARE(cj["recordings"].size(), std::size_t(42));
        QCOMPARE(cj["seizures"].size(), std::size_t(7));
        // The two excerpts as a folder study.
        const auto e = runCli({"info", cli_test::dataPath("chbmit"), "--json"});
        QVERIFY2(e.exitCode == 0, why(e));
        const auto ej = nlohmann::json::parse(e.out.toStdString());
        QCOMPARE(ej["recordings"].size(), std::size_t(2));
        QCOMPARE(ej["recordings"][1]["gap_before_s"].get<double>(), 2954.0);
        QCOMPARE(ej["channels"].size(), std::size_t(23));
    }

    void patternsOnAStudy() {
        QTemporaryDir out;
        const QString dm = out.filePath("dm.npy");
        const auto r = runCli({"patterns", "--study", summary_, "--channel", "CZ", "--epoch", "64", "--stride", "32", "--band",
                               "4", "--kernel", "cpu.reference", "--dm-out", dm});
        QVERIFY2(r.exitCode == 0, why(r));
        QVERIFY(r.err.contains("skipping s_b.edf: no channel CZ"));
        // In-process: the same study, the same request.
        auto st = io::Study::open(summary_.toStdString());
        auto req = io::studyPatternRequest(*st, st->findChannel("CZ"));
        req.epoch = 64;
        req.stride = 32;
        req.band = 4;
        req.keepMatrix = true;
        compute::RunOptions o;
        o.backend = compute::Backend::Cpu;
        o.kernel = "cpu.reference";
        const auto want = compute::findPatterns(req, o);
        const auto got = rows(r.out);
        QCOMPARE(got.front(), (std::vector<std::string>{"rank", "quality", "pattern_index", "start_seconds", "recording",
                                                         "clock_time", "nearest_recording", "nearest_start_seconds",
                                                         "nearest_clock_time"}));
        QCOMPARE(got.size(), want.ranked.size() + 1);
        for (std::size_t k = 0; k < want.ranked.size(); ++k) {
            const auto& p = want.ranked[k];
            const auto& ne = p.nearest.front();
            const std::vector<std::string> line = {std::to_string(k + 1), fmt(p.quality), std::to_string(p.index), fmt(p.startS),
                                                   want.segments[p.segment].recording, st->clockText(p.clockS),
                                                   want.segments[ne.segment].recording, fmt(ne.startS), st->clockText(ne.clockS)};
            QCOMPARE(normal(got[k + 1]), normal(line));
        }
        // A pattern in s_c.edf at 10 s after its start is at 10:05:10.
        bool sawC = false;
        for (const auto& g : got)
            if (g[4] == "s_c.edf" && g[3] == "10") {
                QCOMPARE(g[5], std::string("2020-02-03T10:05:10.000"));
                sawC = true;
            }
        QVERIFY(sawC);
        const auto m = io::readMatrix(dm.toStdString());
        QCOMPARE(m.rows, want.patternCount);
        QCOMPARE(m.cols, want.epochCount);
        QCOMPARE(m.values, want.matrix.values);
        // A folder study with user seizures FILE:START-END.
        const auto f = runCli({"patterns", "--study", folder_, "--seizures", "s_a.edf:20-35,s_c.edf:10-30", "--epoch", "64",
                               "--stride", "32", "--band", "4", "--kernel", "cpu.reference", "--channel", "CZ"});
        QVERIFY2(f.exitCode == 0, why(f));
        QCOMPARE(f.out, r.out);
    }

    void searchOverAStudy() {
        // The query: 1 s of CZ in s_c.edf during its seizure.
        const QStringList query = {"--query", folder_ + "/s_c.edf", "--channel", "CZ", "--window", "12:1", "--top", "6"};
        // --include-self: the plain per-series searches below are the reference (self-exclusion is
        // checked after them).
        const auto r = runCli(QStringList{"search", "--reference-study", folder_, "--reference-channel", "all",
                                          "--kernel", "cpu.reference", "--include-self"} + query);
        QVERIFY2(r.exitCode == 0, why(r));
        auto st = io::Study::openFolder(folder_.toStdString());
        auto rec = io::Recording::open(folder_.toStdString() + "/s_c.edf");
        const compute::Series q(rec->read(rec->findSignal("CZ"), 12 * 64, 64));
        compute::Params params;
        params.metric = compute::Metric::Sdtw;
        params.topk = 6;
        compute::RunOptions o;
        o.backend = compute::Backend::Cpu;
        o.kernel = "cpu.reference";
        // Every (recording, channel) searched on its own, merged by cost (ties: source order, start).
        struct M { double cost; std::size_t src; std::size_t start, end; std::string rec, ch; double off; };
        std::vector<M> all;
        std::size_t src = 0;
        for (std::size_t i = 0; i < st->recordings().size(); ++i)
            for (std::size_t c = 0; c < st->channels().size(); ++c) {
                if (st->channels()[c].signalOf[i] < 0) continue;
                const compute::Series ref(st->read(int(i), int(c), 0, st->sampleCount(int(i), int(c))));
                for (const auto& m : compute::Engine::search(q, ref, params, o))
                    all.push_back({m.cost, src, m.start, m.end, st->recordings()[i].name, st->channels()[c].name, st->recordings()[i].offsetS});
                ++src;
            }
        std::stable_sort(all.begin(), all.end(), [](const M& a, const M& b) {
            return a.cost != b.cost ? a.cost < b.cost : a.src != b.src ? a.src < b.src : a.start < b.start;
        });
        const auto got = rows(r.out);
        QCOMPARE(got.front().size(), std::size_t(10));
        QCOMPARE(got.size(), std::size_t(7));
        for (std::size_t k = 0; k < 6; ++k) {
            const M& m = all[k];
            const std::vector<std::string> line = {std::to_string(k + 1), fmt(m.cost), std::to_string(m.start), std::to_string(m.end),
                                                   m.rec, m.ch, fmt(m.start / 64.0), fmt((m.end + 1) / 64.0),
                                                   st->clockText(m.off + m.start / 64.0), st->clockText(m.off + (m.end + 1) / 64.0)};
            QCOMPARE(normal(got[k + 1]), normal(line));
        }
        // By default the query does not find itself: in s_c.edf / CZ (and only there) no match
        // overlaps its own samples 768..831, and stderr says so.
        QCOMPARE(all.front().rec, std::string("s_c.edf"));  // with itself included, it is rank 1
        QCOMPARE(all.front().ch, std::string("CZ"));
        const auto noSelf = runCli(QStringList{"search", "--reference-study", folder_, "--reference-channel", "all",
                                               "--kernel", "cpu.reference"} + query);
        QVERIFY2(noSelf.exitCode == 0, why(noSelf));
        QVERIFY2(noSelf.err.contains("# self-exclusion: the query is samples 768..831 of s_c.edf, channel CZ; no match "
                                     "overlapping it is reported"), why(noSelf));
        QCOMPARE(noSelf.err.count("# self-exclusion"), 1);
        const auto gotNoSelf = rows(noSelf.out);
        QCOMPARE(gotNoSelf.size(), std::size_t(7));
        // The best match left: the best of every other source's list in `all`, or s_c.edf / CZ's
        // best with the overlapping ends removed (the engine's rule, checked against an oracle in
        // compute's test_overlap_exclusion); the list is sorted, nothing overlaps the query.
        double bestLeft = std::numeric_limits<double>::infinity();
        for (const M& m : all)
            if (!(m.rec == "s_c.edf" && m.ch == "CZ")) {
                bestLeft = m.cost;
                break;
            }
        {
            compute::SearchScope sc;
            sc.spans = {compute::ExcludedSpan{768, 831, 0}};
            const int sc_ = 2, cz = st->findChannel("CZ");  // s_c.edf is the study's third recording
            QCOMPARE(st->recordings()[sc_].name, std::string("s_c.edf"));
            const compute::Series own(st->read(sc_, cz, 0, st->sampleCount(sc_, cz)));
            const auto ownBest = compute::Engine::search(q, own, params, o, sc);
            if (!ownBest.empty()) bestLeft = std::min(bestLeft, ownBest.front().cost);
        }
        QCOMPARE(gotNoSelf[1][1], fmt(bestLeft));
        for (std::size_t k = 1; k < gotNoSelf.size(); ++k) {
            const auto& g = gotNoSelf[k];
            const long start = std::stol(g[2]), end = std::stol(g[3]);
            QVERIFY2(!(g[4] == "s_c.edf" && g[5] == "CZ" && start <= 831 && end >= 768), g[3].c_str());
            if (k > 1) QVERIFY(std::stod(g[1]) >= std::stod(gotNoSelf[k - 1][1]));
        }
        // Several --reference files, one channel: the same as the study restricted to them.
        const auto two = runCli(QStringList{"search", "--reference", folder_ + "/s_d.edf", "--reference", folder_ + "/s_a.edf",
                                            "--reference-channel", "FP1-F7", "--kernel", "cpu.reference"} + query);
        QVERIFY2(two.exitCode == 0, why(two));
        const auto g2 = rows(two.out);
        QCOMPARE(g2.size(), std::size_t(7));
        for (std::size_t k = 1; k < g2.size(); ++k) {
            QVERIFY(g2[k][4] == "s_a.edf" || g2[k][4] == "s_d.edf");
            QCOMPARE(g2[k][5], std::string("FP1-F7"));
            if (k > 1) QVERIFY(std::stod(g2[k][1]) >= std::stod(g2[k - 1][1]));
        }
        // Series files (Bonn, one column, no clock): one list, clock columns empty.
        const auto bonn = runCli({"search", "--query", cli_test::dataPath("bonn/S/S001.txt"), "--reference",
                                  cli_test::dataPath("bonn/S/S002.txt"), "--reference", cli_test::dataPath("bonn/F/F001.txt"),
                                  "--top", "3", "--kernel", "cpu.reference"});
        QVERIFY2(bonn.exitCode == 0, why(bonn));
        QVERIFY(!bonn.err.contains("no usable start"));
        const auto gb = rows(bonn.out);
        QCOMPARE(gb.size(), std::size_t(4));
        bool sawF = false;
        for (std::size_t k = 1; k < gb.size(); ++k) {
            QCOMPARE(gb[k].size(), std::size_t(10));
            QVERIFY(gb[k][4] == "S002.txt" || gb[k][4] == "F001.txt");
            sawF = sawF || gb[k][4] == "F001.txt";
            QCOMPARE(gb[k][8], std::string());
            QCOMPARE(gb[k][9], std::string());
        }
        QVERIFY(sawF);
        // One file, every channel.
        const auto one = runCli(QStringList{"search", "--reference", folder_ + "/s_b.edf", "--reference-channel", "all",
                                            "--kernel", "cpu.reference"} + query);
        QVERIFY2(one.exitCode == 0, why(one));
        QCOMPARE(rows(one.out).size(), std::size_t(7));
    }

    // --mode window over a study, every channel: the pruned search prints the bytes brute force
    // (cpu.reference) prints, excludes the query's own start, and --stats sums every source.
    void windowSearchOverAStudy() {
        const QStringList query = {"--query", folder_ + "/s_c.edf", "--channel", "CZ", "--window", "12:1", "--top", "8",
                                   "--mode", "window", "--band-fraction", "0.1"};
        const QStringList study = {"search", "--reference-study", folder_, "--reference-channel", "all"};
        const auto fast = runCli(study + query + QStringList{"--stats"});
        const auto slow = runCli(study + query + QStringList{"--kernel", "cpu.reference"});
        QVERIFY2(fast.exitCode == 0 && slow.exitCode == 0, why(fast) + why(slow));
        QCOMPARE(fast.out, slow.out);
        const auto got = rows(fast.out);
        QCOMPARE(got.size(), std::size_t(9));
        // The query's own place: no s_c.edf / CZ window overlapping samples 768..831 (starts 705..831).
        QVERIFY2(fast.err.contains("# self-exclusion: the query is samples 768..831 of s_c.edf, channel CZ; no match "
                                   "overlapping it is reported (starts 705..831)"),
                 why(fast));
        for (std::size_t k = 1; k < got.size(); ++k) {
            const long start = std::stol(got[k][2]);
            QVERIFY2(!(got[k][4] == "s_c.edf" && got[k][5] == "CZ" && start >= 705 && start <= 831), got[k][2].c_str());
            QCOMPARE(std::stol(got[k][3]), start + 63);
        }
        // --stats: one summary over all sources; evaluated + excluded windows = the sum over
        // (recording, channel) of n - 64 + 1.
        auto st = io::Study::openFolder(folder_.toStdString());
        unsigned long long windows = 0;
        for (std::size_t i = 0; i < st->recordings().size(); ++i)
            for (std::size_t c = 0; c < st->channels().size(); ++c)
                if (st->channels()[c].signalOf[i] >= 0) {
                    const auto n = st->sampleCount(int(i), int(c));
                    if (n >= 64) windows += n - 64 + 1;
                }
        QCOMPARE(fast.err.count("# pruned by LB_Kim"), 1);
        const QRegularExpression counts("# windows (\\d+) \\(excluded (\\d+),");
        const auto mt = counts.match(QString::fromUtf8(fast.err));
        QVERIFY2(mt.hasMatch(), why(fast));
        QCOMPARE(mt.captured(1).toULongLong() + mt.captured(2).toULongLong(), windows);
        QCOMPARE(mt.captured(2).toULongLong(), 127ULL);  // starts 705..831 of s_c.edf / CZ
    }

    void badInput() {
        // Missing files: refused, named, unless --skip-missing.
        auto r = runCli({"patterns", "--study", missingSummary_, "--epoch", "64", "--stride", "32"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("s_e.edf") && r.err.contains("--skip-missing"), r.err);
        QVERIFY(r.out.isEmpty());
        r = runCli({"patterns", "--study", missingSummary_, "--epoch", "64", "--stride", "32", "--skip-missing", "--top", "1"});
        QVERIFY2(r.exitCode == 0, why(r));
        QVERIFY(r.err.contains("skipping s_e.edf (missing)"));
        r = runCli({"search", "--reference-study", missingSummary_, "--query", folder_ + "/s_a.edf", "--channel", "CZ",
                    "--window", "1:1", "--reference-channel", "CZ"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("s_e.edf"));
        // A folder with no recording.
        QTemporaryDir empty;
        r = runCli({"info", empty.path()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no recording"), r.err);
        r = runCli({"patterns", "--study", empty.path()});
        QCOMPARE(r.exitCode, 2);
        // One channel at two rates: refused naming both files.
        QTemporaryDir rates;
        fx::writeFiles(rates.path().toStdString(), {0});
        {
            io::EdfWriterHeader h;
            h.year = 2020;
            h.hour = 12;
            io::EdfWriter w(rates.filePath("fast.edf").toStdString(), h, {{"CZ", "uV", "", "", -500, 500, -32768, 32767, 128}});
            std::vector<double> rec(128, 0.5);
            for (int k = 0; k < 4; ++k) w.writeRecordPhysical(rec.data());
            w.close();
        }
        r = runCli({"info", rates.path()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("fast.edf") && r.err.contains("s_a.edf") && r.err.contains("CZ"), r.err);
        // Conflicting or incomplete options.
        r = runCli({"patterns", "--study", folder_, "--recording", folder_ + "/s_a.edf"});
        QCOMPARE(r.exitCode, 2);
        r = runCli({"patterns", "--study", folder_, "--epoch", "64", "--stride", "32"});  // no seizure anywhere
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no seizure"), r.err);
        r = runCli({"patterns", "--study", folder_, "--seizures", "s_q.edf:1-2"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("s_q.edf"), r.err);
        r = runCli({"search", "--reference-study", folder_, "--query", folder_ + "/s_a.edf", "--channel", "CZ", "--window",
                    "1:1", "--reference-window", "0:5"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("reference-window"), r.err);
        r = runCli({"search", "--reference-study", folder_, "--query", folder_ + "/s_a.edf", "--channel", "CZ", "--window",
                    "1:1", "--reference-channel", "O2"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("O2"), r.err);
        r = runCli({"search", "--query", folder_ + "/s_a.edf", "--channel", "CZ", "--window", "1:1"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--reference"), r.err);
    }
};

QTEST_GUILESS_MAIN(TestCliStudy)
#include "test_cli_study.moc"
