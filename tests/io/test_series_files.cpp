// Series files (UCR text and TSV, Bonn one-value-per-line, CSV with header, multivariate,
// NPY, an EDF channel window) through readSeriesFile, and text files as recordings.
#include <QtTest>
#undef signals  // Qt keyword macro; io::Recording::signals() is meant here

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <sstream>

#include "io/npy.h"
#include "io/recording.h"
#include "io/series_file.h"
#include "io_test_util.h"

using namespace warplab;
using namespace warplab::io;
using iotest::errorOf;

namespace {

const std::string kData = WARPLAB_TEST_DATA;

// Independent reading of one whitespace/tab separated line with iostreams.
std::vector<double> lineValues(const std::string& path, int lineIndex) {
    std::istringstream all(iotest::readFile(path));
    std::string line;
    for (int i = 0; i <= lineIndex; ++i) std::getline(all, line);
    std::istringstream in(line);
    std::vector<double> v;
    double x;
    while (in >> x) v.push_back(x);
    return v;
}

std::map<std::string, int> labelCounts(const compute::SeriesSet& s) {
    std::map<std::string, int> m;
    for (const auto& x : s) ++m[x.label];
    return m;
}

// A hand-made .npy: magic, version 1.0, header dict padded to 64 bytes, raw data.
std::string npyBytes(const std::string& descr, const std::string& shape, bool fortran, const void* data, std::size_t n) {
    std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape + ", }";
    while ((10 + dict.size() + 1) % 64) dict += ' ';
    dict += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    out += char(dict.size() & 0xff);
    out += char(dict.size() >> 8);
    return out + dict + std::string(static_cast<const char*>(data), n);
}

}  // namespace

class TestSeriesFiles : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string make(const std::string& name, const std::string& bytes) { return iotest::writeIn(dir_, name, bytes); }

