// The lenient reader's samples (io/edf_signal_read.h: a signal's bytes of many records per task,
// record ranges in parallel), which a study reads for samples only, against EDFlib (the
// reference reader) bit for bit, and against the raw bytes (edf_reference.h): the test files of
// tests/data (EDF, BDF, EDF+ with annotations), generated files with channels at different
// rates and enough records to be split over threads (EDF+ and BDF+, whole-record and per-record
// reads), EDF+D, a study's reads and compute::loadSegments; truncated files name the file.
#include <QtTest>
#undef signals

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "compute/patterns/pattern_discovery.h"
#include "edf_reference.h"
#include "io/edf_writer.h"
#include "io/recording.h"
#include "io/study.h"
#include "io_test_util.h"

using namespace warplab::io;

namespace {

const std::string kData = WARPLAB_TEST_DATA;
const std::string kSeizure = kData + "/chbmit/chb01_03_Seizure.edf";
const std::string kNonSeizure = kData + "/chbmit/chb01_03_NonSeizure.edf";
const std::string kMmidb = kData + "/eegmmidb/S001R03.edf";
const std::string kBdf = kData + "/bdf/Newtest17-256.bdf";
const std::string kSample = WARPLAB_SOURCE_DIR "/resources/sample/chb01_03_sample.edf";

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// How a study opens a recording for its samples: the lenient reader, annotations left out.
std::unique_ptr<Recording> openForSamples(const std::string& path) {
    OpenOptions o;
    o.forceLenient = true;
    o.readAnnotations = false;
    return Recording::open(path, o);
}

// Same bits (a float compare would pass -0 == 0 and fail NaN == NaN).
bool sameBits(const std::vector<float>& a, const float* b, std::size_t n) {
    return a.size() == n && (n == 0 || std::memcmp(a.data(), b, n * sizeof(float)) == 0);
}

// readInto into a buffer with a guard on each side: exactly `count` floats written.
std::vector<float> readIntoGuarded(const Recording& r, int s, long long start, long long count) {
    const float guard = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> buf(std::size_t(count + 2), guard);
    r.readInto(s, start, count, buf.data() + 1);
    if (!std::isnan(buf.front()) || !std::isnan(buf.back())) throw std::runtime_error("readInto wrote outside its window");
    return {buf.begin() + 1, buf.end() - 1};
}

// Windows of a signal of n samples and spr samples per record: single samples, record edges,
// starts and ends inside records, many records, the whole signal.
std::vector<std::pair<long long, long long>> windows(long long n, long long spr) {
    std::vector<std::pair<long long, long long>> w = {{0, n}, {0, 1}, {n - 1, 1}, {0, spr}, {spr, spr},
                                                      {spr - 1, 2}, {1, n - 2}, {n / 3, n / 3}, {n / 2, 0}};
    if (n > 5 * spr) w.push_back({spr + spr / 2, 3 * spr});
    for (long long k = 0; k < 7; ++k) {  // odd starts and lengths across the signal
        const long long a = (k * 7919 + 13) % n, c = std::min(n - a, (k * 104729) % (n / 2 + 1) + 1);
        w.push_back({a, c});
    }
    return w;
}

// Every data signal of `fast` against `reference` (EDFlib): whole and in windows, physical
// values bit for bit, digital values equal.
void compareSamples(const Recording& reference, const Recording& fast) {
    QCOMPARE(fast.signals().size(), reference.signals().size());
    for (std::size_t s = 0; s < fast.signals().size(); ++s) {
        const SignalInfo& info = fast.signals()[s];
        QCOMPARE(info.samples, reference.signals()[s].samples);
        const long long n = info.samples;
        const long long spr = std::max<long long>(1, std::llround(info.rateHz));  // the files' records are 1 s
        for (const auto& [start, count] : windows(n, spr)) {
            if (start < 0 || count < 0 || start + count > n) continue;
            const std::vector<float> want = reference.read(int(s), start, count);
            const std::vector<float> got = readIntoGuarded(fast, int(s), start, count);
            if (!sameBits(want, got.data(), std::size_t(count)))
                QFAIL(qPrintable(QString("%1 signal %2 samples [%3, %4): not EDFlib's floats")
                                     .arg(fast.path().c_str()).arg(info.displayName.c_str()).arg(start).arg(start + count)));
            if (!sameBits(want, fast.read(int(s), start, count).data(), std::size_t(count)))
                QFAIL(qPrintable(QString("%1 signal %2: read() differs from readInto()").arg(fast.path().c_str()).arg(s)));
            if (fast.readDigital(int(s), start, count) != reference.readDigital(int(s), start, count))
                QFAIL(qPrintable(QString("%1 signal %2 samples [%3, %4): digital values differ")
                                     .arg(fast.path().c_str()).arg(s).arg(start).arg(start + count)));
        }
    }
}

// Every digital sample against the raw bytes, independent of both readers.
void compareWithRawBytes(const Recording& rec, const std::string& path) {
    const edfref::File ref(path);
    long data = 0;
    for (long i = 0; i < ref.ns; ++i) {
        if (ref.sig[i].label == "EDF Annotations" || ref.sig[i].label == "BDF Annotations") continue;
        const long long n = rec.signals()[std::size_t(data)].samples;
        const std::vector<int> d = rec.readDigital(int(data), 0, n);
        for (long long k = 0; k < n; ++k)
            if (d[std::size_t(k)] != ref.digital(i, long(k)))
                QFAIL(qPrintable(QString("%1 signal %2 sample %3: %4, the bytes say %5")
                                     .arg(path.c_str()).arg(i).arg(k).arg(d[std::size_t(k)]).arg(ref.digital(i, long(k)))));
        ++data;
    }
    QCOMPARE(std::size_t(data), rec.signals().size());
}

// A deterministic digital value in [lo, hi] that reaches both ends now and then.
int digitalValue(long long i, int lo, int hi) {
    std::uint64_t x = std::uint64_t(i) * 0x9e3779b97f4a7c15ULL;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 32;
    if (x % 97 == 0) return lo;
    if (x % 89 == 0) return hi;
    return lo + int(x % std::uint64_t(std::int64_t(hi) - lo + 1));
}

// Channels at different rates (spr per 1 s record), `records` records, EDF+ or BDF+.
std::string writeMultiRate(const QTemporaryDir& dir, const std::string& name, bool bdf, const std::vector<int>& spr,
                           int records) {
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    EdfWriterHeader h;
    h.bdf = bdf;
    std::vector<EdfWriterSignal> sig;
    const int lo = bdf ? -8388608 : -32768, hi = bdf ? 8388607 : 32767;
    for (std::size_t c = 0; c < spr.size(); ++c)
        sig.push_back({"CH" + std::to_string(c), "uV", "", "", -3276.8 - double(c), 3276.7 + 0.37 * double(c), lo, hi,
                       spr[c]});
    EdfWriter w(path, h, sig);
    int perRecord = 0;
    for (int s : spr) perRecord += s;
    std::vector<int> rec(static_cast<std::size_t>(perRecord));
    long long i = 0;
    for (int r = 0; r < records; ++r) {
        for (int& v : rec) v = digitalValue(i++, lo, hi);
        w.writeRecordDigital(rec.data());
    }
    if (records > 3) w.addAnnotation(2.5, 1.0, "seizure");
    w.close();
    return path;
}

}  // namespace

