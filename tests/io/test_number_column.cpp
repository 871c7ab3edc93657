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

// A random walk in the forms an exported column takes ("%.6f", integers, exponents, a '+'),
// and some it rarely takes: many digits, leading zeros, "5." and ".5", subnormal magnitudes.
std::string column(std::size_t n, const char* eol, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> step(0, 1);
    std::string s;
    double x = 0;
    char buf[96];
    for (std::size_t i = 0; i < n; ++i) {
        x += step(rng);
        switch (i % 10) {
        case 0: case 5: std::snprintf(buf, sizeof buf, "%.6f", x); break;
        case 1: std::snprintf(buf, sizeof buf, "%.17g", x); break;
        case 2: std::snprintf(buf, sizeof buf, "%lld", (long long)std::llround(x)); break;
        case 3: std::snprintf(buf, sizeof buf, "%.3e", x); break;
        case 4: std::snprintf(buf, sizeof buf, x >= 0 ? " +%.4f\t" : " %.4f\t", x); break;
        case 6: std::snprintf(buf, sizeof buf, "%.25f", x); break;
        case 7: std::snprintf(buf, sizeof buf, x >= 0 ? "000%.1f" : "-000%.1f", std::fabs(x)); break;
        case 8: std::snprintf(buf, sizeof buf, "%.12E", x * 1e-315); break;
        default: std::snprintf(buf, sizeof buf, i % 20 == 9 ? "%.0f." : ".%.0f", std::fabs(std::round(x))); break;
        }
        s += buf;
        s += eol;
    }
    return s;
}

// Floats equal bit for bit (the sign of zero included).
bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

// Random tokens in many forms, each a candidate number: fixed and exponent forms of magnitudes
// from below the smallest subnormal to beyond the largest double, 0 to 25 digits, signs
// (a '+' included, which from_chars refuses), leading zeros, long digit strings, and random
// strings over the characters a number is made of.
std::vector<std::string> tokens(std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> mag(-330, 310), small(-12, 9), unit(0, 1);
    std::uniform_int_distribution<int> digits(0, 25), kind(0, 7), len(1, 14);
    static constexpr char kAlphabet[] = "0123456789012345.-+eE.0e9infa";
    std::vector<std::string> out;
    char buf[160];
    for (std::size_t i = 0; i < n; ++i) {
        const double sign = rng() & 1 ? -1 : 1;
        switch (kind(rng)) {
        case 0: std::snprintf(buf, sizeof buf, "%.*f", digits(rng) % 19, sign * std::pow(10.0, small(rng))); break;
        case 1: std::snprintf(buf, sizeof buf, "%.*e", digits(rng), sign * std::pow(10.0, mag(rng))); break;
        case 2: std::snprintf(buf, sizeof buf, "%.*E", digits(rng), sign * std::pow(10.0, mag(rng))); break;
        case 3: std::snprintf(buf, sizeof buf, "%.17g", sign * std::pow(10.0, mag(rng))); break;
        case 4: {  // a long digit string, a point somewhere, maybe an exponent
            std::string d;
            const int m = 1 + digits(rng) * 3;
            for (int k = 0; k < m; ++k) d += char('0' + rng() % 10);
            d.insert(rng() % (d.size() + 1), ".");
            if (rng() & 1) d += "e" + std::to_string(int(rng() % 700) - 350);
            std::snprintf(buf, sizeof buf, "%s%s", sign < 0 ? "-" : "", d.c_str());
            break;
        }
        case 5: std::snprintf(buf, sizeof buf, "%s000%.*f", sign < 0 ? "-" : rng() & 1 ? "+" : "", digits(rng) % 8, unit(rng) * 1000); break;
        default: {
            std::string r;
            for (int k = len(rng); k > 0; --k) r += kAlphabet[rng() % (sizeof kAlphabet - 1)];
            std::snprintf(buf, sizeof buf, "%s", r.c_str());
            break;
        }
        }
        out.emplace_back(buf);
    }
    for (const char* fixed :
         {"9007199254740992", "9007199254740993", "900719925474099.3", "1234567890123456789", "12345678901234567890",
          "0.1234567890123456789", "-0.000000", "-0", "0", "000123.4500", "0.30000000000000004", "2.5", "0.15", "1e5",
          "1.5E-3", "-7.25", "4503599627370497.5", "3.4028235677973366e38", "4.9406564584124654e-324",
          "2.4703282292062327e-324", "2.4703282292062328e-324", "2.2250738585072011e-308", "2.2250738585072014e-308",
          "1e-310", "-1e-320", "1e-400", "-1e-400", "1e-99999999999999999999", "1e99999999999999999999",
          "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "1e400", "-1e400",
          "0e999", "-0e-999", "0.000e-400", "00000.0000e-5", "1.", ".5", "-.5", "5e", "5e+", "5e-", "e5", ".", "-",
          "", "+", "+1", " 1", "1 ", "1e5x", "0x10", "0x1p3", "inf", "-inf", "+inf", "infinity", "INF", "nan", "-nan",
          "NaN", "nan(1)", "1,5", "1..5", "--1", "1e5.5", "+-1", "++1", "+-inf", "+ 1"})
        out.emplace_back(fixed);
    return out;
}

}  // namespace

