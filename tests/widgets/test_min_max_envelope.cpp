// The per-pixel min/max reduction keeps every extreme and bounds the point count.
#include <QtTest>

#include "widgets/matrix_downsample.h"
#include "widgets/min_max_envelope.h"

using namespace warplab::widgets;

class TestMinMaxEnvelope : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void shortTraceIsKept() {
        const float v[] = {1, -2, 3};
        QVector<double> k, y;
        appendMinMaxEnvelope(v, 3, 10.0, 0.5, 100, k, y);
        QCOMPARE(k, (QVector<double>{10.0, 10.5, 11.0}));
        QCOMPARE(y, (QVector<double>{1, -2, 3}));
    }
    void longTraceKeepsExtremesPerColumn() {
        // 1000 samples into 10 columns of 100; a spike in column 3 and a dip in column 7.
        std::vector<float> v(1000, 0.0f);
        v[350] = 9.0f;
        v[720] = -4.0f;
        v[730] = 2.0f;
        QVector<double> k, y;
        appendMinMaxEnvelope(v.data(), v.size(), 0.0, 0.01, 10, k, y);
        QCOMPARE(k.size(), 20);
        QCOMPARE(y[6], 0.0);
        QCOMPARE(y[7], 9.0);
        QCOMPARE(k[6], 3.0);
        QCOMPARE(y[14], -4.0);  // the dip comes first in time
        QCOMPARE(y[15], 2.0);
    }
    void blockMeanIgnoresInfinity() {
        const double inf = std::numeric_limits<double>::infinity();
        const double m[] = {1, 3, inf, inf,
                            5, 7, inf, inf};
        const DisplayMatrix d = downsampleMatrix(m, 2, 4, 1, 2);
        QCOMPARE(d.rows, std::size_t(1));
        QCOMPARE(d.cols, std::size_t(2));
        QCOMPARE(d.values[0], 4.0);
        QVERIFY(std::isnan(d.values[1]));
    }
};

QTEST_APPLESS_MAIN(TestMinMaxEnvelope)
#include "test_min_max_envelope.moc"
