// --freq-band on dm, search and patterns: each band's result equals the same command run on
// series filtered beforehand (here, in the test, by compute/spectral's band filter, written
// with round-trip precision), bit for bit; outputs name the band; bad bands are refused by
// name with exit code 2. And `filter` and `psd` write what they promise.
#include "io/recording.h"
#include "io/series_file.h"
#include "io/study.h"  // before Qt, whose `signals` macro these headers meet
#include "../io/study_fixture.h"
namespace {
long long firstSignalSamples(const std::string& path) { return warplab::io::Recording::open(path)->signals().front().samples; }
double firstSignalRate(const std::string& path) { return warplab::io::Recording::open(path)->signals().front().rateHz; }
std::vector<std::string> channelNames(const std::string& path) {
    std::vector<std::string> out;
    const auto rec = warplab::io::Recording::open(path);  // alive for the loop: a temporary's signals would dangle
    for (const auto& s : rec->signals()) out.push_back(s.displayName);
    return out;
}
}  // namespace
#include <QtTest>
#include <QDir>
#include <QFileInfo>
#include <nlohmann/json.hpp>

#include <fstream>

#include "cli_process.h"
#include "compute/spectral/band_filter.h"
#include "compute/spectral/welch.h"
#include "io/matrix_band.h"
#include "io/matrix_io.h"
#include "io/npy.h"
#include "io/regions_exchange.h"

using namespace cli_test;
namespace sp = warplab::compute::spectral;

namespace {

const QString kEdf = QStringLiteral(WARPLAB_TEST_DATA "/chbmit/chb01_03_Seizure.edf");

std::string shortest(float v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

// One series per line (comma separated), round-trip float text.
void writeSet(const QString& path, const warplab::compute::SeriesSet& set) {
    std::ofstream f(path.toStdString());
    for (const auto& s : set) {
        for (std::size_t i = 0; i < s.values.size(); ++i) f << (i ? "," : "") << shortest(s.values[i]);
        f << '\n';
    }
}

std::vector<float> channel(const QString& path, const char* label, long long from, long long count) {
    auto rec = warplab::io::Recording::open(path.toStdString());
    return rec->read(rec->findSignal(label), from, count);
}

}  // namespace

class TestCliFreqBands : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString at(const QString& name) const { return dir_.filePath(name); }
private slots:
    void dmPerBandEqualsPrefiltered();
    void searchPerBandEqualsPrefiltered();
    void patternsPerBandEqualsPrefiltered();
    void matricesCarryTheirBand();
    void studyPatternsPerBandEqualPrefiltered();
    void studySearchPerBandEqualsEachReference();
    void refusesBadBandsByName();
    void filterAndPsdWrite();
    void filterEdfRecordsHoldWholeSamples();
};

