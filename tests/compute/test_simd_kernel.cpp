// cpu.simd (every instruction set this CPU runs) and the threaded tile loop against the scalar
// reference (dtw, cdtw, sdtw, euclidean, twed): random series of awkward and unequal lengths, bands
// 0/1/16/>=n, both costs, TWED with index and rate timestamps,
// rectangular and symmetric matrices, and the real UCR sets ECG200 and GunPoint.
// Tolerance: testutil::closeFp32, relative (n+m+4) * 2^-24 (fp32 accumulation; see there).
#include <QtTest/QtTest>

#include <memory>
#include <random>

#include "compute/core/preprocess.h"
#include "compute/cpu/dtw_lanes.h"
#include "compute/cpu/reference.h"
#include "compute/cpu/simd_kernel.h"
#include "compute/engine/engine.h"
#include "compute/registry/registry.h"
#include "compute_test_util.h"

using namespace warplab::compute;
using testutil::randomWalk;

namespace {

// The kernels under test: cpu.simd as registered, plus one per supported instruction set.
std::vector<std::string> simdKernels() {
    static std::vector<std::string> names = [] {
        std::vector<std::string> out{"cpu.simd"};
        for (auto isa : {lanes::Isa::Baseline, lanes::Isa::Avx2, lanes::Isa::Avx512}) {
            if (!lanes::supported(isa)) continue;
            std::string name = std::string("test.simd.") + lanes::opsFor(isa).name;
            KernelRegistry::instance().add(std::make_unique<SimdKernel>(SimdKernel::named(name, isa)));
            out.push_back(name);
        }
        return out;
    }();
    return names;
}

// Checks every cell of the matrices from `kernels` against the reference (after znorm as asked).
// A symmetric matrix is computed on its upper triangle and mirrored, so cell (r, c) is held to
// the reference's d(min, max) (soft-DTW, for one, is symmetric only up to rounding).
void compareToReference(const SeriesSet& q, const SeriesSet* t, const Params& p,
                        const std::vector<std::string>& kernels, int threads = 0) {
    const SeriesSet& cols = t ? *t : q;
    std::vector<double> ref(q.size() * cols.size());
    for (std::size_t r = 0; r < q.size(); ++r)
        for (std::size_t c = 0; c < cols.size(); ++c)
            ref[r * cols.size() + c] = (t || r <= c || !isSymmetric(p.metric)) ? Engine::distance(q[r], cols[c], p)
                                                     : Engine::distance(q[c], q[r], p);
    for (const auto& kernel : kernels) {
        RunOptions opt;
        opt.kernel = kernel;
        opt.threads = threads;
        DistanceMatrix dm = Engine::distanceMatrix(q, t, p, opt);
        QCOMPARE(dm.rows, q.size());
        QCOMPARE(dm.cols, cols.size());
        for (std::size_t r = 0; r < q.size(); ++r)
            for (std::size_t c = 0; c < cols.size(); ++c) {
                const double want = ref[r * cols.size() + c];
                const double got = dm.at(r, c);
                const bool ok = kernel == "cpu.reference" ? got == want
                                                           : testutil::closeFp32(got, want, q[r].length, cols[c].length,
                                                                                 p.metric == Metric::Twed ? 4 : 1);
                if (!ok)
                    QFAIL(qPrintable(QString("%1 %2 band %3: cell (%4,%5) n=%6 m=%7 got %8 want %9")
                                         .arg(kernel.c_str(), std::string(metricName(p.metric)).c_str())
                                         .arg(p.band).arg(r).arg(c).arg(q[r].length).arg(cols[c].length)
                                         .arg(got, 0, 'g', 17).arg(want, 0, 'g', 17)));
            }
    }
}
void compareToReference(const SeriesSet& q, const SeriesSet* t, const Params& p, const std::string& kernel,
                        int threads = 0) {
    compareToReference(q, t, p, std::vector<std::string>{kernel}, threads);
}

SeriesSet randomSet(const std::vector<std::size_t>& lengths, std::mt19937& rng) {
    SeriesSet set;
    for (std::size_t n : lengths) set.push_back(randomWalk(n, rng));
    return set;
}

}  // namespace

class TestSimdKernel : public QObject {
    Q_OBJECT
private slots:
    void instructionSets() {
        QVERIFY(lanes::supported(lanes::Isa::Baseline));
        QVERIFY(simdKernels().size() >= 2);
        Kernel* k = KernelRegistry::instance().find("cpu.simd");
        QVERIFY(k);
        QVERIFY(k->unavailableReason().empty());
        QCOMPARE(&Engine::resolveKernel(Metric::Dtw, RunOptions{Backend::Cpu}), k);
    }

    void awkwardEqualLengths() {
        std::mt19937 rng(21);
        for (std::size_t n : {1, 2, 3, 17, 63, 100, 129}) {
            SeriesSet q = randomSet(std::vector<std::size_t>(5, n), rng);
            SeriesSet t = randomSet(std::vector<std::size_t>(70, n), rng);  // more than one batch
            for (Cost cost : {Cost::Squared, Cost::Absolute}) {
                Params p;
                p.cost = cost;
                p.metric = Metric::Dtw;
                compareToReference(q, &t, p, simdKernels());
                p.metric = Metric::Euclidean;
                compareToReference(q, &t, p, simdKernels());
                p.metric = Metric::Twed;
                compareToReference(q, &t, p, simdKernels());
                p.metric = Metric::Sdtw;
                compareToReference(q, &t, p, simdKernels());
                p.metric = Metric::Cdtw;
                for (int band : {0, 1, 16, int(n), int(n) + 5}) {
                    p.band = band;
                    compareToReference(q, &t, p, simdKernels());
                }
            }
        }
    }

