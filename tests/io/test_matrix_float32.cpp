// Distance matrices written as float32 (.npy <f4, HDF5 IEEE float32): every writer (whole
// matrix, streamed tiles, symmetric mirroring, the MPI ranks' offset writer) stores each value
// as the float64 value rounded to the nearest float, readMatrix reads it back, the file holds
// four bytes a value, and CSV refuses float32 by name.
#include <QtTest>
#undef signals

#include <hdf5.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>

#include "compute/core/tile.h"
#include "io/io_error.h"
#include "io/matrix_io.h"
#include "io/npy.h"
#include "io/npy_offset_writer.h"
#include "io_test_util.h"

using namespace warplab;
using namespace warplab::io;

namespace {

// Random doubles that are not floats (so that rounding shows), with awkward ones among them.
compute::DistanceMatrix randomMatrix(std::size_t rows, std::size_t cols, unsigned seed) {
    compute::DistanceMatrix m;
    m.rows = rows;
    m.cols = cols;
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1e4);
    for (std::size_t k = 0; k < rows * cols; ++k) m.values.push_back(u(rng) / 3.0);
    m.values[0] = 0.1;
    if (m.values.size() > 3) {
        m.values[1] = std::numeric_limits<double>::infinity();
        m.values[2] = 1e-30;
        m.values[3] = 0.0;
    }
    m.params.metric = compute::Metric::Cdtw;
    m.params.band = 16;
    return m;
}

// Each value of `got` is exactly float(want).
bool roundedEqual(const std::vector<double>& got, const std::vector<double>& want) {
    if (got.size() != want.size()) return false;
    for (std::size_t k = 0; k < got.size(); ++k) {
        const double r = double(float(want[k]));
        if (std::memcmp(&got[k], &r, sizeof r) != 0) return false;
    }
    return true;
}

}  // namespace

class TestMatrixFloat32 : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const std::string& name) { return dir_.filePath(QString::fromStdString(name)).toStdString(); }