class TestNumberColumn : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string make(const std::string& name, const std::string& bytes) { return iotest::writeIn(dir_, name, bytes); }

private slots:
    // A '+' is taken before the digits only: "+-1" and "++1" are refused by both readers.
    void plusOnlyBeforeTheDigits() {
        QVERIFY(parseNumberColumn("+1\n-2\n").has_value());
        for (const char* bad : {"+-1\n", "++1\n", "1\n+-2\n"}) {
            QVERIFY2(!parseNumberColumn(bad).has_value(), bad);
            bool refused = false;
            try {
                (void)warplab::io::parseTextTable("t.txt", bad);
            } catch (const std::exception&) {
                refused = true;
            }
            QVERIFY2(refused, bad);
        }
    }

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
        QVERIFY(sameBits(*fast, viaTable(text)));
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

    // The line reader that finds line ends 64 bytes at a time and reads [-]D.F lines 16 bytes at
    // a time: every count of digits before and after the point (0 to 17: some it takes, the
    // longer ones it hands to the general reading), signs, LF and CR LF, with the lines at every
    // offset from the blocks and near the end of the text (where the last lines are read one by
    // one), and a last line with and without its LF: the same floats as the general parser.
    void linesAtEveryLengthAndPlace() {
        std::mt19937_64 rng(5);
        std::string body;
        for (int a = 1; a <= 17; ++a)
            for (int f = 0; f <= 17; ++f)
                for (int form = 0; form < 3; ++form) {
                    std::string line = rng() & 1 ? "-" : "";
                    for (int k = 0; k < a; ++k) line += char('0' + rng() % 10);
                    if (f > 0) {
                        line += '.';
                        for (int k = 0; k < f; ++k) line += char('0' + rng() % 10);
                    }
                    body += line + (form == 2 ? "\r\n" : "\n");
                }
        std::size_t checked = 0;
        for (std::size_t shift = 0; shift < 64; ++shift)
            for (bool lastEol : {true, false}) {
                // A first line of shift leading zeros and a 1 moves every later line by one byte.
                std::string text = std::string(shift, '0') + "1\n" + body + "-2.5";
                if (lastEol) text += "\n";
                const auto fast = parseNumberColumn(text);
                QVERIFY(fast.has_value());
                QVERIFY2(sameBits(*fast, viaTable(text)), qPrintable(QString("shift %1").arg(shift)));
                ++checked;
            }
        QCOMPARE(checked, std::size_t(128));
        // Lines the 16-byte reader refuses and hands on, deep in a text: the general reading's
        // verdict (taken with the same value, or the whole text declined).
        for (const char* odd : {"1.2.3", "-", "1.", ".5", "-.5", "1e5", "12a4", "--1", "1..2", "+3.25", " 7.5 ", "1\r\r", "8.\r"}) {
            std::string text = body + odd + "\n" + body;
            const auto fast = parseNumberColumn(text);
            std::vector<float> general;
            bool generalTakes = true;
            try {
                general = viaTable(text);
            } catch (const std::exception&) {
                generalTakes = false;
            }
            QVERIFY2(!fast || generalTakes, odd);  // never taken where the general reading refuses
            if (fast) QVERIFY2(sameBits(*fast, general), odd);
        }
        QVERIFY(!parseNumberColumn(body + "1.2.3\n" + body).has_value());
        QVERIFY(!parseNumberColumn(body + "12a4\n" + body).has_value());
        QVERIFY(parseNumberColumn(body + "+3.25\n" + body).has_value());
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

    // parseFiniteDouble (the short path, else fast_float) against std::from_chars, token by
    // token: the same verdict (the whole token one finite number read without error) and the
    // same double, bit for bit.
    void finiteDoublesAsFromChars() {
        const auto all = tokens(400000, 77);
        std::size_t taken = 0, refusedRange = 0, refusedOther = 0;
        for (const auto& tok : all) {
            const char *b = tok.data(), *e = b + tok.size();
            double mine = -7, theirs = -7;
            const auto [p, ec] = std::from_chars(b, e, theirs);
            const bool expected = ec == std::errc() && p == e && std::isfinite(theirs);
            const bool got = parseFiniteDouble(b, e, mine);
            QVERIFY2(got == expected, qPrintable(QString("\"%1\": parseFiniteDouble says %2, from_chars %3")
                                                      .arg(QString::fromStdString(tok)).arg(got).arg(expected)));
            if (got) {
                ++taken;
                QVERIFY2(std::memcmp(&mine, &theirs, sizeof(double)) == 0,
                         qPrintable(QString("%1: %2 vs %3").arg(QString::fromStdString(tok))
                                        .arg(mine, 0, 'g', 17).arg(theirs, 0, 'g', 17)));
            } else {
                QCOMPARE(mine, -7.0);  // untouched
                ++(ec == std::errc::result_out_of_range ? refusedRange : refusedOther);
            }
        }
        // Each verdict is exercised: numbers, out of range (under- and overflow), other refusals.
        QVERIFY(taken > all.size() / 2);
        QVERIFY(refusedRange > 1000);
        QVERIFY(refusedOther > 1000);
        // The same tokens that parse, as a column (the line's stop found by the parser), LF and
        // CR LF: the same floats as the general parser, bit for bit.
        for (const char* eol : {"\n", "\r\n"}) {
            std::string text;
            for (const auto& tok : all) {
                double v;
                if (!tok.empty() && parseFiniteDouble(tok.data(), tok.data() + tok.size(), v)) text += tok + eol;
            }
            const auto fast = parseNumberColumn(text);
            QVERIFY(fast.has_value());
            QCOMPARE(fast->size(), taken);
            QVERIFY(sameBits(*fast, viaTable(text)));
        }
    }

    // Anything but plain numbers goes to the general parser (which may still accept it).
    void declines_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("one line") << "1.5\n";
        QTest::newRow("two fields") << "1 2\n3 4\n";
        QTest::newRow("comment") << "# x\n1\n2\n";
        QTest::newRow("header") << "eeg\n1\n2\n";
        QTest::newRow("blank last line") << "1\n2\n\n";
        QTest::newRow("blank line inside") << "1\n\n2\n";
        QTest::newRow("blank CRLF line") << "1\r\n\r\n2\r\n";
        QTest::newRow("underflow") << "1\n1e-400\n";
        QTest::newRow("overflow") << "1\n-1e400\n";
        QTest::newRow("hex") << "1\n0x10\n";
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
        QTest::addColumn<QString>("eol");
        QTest::addColumn<QString>("expected");
        QTest::newRow("bad number") << "12.5x" << "\n" << "line 250001, field 1: not a number: \"12.5x\"";
        QTest::newRow("bad number CRLF") << "12.5x" << "\r\n" << "line 250001, field 1: not a number: \"12.5x\"";
        QTest::newRow("exponent cut") << "-3.5e+" << "\n" << "line 250001, field 1: not a number: \"-3.5e+\"";
        QTest::newRow("underflow") << "2.4e-324" << "\n" << "line 250001, field 1: not a number: \"2.4e-324\"";
        QTest::newRow("overflow CRLF") << "-1.8e308" << "\r\n" << "line 250001, field 1: not a number: \"-1.8e308\"";
        QTest::newRow("NaN") << "NaN" << "\n" << "line 250001: empty series";
        QTest::newRow("inf") << "-inf" << "\n" << "line 250001, field 1: infinite value";
        QTest::newRow("inf CRLF") << "inf" << "\r\n" << "line 250001, field 1: infinite value";
        QTest::newRow("second field") << "1.5 x" << "\n" << "line 250001, field 2: not a number: \"x\"";
        QTest::newRow("blank line") << "" << "\n" << "line 250001: empty line between data lines";
        QTest::newRow("blank CRLF line") << "" << "\r\n" << "line 250001: empty line between data lines";
    }
    void errorsNameFileAndLine() {
        QFETCH(QString, bad);
        QFETCH(QString, eol);
        QFETCH(QString, expected);
        const std::string e = eol.toStdString();
        std::string text = column(250000, e.c_str(), 7) + bad.toStdString() + e + column(1000, e.c_str(), 8);
        const std::string p = make("long.txt", text);
        const std::string m = errorOf([&] { readSeriesFile(p); });
        QVERIFY2(m.rfind(p + ": ", 0) == 0, m.c_str());
        QVERIFY2(m.find(expected.toStdString()) != std::string::npos, m.c_str());
    }
};

QTEST_GUILESS_MAIN(TestNumberColumn)
#include "test_number_column.moc"