    void unequalLengths() {
        std::mt19937 rng(22);
        // Mixed lengths in both sets: lanes are grouped by shape, some batches are partial.
        SeriesSet q = randomSet({40, 41, 17, 40, 100, 3}, rng);
        SeriesSet t = randomSet({40, 55, 17, 17, 99, 100, 1, 40, 64, 65, 41, 3}, rng);
        for (int band : {-1, 0, 1, 16, 100}) {
            Params p;
            p.metric = band < 0 ? Metric::Dtw : Metric::Cdtw;
            p.band = std::max(0, band);
            compareToReference(q, &t, p, simdKernels());
            compareToReference(t, nullptr, p, simdKernels());  // symmetric, unequal lengths
        }
        for (Cost cost : {Cost::Squared, Cost::Absolute}) {
            Params p;
            p.metric = Metric::Sdtw;  // short queries inside long targets and the reverse
            p.cost = cost;
            compareToReference(q, &t, p, simdKernels());
            compareToReference(t, nullptr, p, simdKernels());
        }
        for (double rate : {0.0, 256.0}) {
            Params p;
            p.metric = Metric::Twed;
            p.nu = 0.5;
            p.lambda = 0.3;
            p.rate = rate;
            compareToReference(q, &t, p, simdKernels());
            compareToReference(t, nullptr, p, simdKernels());
        }
    }

    void symmetricAllPairs() {
        std::mt19937 rng(23);
        SeriesSet set = randomSet(std::vector<std::size_t>(150, 50), rng);  // several tiles, partial batches
        Params p;
        p.metric = Metric::Cdtw;
        p.band = 3;
        compareToReference(set, nullptr, p, simdKernels(), 2);
        p.metric = Metric::Dtw;
        p.znorm = true;
        compareToReference(set, nullptr, p, simdKernels(), 1);
    }

    void symmetricWideTiles() {
        // With one thread the engine keeps 64-wide tiles, so off-diagonal tiles run whole
        // chunks of targets with the query broadcast and diagonal tiles run pairs per lane.
        std::mt19937 rng(26);
        SeriesSet set = randomSet(std::vector<std::size_t>(260, 24), rng);
        set[100] = randomWalk(23, rng);  // one odd length breaks a chunk
        Params p;
        p.metric = Metric::Cdtw;
        p.band = 2;
        compareToReference(set, nullptr, p, simdKernels(), 1);
        p.metric = Metric::Dtw;
        p.cost = Cost::Absolute;
        compareToReference(set, nullptr, p, simdKernels(), 1);
        p.metric = Metric::Twed;
        compareToReference(set, nullptr, p, simdKernels(), 1);
    }

    void multivariateFallsBackToReference() {
        std::mt19937 rng(24);
        SeriesSet q, t;
        for (int i = 0; i < 3; ++i) q.push_back(randomWalk(20, rng, 3));
        for (int i = 0; i < 4; ++i) t.push_back(randomWalk(25, rng, 3));
        Params p;
        p.metric = Metric::Cdtw;
        p.band = 2;
        compareToReference(q, &t, p, "cpu.simd");
    }

    void hugeValuesFallBackToReference() {
        // Samples beyond 4e18 overflow fp32 costs (squares > 1.6e37, summed over 16+ cells);
        // those pairs must come out as the reference computes them, in double.
        std::mt19937 rng(27);
        SeriesSet set = randomSet(std::vector<std::size_t>(70, 16), rng);
        for (auto& v : set[3].values) v = v * 1e18f + (v < 0 ? -4e18f : 4e18f);
        Params p;
        compareToReference(set, nullptr, p, "cpu.simd", 1);
        RunOptions opt;
        opt.kernel = "cpu.simd";
        DistanceMatrix dm = Engine::distanceMatrix(set, nullptr, p, opt);
        QVERIFY(std::isfinite(dm.at(3, 5)) && dm.at(3, 5) > 1e30);
    }

    void threadedReferenceIsExact() {
        std::mt19937 rng(25);
        SeriesSet set = randomSet({30, 31, 32, 30, 29, 30, 30, 33, 30, 30, 28, 30}, rng);
        for (Metric m : {Metric::Dtw, Metric::Sdtw, Metric::SoftDtw, Metric::Twed}) {
            Params p;
            p.metric = m;
            compareToReference(set, nullptr, p, "cpu.reference", 2);
            compareToReference(set, &set, p, "cpu.reference", 2);
        }
    }

    void ucrRealData_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("ECG200") << QString(WARPLAB_TEST_DATA "/ucr/ECG200/ECG200_TRAIN.txt");
        QTest::newRow("GunPoint") << QString(WARPLAB_TEST_DATA "/ucr/GunPoint/GunPoint_TRAIN.tsv");
    }
    void ucrRealData() {
        QFETCH(QString, file);
        SeriesSet set = testutil::readUcr(file.toStdString());
        QVERIFY2(!set.empty(), qPrintable(file + " is missing or empty (tests/data)"));
        QVERIFY(set.size() >= 50);
        if (set.size() > 60) set.resize(60);  // keeps the reference side short
        const int n = int(set[0].length);
        for (int band : {-1, 0, 1, 16, n}) {
            Params p;
            p.metric = band < 0 ? Metric::Dtw : Metric::Cdtw;
            p.band = std::max(0, band);
            compareToReference(set, nullptr, p, simdKernels());
            p.znorm = true;
            compareToReference(set, nullptr, p, simdKernels());
        }
        Params p;
        p.metric = Metric::Twed;
        p.nu = 0.001;
        p.lambda = 1.0;
        compareToReference(set, nullptr, p, simdKernels());
    }
};

QTEST_GUILESS_MAIN(TestSimdKernel)
#include "test_simd_kernel.moc"