class TestEdfSignalRead : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string multiEdf_, multiBdf_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // 2,000 records of 1,869 samples: 512 and 1000 Hz are read as whole records (a quarter of
        // each record or more), 100, 1 and 256 Hz record by record; both split over tasks.
        multiEdf_ = writeMultiRate(dir_, "multi_rate.edf", false, {512, 100, 1, 256, 1000}, 2000);
        // BDF+: one large channel (whole records) and one small (record by record), 24-bit extremes.
        multiBdf_ = writeMultiRate(dir_, "multi_rate.bdf", true, {2048, 7}, 700);
    }

    void equalsEdflib_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("EDF chb Seizure") << QString::fromStdString(kSeizure);
        QTest::newRow("EDF chb NonSeizure") << QString::fromStdString(kNonSeizure);
        QTest::newRow("EDF+ sample") << QString::fromStdString(kSample);
        QTest::newRow("BDF") << QString::fromStdString(kBdf);
        QTest::newRow("EDF+ rates 512/100/1/256/1000 Hz") << QString::fromStdString(multiEdf_);
        QTest::newRow("BDF+ rates 2048/7 Hz") << QString::fromStdString(multiBdf_);
    }
    void equalsEdflib() {
        QFETCH(QString, file);
        const auto strict = Recording::open(file.toStdString());
        QVERIFY(strict->warnings().empty());  // EDFlib opened it: the reference
        const auto fast = openForSamples(file.toStdString());
        QCOMPARE(fast->format(), strict->format());
        compareSamples(*strict, *fast);
        compareWithRawBytes(*fast, file.toStdString());
    }

    // S001R03 (EDF+, 64 signals at 160 Hz, an annotation signal with TALs in every record) is
    // refused by EDFlib for two header violations; with them repaired EDFlib reads it. The fast
    // path on the original equals EDFlib on the repaired copy, and the raw bytes.
    void edfPlusWithAnnotationsEqualsEdflib() {
        std::string b = iotest::readFile(kMmidb);
        const std::size_t ns = 65, ann = 64;
        b.replace(256 + ns * (16 + 80) + ann * 8, 8, std::string(8, ' '));
        b.replace(256 + ns * (16 + 80 + 8 * 5) + ann * 80, 80, std::string(80, ' '));
        const std::string repaired = iotest::writeIn(dir_, "S001R03_repaired.edf", b);
        const auto strict = Recording::open(repaired);
        QVERIFY(strict->warnings().empty());
        QVERIFY(!strict->annotations().empty());
        const auto fast = openForSamples(kMmidb);
        QCOMPARE(fast->format(), Format::EDFPlusC);
        compareSamples(*strict, *fast);
        compareWithRawBytes(*fast, kMmidb);
    }

    // Samples only: no annotations read (nor their warnings); the samples are those of an open
    // with annotations.
    void annotationsLeftOutOnlyWhenAsked() {
        OpenOptions withAnnotations;
        withAnnotations.forceLenient = true;
        const auto full = Recording::open(kMmidb, withAnnotations);
        const auto samples = openForSamples(kMmidb);
        QVERIFY(full->annotations().size() > 10);
        QVERIFY(samples->annotations().empty());
        QVERIFY(samples->warnings().size() <= full->warnings().size());
        for (int s : {0, 31, 63}) {
            const long long n = full->signals()[std::size_t(s)].samples;
            QVERIFY(full->read(s, 0, n) == samples->read(s, 0, n));
        }
        const auto annotated = openForSamples(multiEdf_);
        QVERIFY(annotated->annotations().empty());
        QCOMPARE(Recording::open(multiEdf_)->annotations().size(), std::size_t(1));
    }

    // EDF+D: records back to back, as EDFlib reads them.
    void discontinuousEqualsEdflib() {
        std::string b = iotest::readFile(kSample);
        b.replace(192, 5, "EDF+D");
        const std::string p = iotest::writeIn(dir_, "plusd.edf", b);
        const auto strict = Recording::open(p);
        QCOMPARE(strict->format(), Format::EDFPlusD);
        const auto fast = openForSamples(p);
        QCOMPARE(fast->format(), Format::EDFPlusD);
        compareSamples(*strict, *fast);
    }

    // An incomplete last record (EDFlib refuses the file): the complete records read as in the
    // whole file.
    void incompleteLastRecordReadsTheCompleteOnes() {
        const std::string whole = iotest::readFile(kSeizure);
        const std::string p = iotest::writeIn(dir_, "short.edf", whole.substr(0, whole.size() - 100));
        const auto fast = openForSamples(p);
        QCOMPARE(fast->signals()[0].samples, 40LL * 256);
        const auto strict = Recording::open(kSeizure);
        for (int s : {0, 14, 22}) {
            const std::vector<float> want = strict->read(s, 0, 40 * 256);
            QVERIFY(sameBits(want, readIntoGuarded(*fast, s, 0, 40 * 256).data(), want.size()));
        }
        QVERIFY(contains(iotest::errorOf([&] { (void)readIntoGuarded(*fast, 0, 40 * 256 - 1, 2); }), "short.edf"));
    }

    // A file cut short after it was opened: the read names the file, the signal and the byte,
    // on the per-record path (23 small channels) and the whole-record path (BDF+ 2048 Hz).
    void truncatedFileNamesTheFile() {
        struct Case {
            std::string source, name;
            int signal;
        };
        for (const Case& c : {Case{kSeizure, "cut.edf", 0}, Case{multiBdf_, "cut.bdf", 0}, Case{multiBdf_, "cut2.bdf", 1}}) {
            const std::string p = dir_.filePath(QString::fromStdString(c.name)).toStdString();
            std::filesystem::copy_file(c.source, p, std::filesystem::copy_options::overwrite_existing);
            const auto fast = openForSamples(p);
            const long long n = fast->signals()[std::size_t(c.signal)].samples;
            std::filesystem::resize_file(p, std::filesystem::file_size(p) / 2);
            const std::string m = iotest::errorOf([&] { (void)readIntoGuarded(*fast, c.signal, 0, n); });
            QVERIFY2(contains(m, p) && contains(m, "signal '" + fast->signals()[std::size_t(c.signal)].displayName + "'") &&
                         contains(m, "read failed at byte") && contains(m, "truncated"),
                     m.c_str());
            // The start of the file is still there and still read.
            QVERIFY(iotest::errorOf([&] { (void)readIntoGuarded(*fast, c.signal, 0, 3); }).empty());
        }
        // Cut before opening: refused at open, naming the file and the records.
        const std::string whole = iotest::readFile(kSeizure);
        const std::string p = iotest::writeIn(dir_, "cut_before.edf", whole.substr(0, whole.size() / 2));
        const std::string m = iotest::errorOf([&] { openForSamples(p); });
        QVERIFY2(contains(m, "cut_before.edf") && contains(m, "number of data records"), m.c_str());
    }

    // A study's reads (samples-only opens through the cache) and compute::loadSegments over a
    // study channel (every recording read in parallel into one buffer): EDFlib's floats.
    void studyReadsEqualEdflib() {
        const std::string folder = dir_.filePath("study").toStdString();
        std::filesystem::create_directories(folder);
        for (const std::string& f : {kSeizure, kNonSeizure})
            std::filesystem::copy_file(f, folder + "/" + std::filesystem::path(f).filename().string(),
                                       std::filesystem::copy_options::overwrite_existing);
        const auto study = Study::open(folder);
        for (const std::string& channel : {std::string("FP1-F7"), std::string("T8-P8 (2)"), std::string("CZ-PZ")}) {
            const int c = study->findChannel(channel);
            QVERIFY2(c >= 0, channel.c_str());
            warplab::compute::PatternRequest r = studyPatternRequest(*study, c);
            QCOMPARE(r.segments.size(), study->recordings().size());
            std::vector<std::vector<float>> want;
            for (std::size_t i = 0; i < study->recordings().size(); ++i) {
                const auto rec = Recording::open(study->recordings()[i].path);
                QVERIFY(rec->warnings().empty());
                const int s = rec->findSignal(channel);
                want.push_back(rec->read(s, 0, rec->signals()[std::size_t(s)].samples));
                const std::vector<float> got = study->read(int(i), c, 0, (long long)want.back().size());
                QVERIFY(sameBits(want.back(), got.data(), got.size()));
            }
            const warplab::compute::LoadedSamples loaded = warplab::compute::loadSegments(r);
            QVERIFY(loaded.samples);
            for (std::size_t k = 0; k < r.segments.size(); ++k)
                QVERIFY(sameBits(want[std::size_t(r.segments[k].recordingIndex)], r.segments[k].samples.data(),
                                 r.segments[k].samples.size()));
        }
    }
};

QTEST_GUILESS_MAIN(TestEdfSignalRead)
#include "test_edf_signal_read.moc"