void TestCliFreqBands::dmPerBandEqualsPrefiltered() {
    // Twelve 2 s pieces of a real channel, at 256 Hz.
    warplab::compute::SeriesSet q;
    for (int k = 0; k < 12; ++k) q.emplace_back(channel(kEdf, "FP1-F7", 512LL * k, 512), 1);
    writeSet(at("q.csv"), q);
    auto run = runCli({"dm", "--queries", at("q.csv"), "--metric", "cdtw", "--band", "16", "--rate", "256", "--freq-band",
                       "alpha", "--freq-band", "13-30", "--out", at("m.npy")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(run.err.contains("alpha (8-13 Hz)"));
    for (const auto& [band, file] : std::vector<std::pair<sp::FrequencyBand, QString>>{
             {sp::parseFrequencyBand("alpha"), "m.alpha.npy"}, {sp::parseFrequencyBand("13-30"), "m.13-30Hz.npy"}}) {
        writeSet(at("qf.csv"), sp::bandFilterSet(q, 256.0, band));
        auto ref = runCli({"dm", "--queries", at("qf.csv"), "--metric", "cdtw", "--band", "16", "--out", at("ref.npy")});
        QVERIFY2(ref.exitCode == 0, ref.err.constData());
        const auto a = warplab::io::readMatrix(at(file).toStdString()), b = warplab::io::readMatrix(at("ref.npy").toStdString());
        QCOMPARE(a.rows, std::size_t(12));
        QVERIFY(a.values == b.values);  // bit for bit
        const auto unfiltered = runCli({"dm", "--queries", at("q.csv"), "--metric", "cdtw", "--band", "16", "--out", at("raw.npy")});
        QVERIFY(warplab::io::readMatrix(at("raw.npy").toStdString()).values != a.values);  // the band did something
    }
    // One band to stdout: CSV as without a band, the band named on stderr.
    auto one = runCli({"dm", "--queries", at("q.csv"), "--metric", "dtw", "--rate", "256", "--freq-band", "theta"});
    QCOMPARE(one.exitCode, 0);
    QCOMPARE(parseCsv(one.out).size(), std::size_t(12));
    QVERIFY(one.err.contains("theta (4-8 Hz)"));
}

void TestCliFreqBands::searchPerBandEqualsPrefiltered() {
    const auto query = channel(kEdf, "FP1-F7", 256 * 20, 512), reference = channel(kEdf, "FP1-F7", 0, 256 * 40);
    writeSet(at("query.csv"), {warplab::compute::Series(query, 1)});
    writeSet(at("reference.csv"), {warplab::compute::Series(reference, 1)});
    auto run = runCli({"search", "--query", at("query.csv"), "--reference", at("reference.csv"), "--rate", "256", "--top", "3",
                       "--freq-band", "delta", "--freq-band", "beta"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QList<QByteArray> lines = run.out.trimmed().split('\n');
    QCOMPARE(lines.front(), QByteArray("band,rank,cost,start,end"));
    QCOMPARE(lines.size(), 7);
    for (const char* name : {"delta", "beta"}) {
        const auto band = sp::parseFrequencyBand(name);
        writeSet(at("qf.csv"), {sp::bandFilterSeries(warplab::compute::Series(query, 1), 256, band)});
        writeSet(at("rf.csv"), {sp::bandFilterSeries(warplab::compute::Series(reference, 1), 256, band)});
        auto ref = runCli({"search", "--query", at("qf.csv"), "--reference", at("rf.csv"), "--top", "3"});
        QVERIFY2(ref.exitCode == 0, ref.err.constData());
        QByteArray mine;
        for (const QByteArray& l : lines)
            if (l.startsWith(QByteArray(name) + ",")) mine += l.mid(int(strlen(name)) + 1) + "\n";
        QCOMPARE(mine, ref.out.mid(ref.out.indexOf('\n') + 1));  // the same rows, bit for bit
    }
}

void TestCliFreqBands::patternsPerBandEqualsPrefiltered() {
    const auto x = channel(kEdf, "FP1-F7", 0, 256 * 41);
    const auto band = sp::parseFrequencyBand("theta");
    const auto f = sp::bandFilter(x, 256, band);
    {
        std::ofstream csv(at("theta.csv").toStdString());
        csv << "FP1-F7\n";
        for (float v : f) csv << shortest(v) << '\n';
    }
    const QStringList common{"--channel", "FP1-F7", "--seizures", "20-30", "--epoch", "256", "--stride", "128", "--band", "8",
                             "--backend", "cpu"};
    auto run = runCli(QStringList{"patterns", "--recording", kEdf, "--freq-band", "theta"} + common);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(run.out.startsWith("band,rank,quality,pattern_index,start_seconds\n"));
    auto ref = runCli(QStringList{"patterns", "--recording", at("theta.csv"), "--rate", "256"} + common);
    QVERIFY2(ref.exitCode == 0, ref.err.constData());
    QByteArray mine;
    for (const QByteArray& l : run.out.trimmed().split('\n').mid(1)) {
        QVERIFY(l.startsWith("theta,"));
        mine += l.mid(6) + "\n";
    }
    QVERIFY(!mine.isEmpty());
    QCOMPARE(mine, ref.out.mid(ref.out.indexOf('\n') + 1));
}

// Every matrix file of a band says which: the HDF5 attribute, or FILE.json beside a .npy/.csv;
// read back as written. A matrix without a band has neither.
void TestCliFreqBands::matricesCarryTheirBand() {
    warplab::compute::SeriesSet q;
    for (int k = 0; k < 6; ++k) q.emplace_back(channel(kEdf, "FP1-F7", 512LL * k, 512), 1);
    writeSet(at("q6.csv"), q);
    for (const char* ext : {"npy", "h5", "csv"}) {
        const QString out = at(QString("b.%1").arg(ext)), written = at(QString("b.alpha.%1").arg(ext));
        auto run = runCli({"dm", "--queries", at("q6.csv"), "--metric", "cdtw", "--band", "8", "--rate", "256", "--freq-band",
                           "alpha", "--freq-band-order", "3", "--out", out});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.err.contains("alpha (8-13 Hz), order 3"), run.err.constData());
        const auto b = warplab::io::readMatrixBand(written.toStdString());
        QVERIFY(b.has_value());
        QCOMPARE(b->band, sp::parseFrequencyBand("alpha"));
        QCOMPARE(b->order, 3);
        QCOMPARE(QFileInfo::exists(written + ".json"), QString(ext) != "h5");
        if (QString(ext) == "npy") {
            QFile side(written + ".json");
            QVERIFY(side.open(QIODevice::ReadOnly));
            const auto j = nlohmann::json::parse(side.readAll().toStdString());
            QCOMPARE(j["frequency_band"]["low_hz"].get<double>(), 8.0);
            QCOMPARE(j["parameters"]["metric"].get<std::string>(), std::string("cdtw"));
            QCOMPARE(j["shape"][0].get<int>(), 6);
        }
    }
    // Streamed (larger than --max-memory): the same record.
    auto streamed = runCli({"dm", "--queries", at("q6.csv"), "--metric", "dtw", "--rate", "256", "--freq-band", "2-20",
                            "--max-memory", "0.0000001", "--out", at("s.h5")});
    QVERIFY2(streamed.exitCode == 0, streamed.err.constData());
    const auto sb = warplab::io::readMatrixBand(at("s.2-20Hz.h5").toStdString());
    QVERIFY(sb && sb->band.lowHz == 2 && sb->band.highHz == 20 && sb->band.name.empty() && sb->order == 4);
    auto plain = runCli({"dm", "--queries", at("q6.csv"), "--metric", "dtw", "--out", at("plain.npy")});
    QCOMPARE(plain.exitCode, 0);
    QVERIFY(!warplab::io::readMatrixBand(at("plain.npy").toStdString()));
    QVERIFY(!QFileInfo::exists(at("plain.npy.json")));
    // patterns --dm-out per band: the matrix of each band says so.
    auto pat = runCli({"patterns", "--recording", kEdf, "--channel", "FP1-F7", "--seizures", "20-30", "--epoch", "256",
                       "--stride", "256", "--band", "8", "--backend", "cpu", "--freq-band", "theta", "--freq-band", "beta",
                       "--dm-out", at("p.npy")});
    QVERIFY2(pat.exitCode == 0, pat.err.constData());
    for (const char* name : {"theta", "beta"}) {
        const auto pb = warplab::io::readMatrixBand(at(QString("p.%1.npy").arg(name)).toStdString());
        QVERIFY(pb && pb->band == sp::parseFrequencyBand(name));
    }
}

// patterns --study with a band: every recording's channel filtered on its own equals the
// in-process ranking of the study whose segments were filtered beforehand.
void TestCliFreqBands::studyPatternsPerBandEqualPrefiltered() {
    namespace fx = study_fixture;
    const QString folder = at("study");
    QDir().mkpath(folder);
    fx::writeFiles(folder.toStdString());
    fx::writeSummary((folder + "/study-summary.txt").toStdString(), false);
    const auto band = sp::parseFrequencyBand("theta");
    auto run = runCli({"patterns", "--study", folder + "/study-summary.txt", "--channel", "CZ", "--epoch", "64", "--stride",
                       "32", "--band", "4", "--kernel", "cpu.reference", "--freq-band", "theta"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    auto st = warplab::io::Study::open((folder + "/study-summary.txt").toStdString());
    auto req = warplab::io::studyPatternRequest(*st, st->findChannel("CZ"));
    std::vector<std::vector<float>> filtered;
    for (auto& seg : req.segments) {
        std::vector<float> raw(std::size_t(seg.sampleCount));
        seg.reader(0, seg.sampleCount, raw.data());
        filtered.push_back(sp::bandFilter(raw, req.rateHz, band));
    }
    for (std::size_t k = 0; k < req.segments.size(); ++k) {
        req.segments[k].samples = filtered[k];
        req.segments[k].reader = nullptr;
        req.segments[k].sampleCount = 0;
    }
    req.epoch = 64;
    req.stride = 32;
    req.band = 4;
    warplab::compute::RunOptions o;
    o.backend = warplab::compute::Backend::Cpu;
    o.kernel = "cpu.reference";
    const auto want = warplab::compute::findPatterns(req, o);
    QVERIFY(want.ranked.size() > 10);
    const QList<QByteArray> lines = run.out.trimmed().split('\n');
    QVERIFY(lines.front().startsWith("band,rank,quality,pattern_index,start_seconds,recording"));
    QCOMPARE(std::size_t(lines.size()), want.ranked.size() + 1);
    for (std::size_t k = 0; k < want.ranked.size(); ++k) {
        const auto f = lines[int(k) + 1].split(',');
        QCOMPARE(f[0], QByteArray("theta"));
        QCOMPARE(f[1].toULongLong(), k + 1);
        QCOMPARE(f[2].toDouble(), want.ranked[k].quality);
        QCOMPARE(f[3].toULongLong(), want.ranked[k].index);
        QCOMPARE(f[5].toStdString(), want.segments[want.ranked[k].segment].recording);
    }
}

// search --reference-study with bands: each band's list is the merge of the band searched in
// each recording alone (which searchPerBandEqualsPrefiltered ties to pre-filtered series):
// the same costs, places and order (cost, then recording order, then start).
void TestCliFreqBands::studySearchPerBandEqualsEachReference() {
    namespace fx = study_fixture;
    const QString folder = at("sstudy");
    QDir().mkpath(folder);
    fx::writeFiles(folder.toStdString());
    const QStringList query{"--query", folder + "/s_a.edf", "--channel", "CZ", "--window", "20:2", "--top", "4"};
    auto multi = runCli(QStringList{"search", "--reference-study", folder, "--reference-channel", "CZ", "--freq-band", "theta",
                                    "--freq-band", "2-12"} + query);
    QVERIFY2(multi.exitCode == 0, multi.err.constData());
    const QList<QByteArray> lines = multi.out.trimmed().split('\n');
    QVERIFY2(lines.front().startsWith("band,rank,cost,start,end,recording,channel"), lines.front().constData());
    QCOMPARE(lines.size(), 1 + 2 * 4);
    for (const char* key : {"theta", "2-12Hz"}) {
        const QString text = QString(key) == "theta" ? "theta" : "2-12";
        struct Row { double cost; int file; QByteArray line; };
        std::vector<Row> merged;
        int file = 0;
        for (const char* name : {"s_a.edf", "s_c.edf", "s_d.edf"}) {  // s_b.edf has no CZ
            auto one = runCli(QStringList{"search", "--reference", folder + "/" + name, "--reference-channel", "CZ",
                                          "--freq-band", text} + query);
            QVERIFY2(one.exitCode == 0, one.err.constData());
            for (const QByteArray& l : one.out.trimmed().split('\n').mid(1)) {
                const auto f = l.split(',');  // band,rank,cost,start,end
                merged.push_back({f[2].toDouble(), file, f[2] + ',' + f[3] + ',' + f[4] + ',' + name});
            }
            ++file;
        }
        std::stable_sort(merged.begin(), merged.end(), [](const Row& a, const Row& b) {
            return a.cost != b.cost ? a.cost < b.cost : a.file < b.file;
        });
        int k = 0;
        for (const QByteArray& l : lines.mid(1)) {
            if (!l.startsWith(QByteArray(key) + ',')) continue;
            const auto f = l.split(',');
            QCOMPARE(f[1].toInt(), k + 1);
            QCOMPARE(f[2] + ',' + f[3] + ',' + f[4] + ',' + f[5], merged[std::size_t(k)].line);
            ++k;
        }
        QCOMPARE(k, 4);
    }
}

void TestCliFreqBands::refusesBadBandsByName() {
    auto r = runCli({"filter", "--input", dataPath("eegmmidb/S001R03.edf"), "--channel", "#0", "--freq-band", "gamma", "--out",
                     at("g.npy")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("S001R03.edf") && r.err.contains("gamma (30-80 Hz)") && r.err.contains("160 Hz"), r.err.constData());
    r = runCli({"dm", "--queries", at("q.csv"), "--metric", "dtw", "--rate", "256", "--freq-band", "alfa"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("'alfa'"));
    r = runCli({"dm", "--queries", at("q.csv"), "--metric", "dtw", "--freq-band", "alpha"});  // no rate known
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("--rate"));
    writeSet(at("short.csv"), {warplab::compute::Series(std::vector<float>(20, 1.0f), 1)});
    r = runCli({"dm", "--queries", at("short.csv"), "--metric", "dtw", "--rate", "256", "--freq-band", "alpha"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("short.csv") && r.err.contains("at least 28"), r.err.constData());
    r = runCli({"dm", "--queries", at("q.csv"), "--metric", "dtw", "--rate", "256", "--freq-band", "13-8"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("13-8 Hz"));
}

void TestCliFreqBands::filterAndPsdWrite() {
    auto r = runCli({"filter", "--input", kEdf, "--channel", "FP1-F7", "--freq-band", "alpha", "--out", at("a.npy")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const auto x = channel(kEdf, "FP1-F7", 0, 256 * 41);
    const auto expected = sp::bandFilter(x, 256, sp::parseFrequencyBand("alpha"));
    const auto npy = warplab::io::readNpy(at("a.npy").toStdString());
    QCOMPARE(npy.data.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) QCOMPARE(float(npy.data[i]), expected[i]);
    r = runCli({"filter", "--input", kEdf, "--channel", "FP1-F7", "--freq-band", "alpha", "--out", at("a.edf")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(firstSignalSamples(at("a.edf").toStdString()), (long long)expected.size());

    r = runCli({"psd", "--input", kEdf, "--channel", "FP1-F7", "--nperseg", "512", "--seizures", "10-30"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(r.out.startsWith("frequency_hz,seizure,rest\n"));
    const auto rows = parseCsv(r.out);
    QCOMPARE(rows.size(), std::size_t(257));
    const auto seizure = sp::welch(std::span<const float>(x).subspan(2560, 5120), 256, {.segmentLength = 512});
    for (std::size_t k = 0; k < rows.size(); ++k) QCOMPARE(rows[k][1], seizure.power[k]);
    // The same spectra from the application's regions file: seizure regions on all channels or on
    // FP1-F7 count, those on another channel or of another kind do not.
    using warplab::io::Region, warplab::io::RegionKind;
    const std::vector<std::string> names = channelNames(kEdf.toStdString());
    QCOMPARE(names.front(), std::string("FP1-F7"));
    warplab::io::writeRegionsCsv(at("regions.csv").toStdString(),
                                 {Region{RegionKind::Seizure, -1, 10, 20, ""}, Region{RegionKind::Seizure, 0, 18, 30, ""},
                                  Region{RegionKind::Seizure, 3, 35, 40, ""}, Region{RegionKind::Query, -1, 32, 34, ""}},
                                 names);
    auto byRegions = runCli({"psd", "--input", kEdf, "--channel", "FP1-F7", "--nperseg", "512", "--regions", at("regions.csv")});
    QVERIFY2(byRegions.exitCode == 0, byRegions.err.constData());
    QCOMPARE(byRegions.out, r.out);
    byRegions = runCli({"psd", "--input", kEdf, "--channel", "FP1-F7", "--regions", at("regions.csv"), "--kind", "reference"});
    QCOMPARE(byRegions.exitCode, 2);
    QVERIFY2(byRegions.err.contains("no reference region"), byRegions.err.constData());
    r = runCli({"psd", "--input", kEdf, "--channel", "FP1-F7", "--freq-band", "alpha", "--out", at("p.json")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QFile j(at("p.json"));
    QVERIFY(j.open(QIODevice::ReadOnly));
    const QByteArray text = j.readAll();
    QVERIFY(text.contains("\"frequency_band\"") && text.contains("\"alpha\""));
}

QTEST_GUILESS_MAIN(TestCliFreqBands)

// A rate that is not whole is written with longer records (250.5 Hz: 2 s of 501 samples),
// read back at that rate with the filtered samples; a rate no record of 60 s or less holds
// (173.61 Hz, the Bonn sets') is refused by name before anything is written.
void TestCliFreqBands::filterEdfRecordsHoldWholeSamples() {
    warplab::compute::SeriesSet set;
    std::vector<float> x(3000);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(std::sin(0.3 * double(i)) + 0.2 * std::cos(0.05 * double(i)));
    set.push_back(warplab::compute::Series(x, 1, "x"));
    writeSet(at("odd.csv"), set);
    auto r = runCli({"filter", "--input", at("odd.csv"), "--rate", "250.5", "--freq-band", "1-40", "--out", at("odd.edf")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const auto rec = warplab::io::Recording::open(at("odd.edf").toStdString());
    QCOMPARE(firstSignalRate(at("odd.edf").toStdString()), 250.5);
    QCOMPARE(firstSignalSamples(at("odd.edf").toStdString()), (long long)3006);  // 6 records of 501
    QVERIFY2(r.err.contains("the last 2 s record is completed"), r.err.constData());
    const auto expected = sp::bandFilter(x, 250.5, sp::parseFrequencyBand("1-40"));
    const auto back = rec->read(0, 0, 3000);
    double worst = 0, peak = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        worst = std::max(worst, std::fabs(double(back[i]) - double(expected[i])));
        peak = std::max(peak, std::fabs(double(expected[i])));
    }
    QVERIFY2(worst <= 1e-4 * peak, qPrintable(QString::number(worst)));  // 16-bit EDF samples

    r = runCli({"filter", "--input", at("odd.csv"), "--rate", "173.61", "--freq-band", "1-40", "--out", at("bonn.edf")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("bonn.edf") && r.err.contains("173.61 Hz") && r.err.contains(".npy"), r.err.constData());
    QVERIFY(!QFile::exists(at("bonn.edf")));
}

#include "test_cli_freq_bands.moc"