private slots:
    void ucrEcg200WithLabels() {
        const std::string f = kData + "/ucr/ECG200/ECG200_TRAIN.txt";
        SeriesFileOptions o;
        o.labelColumn = true;
        auto s = readSeriesFile(f, o);
        QCOMPARE(s.size(), std::size_t(100));
        for (const auto& x : s) QCOMPARE(x.length, std::size_t(96));
        auto counts = labelCounts(s);
        QCOMPARE(counts["1"], 69);
        QCOMPARE(counts["-1"], 31);
        for (int row : {0, 57, 99}) {
            auto ref = lineValues(f, row);
            QCOMPARE(ref.size(), std::size_t(97));
            for (std::size_t i = 0; i < 96; ++i) QCOMPARE(s[row].values[i], float(ref[i + 1]));
        }
        auto unlabeled = readSeriesFile(f);
        QCOMPARE(unlabeled[0].length, std::size_t(97));  // the label stays a value without --label-column
        QCOMPARE(unlabeled[0].label, std::string());
    }

    void ucrGunPointTsv() {
        SeriesFileOptions o;
        o.labelColumn = true;
        auto train = readSeriesFile(kData + "/ucr/GunPoint/GunPoint_TRAIN.tsv", o);
        auto test = readSeriesFile(kData + "/ucr/GunPoint/GunPoint_TEST.tsv", o);
        QCOMPARE(train.size(), std::size_t(50));
        QCOMPARE(test.size(), std::size_t(150));
        QCOMPARE(train[0].length, std::size_t(150));
        QCOMPARE(labelCounts(train)["2"], 26);
        QCOMPARE(labelCounts(train)["1"], 24);
        QCOMPARE(labelCounts(test)["1"], 76);
        QCOMPARE(labelCounts(test)["2"], 74);
        auto ref = lineValues(kData + "/ucr/GunPoint/GunPoint_TEST.tsv", 149);
        QCOMPARE(test[149].values.back(), float(ref.back()));
    }

    void bonnOneValuePerLine_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<float>("min");
        QTest::addColumn<float>("max");
        QTest::newRow("S001") << "bonn/S/S001.txt" << -1765.f << 1027.f;
        QTest::newRow("F001") << "bonn/F/F001.txt" << -64.f << 123.f;
        QTest::newRow("Z005") << "bonn/Z/Z005.txt" << -188.f << 152.f;
    }
    void bonnOneValuePerLine() {
        QFETCH(QString, file);
        QFETCH(float, min);
        QFETCH(float, max);
        auto s = readSeriesFile(kData + "/" + file.toStdString());
        QCOMPARE(s.size(), std::size_t(1));
        QCOMPARE(s[0].length, std::size_t(4097));
        auto [lo, hi] = std::minmax_element(s[0].values.begin(), s[0].values.end());
        QCOMPARE(*lo, min);
        QCOMPARE(*hi, max);
    }

    void csvWithHeader() {
        const std::string p = make("two.csv", "alpha, beta\n1,2\n3,4.5\n-1e3,7\n");
        auto s = readSeriesFile(p);
        QCOMPARE(s.size(), std::size_t(2));
        QCOMPARE(s[0].name, std::string("alpha"));
        QCOMPARE(s[1].name, std::string("beta"));
        QVERIFY(s[0].values == std::vector<float>({1, 3, -1000}));
        QVERIFY(s[1].values == std::vector<float>({2, 4.5f, 7}));
        SeriesFileOptions o;
        o.multivariate = true;
        auto m = readSeriesFile(p, o);
        QCOMPARE(m.size(), std::size_t(1));
        QCOMPARE(m[0].dims, std::size_t(2));
        QCOMPARE(m[0].length, std::size_t(3));
        QVERIFY(m[0].values == std::vector<float>({1, 2, 3, 4.5f, -1000, 7}));
    }

    void multivariateOneChannelPerLine() {
        SeriesFileOptions o;
        o.multivariate = true;
        auto s = readSeriesFile(make("mv.txt", "1 2 3\n4\t5\t6\r\n"), o);
        QCOMPARE(s.size(), std::size_t(1));
        QCOMPARE(s[0].dims, std::size_t(2));
        QCOMPARE(s[0].length, std::size_t(3));
        QVERIFY(s[0].values == std::vector<float>({1, 4, 2, 5, 3, 6}));
        const std::string m = errorOf([&] { readSeriesFile(make("mv_bad.txt", "1 2 3\n4 5\n"), o); });
        QVERIFY2(m.find("mv_bad.txt: line 2") != std::string::npos && m.find("equal length") != std::string::npos, m.c_str());
    }

    void raggedAndPaddedRows() {
        auto s = readSeriesFile(make("ragged.txt", "1 2 3\n4 5\n6,7,8,9\n1 2 NaN NaN\n"));
        QCOMPARE(s.size(), std::size_t(4));
        QCOMPARE(s[0].length, std::size_t(3));
        QCOMPARE(s[1].length, std::size_t(2));
        QCOMPARE(s[2].length, std::size_t(4));
        QCOMPARE(s[3].length, std::size_t(2));  // UCR's trailing NaN padding is not data
    }

    void badText_data() {
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("expected");
        QTest::newRow("NaN inside") << "1 2 3\n1 NaN 3\n" << "line 2, field 2: NaN value";
        QTest::newRow("infinity") << "1 inf 3\n" << "line 1, field 2: infinite value";
        QTest::newRow("bad number") << "1 2\n3 x4\n" << "line 2, field 2: not a number: \"x4\"";
        QTest::newRow("empty field") << "1,,3\n" << "line 1, field 2: empty field";
        QTest::newRow("blank line inside") << "1 2\n\n3 4\n" << "line 2: empty line between data lines";
        QTest::newRow("no data") << "\n\n" << "no numeric data";
    }
    void badText() {
        QFETCH(QString, content);
        QFETCH(QString, expected);
        const std::string p = make("bad.txt", content.toStdString());
        const std::string m = errorOf([&] { readSeriesFile(p); });
        QVERIFY2(m.rfind(p + ": ", 0) == 0, m.c_str());
        QVERIFY2(m.find(expected.toStdString()) != std::string::npos, m.c_str());
    }

    void labelWithoutValues() {
        SeriesFileOptions o;
        o.labelColumn = true;
        const std::string m = errorOf([&] { readSeriesFile(make("lbl.txt", "1 2 3\n2\n"), o); });
        QVERIFY2(m.find("line 2: a label but no values") != std::string::npos, m.c_str());
    }

    void npyArrays() {
        const double d[6] = {1, 2, 3, 4, 5, 6.25};
        auto s = readSeriesFile(make("m.npy", npyBytes("<f8", "(2, 3)", false, d, sizeof d)));
        QCOMPARE(s.size(), std::size_t(2));
        QVERIFY(s[1].values == std::vector<float>({4, 5, 6.25f}));
        auto f = readSeriesFile(make("f.npy", npyBytes("<f8", "(2, 3)", true, d, sizeof d)));
        QVERIFY(f[0].values == std::vector<float>({1, 3, 5}));  // Fortran order: columns first
        const float v[4] = {0.5f, -1, 2, 8};
        auto one = readSeriesFile(make("v.npy", npyBytes("<f4", "(4,)", false, v, sizeof v)));
        QCOMPARE(one.size(), std::size_t(1));
        QVERIFY(one[0].values == std::vector<float>({0.5f, -1, 2, 8}));
        const std::string m = errorOf([&] { readSeriesFile(make("short.npy", npyBytes("<f8", "(2, 3)", false, d, 40))); });
        QVERIFY2(m.find("short.npy: data: the shape needs 6 values but the file holds 5") != std::string::npos, m.c_str());
        // Found by fuzzing (tests/io/corpus/fuzz_text_readers/crash_npy_zero_rows.npy): no rows.
        SeriesFileOptions mv;
        mv.multivariate = true;
        const std::string z = errorOf([&] { readSeriesFile(make("z.npy", npyBytes("<f8", "(0, 4)", false, d, 0)), mv); });
        QVERIFY2(z.find("z.npy: shape: an empty array holds no series") != std::string::npos, z.c_str());
        const std::string t = errorOf([&] { readSeriesFile(make("c.npy", npyBytes("<c16", "(1,)", false, d, 16))); });
        QVERIFY2(t.find("descr: unsupported dtype '<c16'") != std::string::npos, t.c_str());
    }

    // A C-order .npy is decoded row by row into the series (npyRowSeries); a Fortran-order one
    // goes through the whole array of doubles. The same array stored both ways must give the
    // same series bit for bit, in every dtype (int64 beyond 2^53 and doubles that are not floats
    // round through double, as the array path does), with the same names and errors.
    void npyRowsEqualArrayPath() {
        std::mt19937_64 rng(7);
        const std::size_t rows = 37, cols = 129;
        auto both = [&](const std::string& descr, auto sample) {
            using T = decltype(sample);
            std::vector<T> c(rows * cols), f(rows * cols);
            for (std::size_t i = 0; i < rows; ++i)
                for (std::size_t j = 0; j < cols; ++j) {
                    T v;
                    if constexpr (std::is_floating_point_v<T>)
                        v = T(std::normal_distribution<double>(0, 1e3)(rng));
                    else
                        v = T(rng());
                    c[i * cols + j] = f[j * rows + i] = v;
                }
            const std::string shape = "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
            const std::string name = "rows_" + descr.substr(1);
            auto a = readSeriesFile(make(name + ".npy", npyBytes(descr, shape, false, c.data(), c.size() * sizeof(T))));
            auto b = readSeriesFile(make(name + "_f.npy", npyBytes(descr, shape, true, f.data(), f.size() * sizeof(T))));
            QCOMPARE(a.size(), rows);
            QCOMPARE(b.size(), rows);
            for (std::size_t i = 0; i < rows; ++i) {
                QVERIFY2(a[i].values == b[i].values, (descr + " row " + std::to_string(i)).c_str());
                QCOMPARE(a[i].length, cols);
                QCOMPARE(a[i].name, name + ":" + std::to_string(i));
                QCOMPARE(b[i].name, name + "_f:" + std::to_string(i));
            }
        };
        both("<f8", double());
        both("<f4", float());
        both("<i8", std::int64_t());
        both("<i4", std::int32_t());
        both("<i2", std::int16_t());
        both("|i1", std::int8_t());
        both("|u1", std::uint8_t());
        double bad[6] = {1, 2, 3, 4, 5, 6};
        bad[4] = std::nan("");
        for (bool fortran : {false, true}) {
            const std::string m = errorOf([&] { readSeriesFile(make("nan.npy", npyBytes("<f8", "(2, 3)", fortran, bad, sizeof bad))); });
            QVERIFY2(m.find("nan.npy: data: NaN or infinite value") != std::string::npos, m.c_str());
        }
        const std::string z = errorOf([&] { readSeriesFile(make("z0.npy", npyBytes("<f4", "(3, 0)", false, bad, 0))); });
        QVERIFY2(z.find("z0.npy: shape: an empty array holds no series") != std::string::npos, z.c_str());
    }

    // One long series (a 1-D array) is decoded in pieces on all cores: across the pieces'
    // edges and the ragged last piece it is the array path's series bit for bit, and a value
    // that is not finite in the last piece is still refused.
    void npyLongSeriesInPieces() {
        std::mt19937_64 rng(9);
        const std::size_t n = 3 * 65536 + 1234;
        auto both = [&](const std::string& descr, auto sample) {
            using T = decltype(sample);
            std::vector<T> v(n);
            for (auto& x : v) {
                if constexpr (std::is_floating_point_v<T>) x = T(std::normal_distribution<double>(0, 1e3)(rng));
                else x = T(rng());
            }
            const std::string name = "long_" + descr.substr(1);
            const std::string shape1 = "(" + std::to_string(n) + ",)", shape2 = "(1, " + std::to_string(n) + ")";
            auto a = readSeriesFile(make(name + ".npy", npyBytes(descr, shape1, false, v.data(), v.size() * sizeof(T))));
            auto b = readSeriesFile(make(name + "_f.npy", npyBytes(descr, shape2, true, v.data(), v.size() * sizeof(T))));
            QCOMPARE(a.size(), std::size_t(1));
            QCOMPARE(a[0].length, n);
            QVERIFY2(a[0].values == b[0].values, descr.c_str());
            QCOMPARE(a[0].name, name + ":0");
        };
        both("<f8", double());
        both("<f4", float());
        both("<i2", std::int16_t());
        std::vector<float> bad(n, 1.0f);
        bad[n - 3] = std::numeric_limits<float>::infinity();
        const std::string m = errorOf([&] { readSeriesFile(make("inf.npy", npyBytes("<f4", "(" + std::to_string(n) + ",)", false, bad.data(), n * 4))); });
        QVERIFY2(m.find("inf.npy: data: NaN or infinite value") != std::string::npos, m.c_str());
    }

    void edfChannelWindow() {
        const std::string f = kData + "/chbmit/chb01_03_Seizure.edf";
        SeriesFileOptions o;
        o.channel = "T8-P8 (2)";
        o.windowStartS = 1.0;
        o.windowLengthS = 2.0;
        auto s = readSeriesFile(f, o);
        QCOMPARE(s.size(), std::size_t(1));
        QCOMPARE(s[0].length, std::size_t(512));
        auto rec = Recording::open(f);
        QVERIFY(s[0].values == rec->read(22, 256, 512));
        o.channel = "Cz";
        QVERIFY(errorOf([&] { readSeriesFile(f, o); }).find("channel: no signal named \"Cz\"") != std::string::npos);
        o.channel = "#0";
        o.windowStartS = 40.0;
        const std::string m = errorOf([&] { readSeriesFile(f, o); });
        QVERIFY2(m.find("window: [40 s, 42 s) runs past the end of 'FP1-F7' (41 s)") != std::string::npos, m.c_str());
        o.windowStartS.reset();
        o.windowLengthS.reset();
        o.channel.clear();
        QVERIFY(errorOf([&] { readSeriesFile(f, o); }).find("channel: the recording has 23 signals") != std::string::npos);
    }

    // .npy values read by parts (readNpyLayout, readNpyValues): every part equals that slice of
    // readNpy's values, in every dtype and shape; a truncated file and a part outside the array
    // are refused naming the file.
    void npyValuesByParts() {
        const double d[6] = {1, 2, 3, 4, 5, 6.25};
        const std::int16_t i2[6] = {-3, 7, 0, 32767, -32768, 12};
        const float f4[6] = {0.5f, -1, 2, 8, 1e-3f, 3.25f};
        struct Case {
            const char *name, *descr, *shape;
            bool fortran;
            const void* data;
            std::size_t bytes;
        };
        for (const Case& c : {Case{"p1.npy", "<f8", "(6,)", false, d, sizeof d}, Case{"p2.npy", "<f4", "(1, 6)", false, f4, sizeof f4},
                              Case{"p3.npy", "<i2", "(6, 1)", true, i2, sizeof i2}, Case{"p4.npy", "<f8", "(2, 3)", false, d, sizeof d}}) {
            const std::string f = make(c.name, npyBytes(c.descr, c.shape, c.fortran, c.data, c.bytes));
            const NpyArray whole = readNpy(f);
            const NpyLayout l = readNpyLayout(f);
            QCOMPARE(l.count, std::size_t(6));
            QVERIFY(l.shape == whole.shape);
            for (std::size_t a = 0; a <= 6; ++a)
                for (std::size_t b = a; b <= 6; ++b) {
                    const std::vector<double> part = readNpyValues(f, l, a, b - a);
                    if (!(c.fortran && whole.shape.size() == 2 && whole.shape[0] > 1 && whole.shape[1] > 1))
                        QVERIFY2(part == std::vector<double>(whole.data.begin() + long(a), whole.data.begin() + long(b)),
                                 qPrintable(QString("%1 [%2, %3)").arg(c.name).arg(a).arg(b)));
                }
            const std::string m = errorOf([&] { readNpyValues(f, l, 4, 3); });
            QVERIFY2(m.find(std::string(c.name) + ": data: values [4, 7) lie outside the 6 of the array") != std::string::npos,
                     m.c_str());
        }
        const std::string t = errorOf([&] { readNpyLayout(make("t.npy", npyBytes("<f8", "(6,)", false, d, 40))); });
        QVERIFY2(t.find("t.npy: data: the shape needs 6 values but the file holds 5") != std::string::npos, t.c_str());
        const std::string h = errorOf([&] { readNpyLayout(make("h.npy", std::string("\x93NUMPY\x01\x00\x40\x00{'descr'", 18))); });
        QVERIFY2(h.find("h.npy: header: truncated header") != std::string::npos, h.c_str());
        const std::string n = errorOf([&] { readNpyLayout(make("n.npy", "just text, no magic")); });
        QVERIFY2(n.find("n.npy: magic: not a NumPy .npy file") != std::string::npos, n.c_str());
    }

    // A channel window read by parts (an MPI rank's stretch of a search reference): every part
    // equals that slice of the whole read, the parts cover it, and the errors are the whole
    // read's (found from the header) or name the part that lies outside.
    void edfChannelWindowByParts() {
        const std::string f = kData + "/chbmit/chb01_03_Seizure.edf";
        for (bool windowed : {false, true}) {
            SeriesFileOptions o;
            o.channel = "FP1-F7";
            if (windowed) {
                o.windowStartS = 3.5;
                o.windowLengthS = 20.0;
            }
            const compute::Series whole = readSeriesFile(f, o).front();
            const ChannelWindow w = locateChannelWindow(f, o);
            QCOMPARE(std::size_t(w.count), whole.length);
            QCOMPARE(w.name, whole.name);
            QVERIFY(isRecordingFile(f));
            std::vector<float> joined;
            const long long n = w.count;
            for (int K : {1, 3, 7}) {
                joined.clear();
                for (int r = 0; r < K; ++r) {
                    const compute::Series part = readChannelWindow(w, n * r / K, n * (r + 1) / K);
                    QCOMPARE(part.name, whole.name);
                    joined.insert(joined.end(), part.values.begin(), part.values.end());
                }
                QVERIFY2(joined == whole.values, qPrintable(QString("windowed %1, %2 parts").arg(windowed).arg(K)));
            }
            QCOMPARE(readChannelWindow(w, 5, 5).length, std::size_t(0));
            const std::string m = errorOf([&] { readChannelWindow(w, n - 2, n + 1); });
            QVERIFY2(m.find("window: samples [" + std::to_string(n - 2) + ", " + std::to_string(n + 1) + ") lie outside") !=
                         std::string::npos,
                     m.c_str());
        }
        SeriesFileOptions bad;
        bad.channel = "Cz";
        QVERIFY(errorOf([&] { locateChannelWindow(f, bad); }).find("channel: no signal named \"Cz\"") != std::string::npos);
        QVERIFY(!isRecordingFile(kData + "/ucr/ECG200/ECG200_TRAIN.txt"));
    }

    void textFilesAsRecordings() {
        OpenOptions o;
        o.rateHz = 173.61;
        auto bonn = Recording::open(kData + "/bonn/S/S001.txt", o);
        QCOMPARE(bonn->format(), Format::Text);
        QCOMPARE(bonn->signals().size(), std::size_t(1));
        QCOMPARE(bonn->signals()[0].samples, 4097LL);
        QCOMPARE(bonn->durationS(), 4097 / 173.61);
        QCOMPARE(bonn->layout(), std::string("one channel per column"));
        QVERIFY(bonn->warnings().empty());
        auto gun = Recording::open(kData + "/ucr/GunPoint/GunPoint_TRAIN.tsv");
        QCOMPARE(gun->format(), Format::Csv);
        QCOMPARE(gun->layout(), std::string("one series per row"));
        QCOMPARE(gun->signals().size(), std::size_t(50));
        QCOMPARE(gun->warnings().size(), std::size_t(1));  // no rate: 1 Hz assumed, said so
        auto ecg = Recording::open(kData + "/ucr/ECG200/ECG200_TEST.txt");
        QCOMPARE(ecg->layout(), std::string("one series per row"));
        QCOMPARE(ecg->signals().size(), std::size_t(100));
        auto csv = Recording::open(make("chan.csv", "Fp1,Fp2,Cz\n1,2,3\n4,5,6\n"), o);
        QCOMPARE(csv->layout(), std::string("one channel per column (header names)"));
        QCOMPARE(csv->findSignal("Cz"), 2);
        QVERIFY(csv->read(2, 0, 2) == std::vector<float>({3, 6}));
        QVERIFY(errorOf([&] { csv->readDigital(0, 0, 1); }).find("only in EDF/BDF") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestSeriesFiles)
#include "test_series_files.moc"