private slots:
    void wholeMatrix_data() {
        QTest::addColumn<QString>("ext");
        QTest::newRow("npy") << ".npy";
        QTest::newRow("h5") << ".h5";
    }
    void wholeMatrix() {
        QFETCH(QString, ext);
        const auto m = randomMatrix(37, 53, 1);
        const std::string f32 = path("whole32" + ext.toStdString()), f64 = path("whole64" + ext.toStdString());
        writeMatrix(f32, m, MatrixValueType::Float32);
        writeMatrix(f64, m);
        const auto a = readMatrix(f32), b = readMatrix(f64);
        QCOMPARE(a.rows, m.rows);
        QCOMPARE(a.cols, m.cols);
        QVERIFY(roundedEqual(a.values, m.values));
        QVERIFY(roundedEqual(a.values, b.values));  // the float64 file rounded == the float32 file
        QVERIFY(b.values == m.values);
        QVERIFY(a.values != m.values);  // the doubles were not floats: rounding happened
        QVERIFY(std::filesystem::file_size(f32) < std::filesystem::file_size(f64));
    }

    void npyHeaderAndSize() {
        const auto m = randomMatrix(5, 7, 2);
        const std::string f = path("h.npy");
        writeMatrix(f, m, MatrixValueType::Float32);
        const NpyLayout l = readNpyLayout(f);
        QCOMPARE(l.type, std::string("<f4"));
        QCOMPARE(l.valueSize, std::size_t(4));
        QCOMPARE(std::filesystem::file_size(f), l.dataStart + 35 * 4);
        std::ifstream in(f, std::ios::binary);
        in.seekg(std::streamoff(l.dataStart));
        float first = 0;
        in.read(reinterpret_cast<char*>(&first), sizeof first);
        QCOMPARE(first, 0.1f);
    }

    void hdf5StoresFloat32() {
        const auto m = randomMatrix(9, 4, 3);
        const std::string f = path("t.h5");
        writeMatrix(f, m, MatrixValueType::Float32);
        hid_t file = H5Fopen(f.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
        QVERIFY(file >= 0);
        hid_t d = H5Dopen2(file, "/distance", H5P_DEFAULT);
        hid_t t = H5Dget_type(d);
        QCOMPARE(H5Tget_class(t), H5T_FLOAT);
        QCOMPARE(H5Tget_size(t), size_t(4));
        H5Tclose(t);
        H5Dclose(d);
        H5Fclose(file);
        QCOMPARE(readMatrix(f).params.band, 16);
    }

    void csvRefusesFloat32() {
        const auto m = randomMatrix(2, 2, 4);
        const std::string f = path("m.csv");
        try {
            writeMatrix(f, m, MatrixValueType::Float32);
            QFAIL("float32 CSV accepted");
        } catch (const IoError& e) {
            QCOMPARE(e.field(), std::string("dtype"));
        }
        QVERIFY(!std::filesystem::exists(f));
    }

    void streamedTiles_data() { wholeMatrix_data(); }
    void streamedTiles() {
        QFETCH(QString, ext);
        const auto m = randomMatrix(70, 45, 5);
        const std::string f = path("stream32" + ext.toStdString());
        auto w = MatrixStreamWriter::create(f, m.rows, m.cols, m.params, false, MatrixValueType::Float32);
        std::vector<double> tile;
        for (std::size_t r0 = 0; r0 < m.rows; r0 += 16)
            for (std::size_t c0 = 0; c0 < m.cols; c0 += 20) {
                const compute::Tile t{r0, std::min(m.rows, r0 + 16), c0, std::min(m.cols, c0 + 20)};
                tile.clear();
                for (std::size_t r = t.rowBegin; r < t.rowEnd; ++r)
                    for (std::size_t c = t.colBegin; c < t.colEnd; ++c) tile.push_back(m.values[r * m.cols + c]);
                w->writeTile(t, tile.data());
            }
        w->finish();
        QVERIFY(roundedEqual(readMatrix(f).values, m.values));
    }

    void streamedSymmetric() {
        auto m = randomMatrix(30, 30, 6);
        for (std::size_t r = 0; r < 30; ++r)
            for (std::size_t c = 0; c < r; ++c) m.values[r * 30 + c] = m.values[c * 30 + r];
        const std::string f = path("sym32.npy");
        auto w = MatrixStreamWriter::create(f, 30, 30, m.params, true, MatrixValueType::Float32);
        std::vector<double> tile;
        for (std::size_t r0 = 0; r0 < 30; r0 += 8)
            for (std::size_t c0 = r0; c0 < 30; c0 += 8) {
                const compute::Tile t{r0, std::min<std::size_t>(30, r0 + 8), c0, std::min<std::size_t>(30, c0 + 8)};
                tile.clear();
                for (std::size_t r = t.rowBegin; r < t.rowEnd; ++r)
                    for (std::size_t c = t.colBegin; c < t.colEnd; ++c) tile.push_back(m.values[r * 30 + c]);
                w->writeTile(t, tile.data());
            }
        w->finish();
        QVERIFY(roundedEqual(readMatrix(f).values, m.values));
    }

    // Ranks of one host map the file; ranks of several write each tile row.
    void offsetWriter_data() {
        QTest::addColumn<bool>("oneHost");
        QTest::newRow("one host") << true;
        QTest::newRow("several hosts") << false;
    }
    void offsetWriter() {
        QFETCH(bool, oneHost);
        const auto m = randomMatrix(24, 40, 7);
        const std::string f = path(oneHost ? "ranks32-one.npy" : "ranks32.npy");
        createNpyShell(f, m.rows, m.cols, true);
        {
            // Two writers, as two ranks: rows [0, 10) and [10, 24), in tiles.
            NpyOffsetWriter a(f, m.rows, m.cols, true, oneHost), b(f, m.rows, m.cols, true, oneHost);
            std::vector<double> tile;
            for (std::size_t r0 = 0; r0 < m.rows; r0 += 5)
                for (std::size_t c0 = 0; c0 < m.cols; c0 += 16) {
                    const compute::Tile t{r0, std::min(m.rows, r0 + 5), c0, std::min(m.cols, c0 + 16)};
                    tile.clear();
                    for (std::size_t r = t.rowBegin; r < t.rowEnd; ++r)
                        for (std::size_t c = t.colBegin; c < t.colEnd; ++c) tile.push_back(m.values[r * m.cols + c]);
                    (r0 < 10 ? a : b).writeTile(t, tile.data());
                }
            a.close();
            b.close();
        }
        const NpyLayout l = readNpyLayout(f);
        QCOMPARE(l.type, std::string("<f4"));
        QCOMPARE(std::filesystem::file_size(f), l.dataStart + m.rows * m.cols * 4);
        QVERIFY(roundedEqual(readMatrix(f).values, m.values));
        // The float64 shell of the same shape, for comparison: twice the bytes of values.
        const std::string g = path(oneHost ? "ranks64-one.npy" : "ranks64.npy");
        createNpyShell(g, m.rows, m.cols);
        QCOMPARE(std::filesystem::file_size(g), readNpyLayout(g).dataStart + m.rows * m.cols * 8);
    }
};

QTEST_GUILESS_MAIN(TestMatrixFloat32)
#include "test_matrix_float32.moc"
