// The one-number-a-line fast path (io/number_column.h) against the general text parser, and the
// errors of a one-column file through readSeriesFile (the fast path leaves them to it).
#include <QtTest>

#include <charconv>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "io/number_column.h"
#include "io/recording.h"
#include "io/series_file.h"
#include "io/text_table.h"
#include "io_test_util.h"

using namespace warplab;
using namespace warplab::io;
using iotest::errorOf;

namespace {

// io::Recording::signals() collides with Qt's `signals` keyword macro (see widgets/recording_access.h).
#pragma push_macro("signals")
#undef signals
const std::vector<SignalInfo>& signalsOf(const Recording& r) { return r.signals(); }
#pragma pop_macro("signals")

// What the general parser makes of a one-column text (double, then float, as readSeriesFile).
std::vector<float> viaTable(const std::string& text) {
    std::vector<float> v;
    for (const auto& row : parseTextTable("t.txt", text).rows) {
        if (row.size() != 1) throw std::runtime_error("not one column");
        v.push_back(float(row[0]));
    }
    return v;
}

// A random walk in the forms a exported column takes ("%.6f", integers, exponents, a '+').
std::string column(std::size_t n, const char* eol, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> step(0, 1);
    std::string s;
    double x = 0;
    char buf[64];
    for (std::size_t i = 0; i < n; ++i) {
        x += step(rng);
        switch (i % 5) {
        case 0: std::snprintf(buf, sizeof buf, "%.6f", x); break;
        case 1: std::snprintf(buf, sizeof buf, "%.17g", x); break;
        case 2: std::snprintf(buf, sizeof buf, "%lld", (long long)std::llround(x)); break;
        case 3: std::snprintf(buf, sizeof buf, "%.3e", x); break;
        default: std::snprintf(buf, sizeof buf, x >= 0 ? " +%.4f\t" : " %.4f\t", x); break;
        }
        s += buf;
        s += eol;
    }
    return s;
}

}  // namespace

class TestNumberColumn : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string make(const std::string& name, const std::string& bytes) { return iotest::writeIn(dir_, name, bytes); }

