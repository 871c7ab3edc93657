// Damaged EDF files made from a real one: each is refused with a message naming the file, the
// field and the reason, or (incomplete last record, unknown record count, trailing bytes)
// opens with the complete records and a warning.
#include <QtTest>
#undef signals  // Qt keyword macro; io::Recording::signals() is meant here

#include "io/recording.h"
#include "io_test_util.h"

using namespace warplab::io;
using iotest::errorOf;

namespace {

const std::string kSeizure = std::string(WARPLAB_TEST_DATA) + "/chbmit/chb01_03_Seizure.edf";
constexpr long kHeader = 6144, kRecord = 23 * 256 * 2;

// Overwrites a fixed-width ASCII header field (left-aligned, space padded).
std::string withField(std::string bytes, std::size_t pos, std::size_t width, const std::string& value) {
    std::string v = value;
    v.resize(width, ' ');
    bytes.replace(pos, width, v);
    return bytes;
}

}  // namespace

class TestEdfBadInput : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string original_;

    std::string make(const std::string& name, const std::string& bytes) { return iotest::writeIn(dir_, name, bytes); }
    static void expectRefused(const std::string& path, const std::vector<std::string>& parts) {
        const std::string m = errorOf([&] { Recording::open(path); });
        QVERIFY2(!m.empty(), ("opened but should be refused: " + path).c_str());
        QVERIFY2(m.find("<unexpected") == std::string::npos, m.c_str());
        QVERIFY2(m.rfind(path + ": ", 0) == 0, m.c_str());  // the file comes first
        for (const auto& p : parts) QVERIFY2(m.find(p) != std::string::npos, (m + "  [missing: " + p + "]").c_str());
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        original_ = iotest::readFile(kSeizure);
        QCOMPARE(long(original_.size()), kHeader + 41 * kRecord);
    }

    void missingFile() { expectRefused(dir_.filePath("nothing.edf").toStdString(), {"no such file"}); }

    void notAnEdfFile() {
        expectRefused(make("summary.edf", iotest::readFile(std::string(WARPLAB_TEST_DATA) + "/chbmit/chb01-summary.txt")),
                      {"version", "not an EDF or BDF file"});
        expectRefused(make("random.bin", std::string(300, '\x07')), {"not a recording"});
    }

    void truncatedInMainHeader() { expectRefused(make("t100.edf", original_.substr(0, 100)), {"header", "256-byte"}); }

    void truncatedInSignalHeaders() {
        expectRefused(make("t1000.edf", original_.substr(0, 1000)), {"header", "ends inside the signal headers", "1000 of 6144"});
    }

    void truncatedByManyRecords() {
        expectRefused(make("t10rec.edf", original_.substr(0, kHeader + 10 * kRecord + 5)),
                      {"number of data records", "says 41 records", "10 complete records"});
    }

    void headerBytesContradictSignalCount() {
        expectRefused(make("hb.edf", withField(original_, 184, 8, "6400")),
                      {"number of header bytes", "contradicts itself", "23 signals"});
    }

    void negativeRecordCount() { expectRefused(make("neg.edf", withField(original_, 236, 8, "-5")), {"number of data records", "negative"}); }

    void recordCountLargerThanFile() {
        expectRefused(make("more.edf", withField(original_, 236, 8, "50")), {"number of data records", "says 50 records", "41 complete"});
    }

    void wholeExtraRecord() {
        expectRefused(make("extra.edf", original_ + original_.substr(kHeader, kRecord)),
                      {"number of data records", "says 41 records", "42 complete"});
    }

    void badSignalCount() {
        expectRefused(make("ns.edf", withField(original_, 252, 4, "abc")), {"number of signals", "not a number"});
        expectRefused(make("ns0.edf", withField(original_, 252, 4, "0")), {"number of signals", ">= 1"});
    }

    void badCalibration() {
        // Digital maximum of signal 3 (P7-O1) set equal to its minimum.
        const std::size_t ns = 23, dmaxPos = 256 + ns * (16 + 80 + 8 + 8 + 8 + 8);
        expectRefused(make("dig.edf", withField(original_, dmaxPos + 3 * 8, 8, "-2048")),
                      {"signal 3 'P7-O1' digital maximum", "greater than the digital minimum"});
        const std::size_t pmaxPos = 256 + ns * (16 + 80 + 8 + 8);
        expectRefused(make("phys.edf", withField(original_, pmaxPos + 5 * 8, 8, "-800")),
                      {"signal 5 'F3-C3' physical maximum", "equals the physical minimum"});
        const std::size_t sprPos = 256 + ns * (16 + 80 + 8 + 8 + 8 + 8 + 8 + 80);
        expectRefused(make("spr.edf", withField(original_, sprPos, 8, "0")),
                      {"signal 0 'FP1-F7' number of samples in each data record"});
    }

    void incompleteLastRecordOpensWithWarning() {
        const std::string p = make("short.edf", original_.substr(0, original_.size() - 100));
        auto rec = Recording::open(p);
        QCOMPARE(rec->durationS(), 40.0);
        QCOMPARE(rec->signals()[0].samples, 40LL * 256);
        QCOMPARE(rec->warnings().size(), std::size_t(2));
        QVERIFY(rec->warnings()[0].find("format errors") != std::string::npos);  // EDFlib's refusal
        QVERIFY(rec->warnings()[1].find("last data record is incomplete") != std::string::npos);
        QVERIFY(rec->warnings()[1].find("read 40 of 41 records") != std::string::npos);
        auto full = Recording::open(kSeizure);
        for (int s : {0, 14, 22}) QVERIFY(rec->read(s, 0, 40 * 256) == full->read(s, 0, 40 * 256));
        QVERIFY(!errorOf([&] { rec->read(0, 40 * 256 - 1, 2); }).empty());
    }

    void unknownRecordCountOpensWithWarning() {
        auto rec = Recording::open(make("unknown.edf", withField(original_, 236, 8, "-1")));
        QCOMPARE(rec->durationS(), 41.0);
        bool named = false;
        for (const auto& w : rec->warnings()) named |= w.find("number of data records: -1") != std::string::npos;
        QVERIFY(named);
    }

    void trailingBytesOpenWithWarning() {
        auto rec = Recording::open(make("trail.edf", original_ + std::string(17, '\0')));
        QCOMPARE(rec->durationS(), 41.0);
        bool named = false;
        for (const auto& w : rec->warnings()) named |= w.find("17 bytes after the last data record") != std::string::npos;
        QVERIFY(named);
    }

    void decimalDigitalRangeOpensWithWarning() {
        const std::size_t ns = 23, dmaxPos = 256 + ns * (16 + 80 + 8 + 8 + 8 + 8);
        auto rec = Recording::open(make("dec.edf", withField(original_, dmaxPos + 2 * 8, 8, "2047.0")));
        QCOMPARE(rec->signals()[2].digitalMax, 2047LL);
        bool named = false;
        for (const auto& w : rec->warnings()) named |= w.find("signal 2 'T7-P7' digital maximum: \"2047.0\"") != std::string::npos;
        QVERIFY(named);
        expectRefused(make("dec2.edf", withField(original_, dmaxPos + 2 * 8, 8, "2047.5")), {"signal 2 'T7-P7' digital maximum", "not an integer"});
    }

    void nonAsciiLabelOpensWithWarning() {
        std::string b = original_;
        b[256 + 2] = char(0xE9);  // "FP\xE91-F7"
        auto rec = Recording::open(make("latin1.edf", b));
        bool named = false;
        for (const auto& w : rec->warnings()) named |= w.find("signal 0 label") != std::string::npos;
        QVERIFY(named);
        QCOMPARE(rec->signals().size(), std::size_t(23));
    }

    // Control bytes in header fields and annotation texts are shown escaped ("\x1b"), so that
    // neither a terminal (ESC sequences), the tab-separated `info` nor the GUI acts on them.
    void controlBytesAreEscaped() {
        std::string b = withField(original_, 256, 16, std::string("FP1\x1b[2J\tX"));
        auto rec = Recording::open(make("control.edf", b));
        QCOMPARE(rec->signals()[0].displayName, std::string("FP1\\x1b[2J\\x09X"));
        QCOMPARE(rec->signals()[0].label, rec->signals()[0].displayName);
        // An annotation-only EDF+ file (tests/fuzz/seeds/regions) with a line break, ESC and a
        // C1 control (U+009B, a CSI on some terminals) inside its first text.
        std::string a = iotest::readFile(WARPLAB_SOURCE_DIR "/tests/fuzz/seeds/regions/chb01_03_regions.edf");
        const std::size_t at = a.find("seizure: onset");
        QVERIFY(at != std::string::npos);
        a.replace(at, 14, std::string("sz\n\x1b]0;x\xc2\x9bqrst"));  // the same 14 bytes
        for (const bool lenient : {false, true}) {
            OpenOptions o;
            o.forceLenient = lenient;
            auto ann = Recording::open(make("control_annotations.edf", a), o);
            QVERIFY(!ann->annotations().empty());
            QCOMPARE(ann->annotations()[0].text, std::string("sz\\x0a\\x1b]0;x\\xc2\\x9bqrst"));
        }
    }
};

QTEST_GUILESS_MAIN(TestEdfBadInput)
#include "test_edf_bad_input.moc"