private slots:
    // Several 1 MiB pieces (so piece boundaries fall at arbitrary lines), LF and CRLF, with and
    // without the last line's end: the same floats as the general parser.
    void sameAsTextTable_data() {
        QTest::addColumn<int>("lines");
        QTest::addColumn<QString>("eol");
        QTest::addColumn<bool>("lastEol");
        QTest::newRow("small LF") << 7 << "\n" << true;
        QTest::newRow("small no last LF") << 7 << "\n" << false;
        QTest::newRow("pieces LF") << 300001 << "\n" << true;
        QTest::newRow("pieces CRLF no last") << 300001 << "\r\n" << false;
    }
    void sameAsTextTable() {
        QFETCH(int, lines);
        QFETCH(QString, eol);
        QFETCH(bool, lastEol);
        const std::string e = eol.toStdString();
        std::string text = column(std::size_t(lines), e.c_str(), unsigned(lines));
        if (!lastEol) text.resize(text.size() - e.size());
        const auto fast = parseNumberColumn(text);
        QVERIFY(fast.has_value());
        QCOMPARE(fast->size(), std::size_t(lines));
        QVERIFY(*fast == viaTable(text));
        const auto s = readSeriesFile(make("col.txt", text));
        QCOMPARE(s.size(), std::size_t(1));
        QVERIFY(s[0].values == *fast);
        QCOMPARE(s[0].name, std::string("col"));
        // Opened as a recording (info, the GUI, --channel): one channel, named and described as
        // the general parser's single column, the same samples.
        const auto rec = Recording::open(make("rec.txt", text));
        QCOMPARE(signalsOf(*rec).size(), std::size_t(1));
        QCOMPARE(signalsOf(*rec)[0].label, std::string("column 1"));
        QVERIFY(rec->read(0, 0, signalsOf(*rec)[0].samples) == *fast);
        const auto viaRows = Recording::open(make("rows.txt", "# a comment sends it to the general parser\n" + text));
        QCOMPARE(signalsOf(*viaRows)[0].label, signalsOf(*rec)[0].label);
        QCOMPARE(signalsOf(*viaRows)[0].samples, signalsOf(*rec)[0].samples);
        QCOMPARE(viaRows->layout(), rec->layout());
    }

    // The short-decimal path (Clinger's: digits as an integer over a power of ten) against
    // from_chars through the general parser, bit for bit (the sign of zero included): random
    // magnitudes in fixed forms with 0 to 18 decimals, integers, mantissas just below and above
    // 2^53, 19 and 20 digits, leading zeros, negative zero, halfway-looking decimals.
    void shortDecimalsAsFromChars() {
        std::mt19937_64 rng(77);
        std::uniform_real_distribution<double> mag(-12, 9);
        std::uniform_int_distribution<int> decimals(0, 18);
        std::string text;
        char buf[96];
        for (int i = 0; i < 200000; ++i) {
            const double x = (rng() & 1 ? -1 : 1) * std::pow(10.0, mag(rng));
            std::snprintf(buf, sizeof buf, "%.*f\n", decimals(rng), x);
            text += buf;
        }
        for (const char* fixed : {"9007199254740992", "9007199254740993", "900719925474099.3", "9007199254740.9925",
                                  "1234567890123456789", "12345678901234567890", "0.1234567890123456789",
                                  "-0.000000", "-0", "0", "000123.4500", "0.30000000000000004", "2.5", "0.15",
                                  "1e5", "1.5E-3", "-7.25", "4503599627370497.5", "3.4028235677973366e38"})
            text += std::string(fixed) + "\n";
        // Each line as a double, against from_chars, bit for bit.
        std::size_t taken = 0, lines = 0;
        for (std::size_t at = 0; at < text.size(); ++lines) {
            const std::size_t nl = text.find('\n', at);
            const char *b = text.data() + at, *e = text.data() + nl;
            double mine = 0, theirs = 0;
            std::from_chars(b, e, theirs);
            if (parseShortDecimal(b, e, mine)) {
                ++taken;
                QVERIFY2(std::memcmp(&mine, &theirs, sizeof(double)) == 0,
                         qPrintable(QString("%1: %2 vs %3").arg(QString::fromStdString(std::string(b, e)))
                                        .arg(mine, 0, 'g', 17).arg(theirs, 0, 'g', 17)));
            }
            at = nl + 1;
        }
        QVERIFY(taken > lines / 2);  // the path under test is the one taken
        const auto fast = parseNumberColumn(text);
        QVERIFY(fast.has_value());
        const auto ref = viaTable(text);
        QCOMPARE(fast->size(), ref.size());
        for (std::size_t i = 0; i < ref.size(); ++i)
            QVERIFY2(std::memcmp(&(*fast)[i], &ref[i], sizeof(float)) == 0,
                     qPrintable(QString("line %1: %2 vs %3").arg(i + 1).arg(double((*fast)[i]), 0, 'g', 9).arg(double(ref[i]), 0, 'g', 9)));
    }

    // Anything but plain numbers goes to the general parser (which may still accept it).
    void declines_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("one line") << "1.5\n";
        QTest::newRow("two fields") << "1 2\n3 4\n";
        QTest::newRow("comment") << "# x\n1\n2\n";
        QTest::newRow("header") << "eeg\n1\n2\n";
        QTest::newRow("blank last line") << "1\n2\n\n";
        QTest::newRow("NaN") << "1\nnan\n";
        QTest::newRow("inf") << "1\n-inf\n";
        QTest::newRow("bad") << "1\n2x\n";
        QTest::newRow("empty") << "";
    }
    void declines() {
        QFETCH(QString, text);
        QVERIFY(!parseNumberColumn(text.toStdString()).has_value());
    }
    void declinesBom() {  // not in the table above: QString would drop the BOM
        QVERIFY(!parseNumberColumn("\xEF\xBB\xBF" "1\n2\n").has_value());
        QVERIFY(readSeriesFile(make("bom.txt", "\xEF\xBB\xBF" "1\n2\n"))[0].values == std::vector<float>({1, 2}));
    }

    // Errors deep in a long one-column file name the file and the line, as before the fast path.
    void errorsNameFileAndLine_data() {
        QTest::addColumn<QString>("bad");
        QTest::addColumn<QString>("expected");
        QTest::newRow("bad number") << "12.5x" << "line 250001, field 1: not a number: \"12.5x\"";
        QTest::newRow("NaN") << "NaN" << "line 250001: empty series";
        QTest::newRow("inf") << "-inf" << "line 250001, field 1: infinite value";
    }
    void errorsNameFileAndLine() {
        QFETCH(QString, bad);
        QFETCH(QString, expected);
        std::string text = column(250000, "\n", 7) + bad.toStdString() + "\n" + column(1000, "\n", 8);
        const std::string p = make("long.txt", text);
        const std::string m = errorOf([&] { readSeriesFile(p); });
        QVERIFY2(m.rfind(p + ": ", 0) == 0, m.c_str());
        QVERIFY2(m.find(expected.toStdString()) != std::string::npos, m.c_str());
    }
};

QTEST_GUILESS_MAIN(TestNumberColumn)
#include "test_number_column.moc"
