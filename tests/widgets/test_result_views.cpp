// The distance-matrix view's orders (clustered with a dendrogram, by label), its export in
// the order shown with the permutation beside it, and the Kernels chart's legend and ceiling
// label at the size the dock has in a 1400 x 900 window. Offscreen; with
// WARPLAB_TEST_SCREENSHOTS=DIR the views are saved there to be looked at.
#include <QComboBox>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QHeaderView>
#include <QScrollBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QListWidget>
#include <QLabel>
#include <QtTest>
#include <qcustomplot.h>

#include <cmath>
#include <fstream>
#include <random>

#include "compute/cluster/hierarchical_clustering.h"
#include "io/matrix_io.h"
#include "io/matrix_order_io.h"
#include "widgets/cost_matrix_view.h"
#include "widgets/distance_matrix_view.h"
#include "compute/bench/sdtw_designs.h"
#include "widgets/kernel_comparison_view.h"
#include "widgets/search_results_view.h"
#include "widgets/value_units.h"

using namespace warplab;
using Order = widgets::DistanceMatrixView::Order;

namespace {

void snap(QWidget* w, const QString& name) {
    const QString dir = qEnvironmentVariable("WARPLAB_TEST_SCREENSHOTS");
    if (dir.isEmpty()) return;
    QTest::qWait(100);
    w->grab().save(dir + "/" + name + ".png");
}

// Counts the times the widget it filters is hidden itself (not with a window around it).
struct HideCounter : QObject {
    int hides = 0;
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() == QEvent::Hide && static_cast<QWidget*>(o)->isHidden()) ++hides;
        return false;
    }
};

// A diagonal-ish pair of n x m with its accumulated cost when `withMatrix`.
std::shared_ptr<compute::Alignment> pair(std::size_t n, std::size_t m, bool withMatrix) {
    auto a = std::make_shared<compute::Alignment>();
    a->n = n;
    a->m = m;
    a->distance = double(n + m);
    for (std::size_t k = 0; k < std::max(n, m); ++k) a->path.push_back({std::min(k, n - 1), std::min(k, m - 1)});
    if (withMatrix) {
        a->matrix.resize(n * m);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < m; ++j) a->matrix[i * m + j] = double(i + j) * 1e5;
    }
    return a;
}

// Three groups of points on a line, interleaved in file order: |a - b| as the distance.
std::shared_ptr<compute::DistanceMatrix> groupedMatrix(std::size_t n) {
    std::mt19937 rng(5);
    std::normal_distribution<double> noise(0, 0.3);
    std::vector<double> x(n);
    auto m = std::make_shared<compute::DistanceMatrix>();
    m->rows = m->cols = n;
    m->symmetric = true;
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = 10.0 * double(i % 3) + noise(rng);
        m->rowNames.push_back("s" + std::to_string(i));
    }
    m->colNames = m->rowNames;
    m->values.resize(n * n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) m->values[i * n + j] = std::fabs(x[i] - x[j]);
    return m;
}

std::vector<std::string> lines(const QString& path) {
    std::ifstream in(path.toStdString());
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

}  // namespace

class TestResultViews : public QObject {
    Q_OBJECT
private slots:
    void clusteredOrderWithDendrogram() {
        widgets::DistanceMatrixView view;
        view.resize(620, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const auto m = groupedMatrix(24);
        view.setMatrix(m, "grouped");
        QCOMPARE(view.order(), Order::File);
        QVERIFY(!view.dendrogramShown());
        QCOMPARE(view.plot()->plotLayout()->columnCount(), 2);  // heatmap, colour scale
        QCPAxisRect* dendro = nullptr;
        for (auto* r : view.plot()->findChildren<QCPAxisRect*>())
            if (r != view.plot()->xAxis->axisRect()) dendro = r;
        QVERIFY(dendro && !dendro->realVisibility());  // nothing of it painted
        for (Order o : {Order::Average, Order::Complete, Order::Single}) {
            QCOMPARE(view.setOrder(o), QString());
            const auto linkage = o == Order::Average ? compute::Linkage::Average
                                 : o == Order::Complete ? compute::Linkage::Complete : compute::Linkage::Single;
            const auto tree = compute::clusterHierarchical(m->values.data(), m->rows, linkage);
            QCOMPARE(view.rowOrder(), tree.order);
            QCOMPARE(view.colOrder(), tree.order);
            QVERIFY(view.dendrogramShown());
            QCOMPARE(view.plot()->plotLayout()->columnCount(), 3);  // dendrogram, heatmap, scale
            QVERIFY(dendro->realVisibility());
            // The three groups come out contiguous: i % 3 changes exactly twice along the order.
            int changes = 0;
            for (std::size_t k = 1; k < tree.order.size(); ++k) changes += tree.order[k] % 3 != tree.order[k - 1] % 3;
            QCOMPARE(changes, 2);
        }
        QCOMPARE(view.orderBox()->currentData().toInt(), int(Order::Single));
        view.setOrder(Order::Average);
        snap(&view, "distance_matrix_average");
        // A click on display cell (0, 1) opens the pair of the matrix as computed.
        QSignalSpy spy(&view, &widgets::DistanceMatrixView::cellActivated);
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, view.cellPoint(0, 1));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), int(view.rowOrder()[0]));
        QCOMPARE(spy.at(0).at(1).toInt(), int(view.colOrder()[1]));
        // Back to file order: no dendrogram.
        QCOMPARE(view.setOrder(Order::File), QString());
        QVERIFY(!view.dendrogramShown());
        QCOMPARE(view.plot()->plotLayout()->columnCount(), 2);
        QVERIFY(!dendro->realVisibility());
        // A new matrix keeps the user's clustered order.
        view.setOrder(Order::Complete);
        view.setMatrix(groupedMatrix(9), "again");
        QCOMPARE(view.order(), Order::Complete);
        QVERIFY(view.dendrogramShown());
    }
    void exportKeepsTheOrderShown() {
        widgets::DistanceMatrixView view;
        const auto m = groupedMatrix(12);
        view.setMatrix(m, "grouped");
        view.setOrder(Order::Average);
        QTemporaryDir dir;
        for (const char* ext : {"csv", "npy", "h5"}) {
            const QString path = dir.filePath(QString("d.%1").arg(ext));
            QCOMPARE(view.exportMatrix(path), QString());
            const compute::DistanceMatrix back = io::readMatrix(path.toStdString());
            QCOMPARE(back.rows, m->rows);
            for (std::size_t i = 0; i < m->rows; ++i)
                for (std::size_t j = 0; j < m->cols; ++j)
                    QCOMPARE(back.at(i, j), m->at(view.rowOrder()[i], view.colOrder()[j]));
            const auto order = lines(QString::fromStdString(io::matrixOrderPath(path.toStdString())));
            QCOMPARE(order.size(), m->rows + 1);
            QCOMPARE(order[0], std::string("position,row,name"));
            for (std::size_t k = 0; k < m->rows; ++k) {
                const std::size_t r = view.rowOrder()[k];
                QCOMPARE(order[k + 1], std::to_string(k) + "," + std::to_string(r) + ",s" + std::to_string(r));
            }
        }
    }
    void labelOrderAndRefusals() {
        widgets::DistanceMatrixView view;
        const auto m = groupedMatrix(7);
        view.setMatrix(m, "grouped");
        auto* model = qobject_cast<QStandardItemModel*>(view.orderBox()->model());
        const int labelItem = view.orderBox()->findData(int(Order::Label));
        QVERIFY(!model->item(labelItem)->isEnabled());  // no labels yet
        QVERIFY(!view.setOrder(Order::Label).isEmpty());
        view.setRowLabels({"seizure", "", "query", "seizure", "", "query", "seizure"}, "region kind");
        QVERIFY(model->item(labelItem)->isEnabled());
        QCOMPARE(view.orderBox()->itemText(labelItem), QString("by region kind"));
        QCOMPARE(view.setOrder(Order::Label), QString());
        QCOMPARE(view.rowOrder(), (std::vector<std::size_t>{2, 5, 0, 3, 6, 1, 4}));  // query, seizure, none
        QVERIFY(!view.dendrogramShown());
        QTemporaryDir dir;
        QCOMPARE(view.exportMatrix(dir.filePath("l.csv")), QString());
        const auto order = lines(dir.filePath("l.csv.order.csv"));
        QCOMPARE(order[0], std::string("position,row,name,label"));
        QCOMPARE(order[1], std::string("0,2,s2,query"));
        QCOMPARE(order[7], std::string("6,4,s4,"));
        // Not square: clustering is offered greyed and refused with the reason.
        auto rect = std::make_shared<compute::DistanceMatrix>();
        rect->rows = 2;
        rect->cols = 3;
        rect->values = {1, 2, 3, 4, 5, 6};
        view.setMatrix(rect, "queries × targets");
        QVERIFY(!model->item(view.orderBox()->findData(int(Order::Average)))->isEnabled());
        QVERIFY(view.setOrder(Order::Average).contains("square"));
        // A cell outside the band (+inf) cannot be clustered: named.
        auto inf = groupedMatrix(4);
        inf->values[1] = inf->values[4] = INFINITY;
        view.setMatrix(inf, "band");
        const QString why = view.setOrder(Order::Single);
        QVERIFY2(why.contains("(0, 1)") && why.contains("finite"), qPrintable(why));
        QCOMPARE(view.order(), Order::File);
    }
    void kernelLegendAndCeilingReadable() {
        // The Kernels dock in a 1400 x 900 window is about 620 px wide (screenshot).
        widgets::KernelComparisonView view;
        view.resize(620, 790);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        compute::BenchTable t;
        for (const char* k : {"cpu.reference", "cpu.simd", "cuda.wavefront", "cuda.tiled", "hip.wavefront"})
            for (std::size_t len : {128u, 256u, 512u, 1024u}) {
                compute::BenchRow r;
                r.kernel = k;
                r.metric = "dtw";
                r.length = len;
                r.pairs = 256;
                r.cells_per_s = 1e8 * double(len) * (1 + std::string(k).size() % 5);
                t.push_back(r);
            }
        view.setResults(t);
        view.setCeiling(8.4e12, "NVIDIA H100 DTW");
        QTest::qWait(200);
        QCustomPlot* plot = view.linePlot();
        plot->replot();
        QTest::qWait(50);
        plot->replot();
        QCPLegend* legend = plot->legend;
        const QRect axis = plot->axisRect()->rect();
        QVERIFY2(!legend->outerRect().intersects(axis), "the legend must not cover the plot");
        QVERIFY(plot->rect().contains(legend->outerRect()));
        QCOMPARE(legend->itemCount(), 6);  // five kernels and the ceiling
        for (int i = 0; i < legend->itemCount(); ++i) {
            auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i));
            QVERIFY(item);
            const QRect r = item->outerRect();
            QVERIFY2(plot->rect().contains(r), qPrintable(item->plottable()->name()));
            const int text = QFontMetrics(legend->font()).horizontalAdvance(item->plottable()->name());
            QVERIFY2(r.width() >= text + legend->iconSize().width(), qPrintable(item->plottable()->name()));
        }
        QVERIFY(legend->wrap() >= 2);  // 620 px holds more than one column
        QCPItemText* label = nullptr;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(plot->item(i))) label = t;
        QVERIFY(label);
        QVERIFY(label->text().contains("chip ceiling: NVIDIA H100 DTW, 8.4e+12 DP cells / s"));
        const QPointF at = label->position->pixelPosition();
        QVERIFY(axis.contains(at.toPoint()));
        QVERIFY(std::fabs(at.y() - plot->yAxis->coordToPixel(8.4e12)) < 1.0);  // on the line
        snap(&view, "kernels_legend");
        // A narrow chart wraps the legend into one column instead of cutting names.
        view.resize(420, 790);
        QTest::qWait(100);
        plot->replot();
        QVERIFY(legend->wrap() < 3);
        for (int i = 0; i < legend->itemCount(); ++i) QVERIFY(plot->rect().contains(legend->item(i)->outerRect()));
    }
    void kernelEnergyColumns() {
        // A GPU row's J / distance and mean board power; a CPU row says why
        // it has none, in the cell, its tooltip and the CSV.
        widgets::KernelComparisonView view;
        compute::BenchRow cpu;
        cpu.kernel = "cpu.simd";
        cpu.length = 128;
        cpu.pairs = 256;
        cpu.cells_per_s = 1e10;
        cpu.energy = compute::EnergyFigure{0, 0, 0, "CPU kernel: no board energy counter"};
        compute::BenchRow gpu = cpu;
        gpu.kernel = "cuda.shuffle@device";
        gpu.energy = compute::EnergyFigure{75.0, 0.3, 50000, ""};  // 1.5e-3 J/distance, 250 W
        view.setResults({cpu, gpu});
        auto* table = view.findChild<QTableWidget*>();
        QVERIFY(table);
        const QStringList headers = view.tableHeaders();
        const int j = int(headers.indexOf("energy per distance (J)")), w = int(headers.indexOf("mean board power (W)"));
        QVERIFY(j > 0 && w > 0);
        // The cell is a dash (the reason would be cut in a narrow dock); the reason is in its
        // tooltip and, once, under the table.
        QCOMPARE(table->item(0, j)->text(), QString::fromUtf8("\u2014"));
        QVERIFY(table->item(0, j)->toolTip().contains("CPU kernel: no board energy counter"));
        QVERIFY(table->item(0, w)->toolTip().contains("CPU kernel: no board energy counter"));
        auto* note = view.findChild<QLabel*>("energyNote");
        QVERIFY(note && !note->isHidden());
        QVERIFY2(note->text().contains("CPU kernel: no board energy counter"), qPrintable(note->text()));
        QCOMPARE(table->item(1, j)->text(), QString("0.0015"));
        QCOMPARE(table->item(1, w)->text(), QString("250"));
        QVERIFY2(table->item(1, j)->toolTip().contains("75 J over 0.3 s for 50000 distances"), qPrintable(table->item(1, j)->toolTip()));
        QTemporaryDir dir;
        QCOMPARE(view.exportCsv(dir.filePath("k.csv")), QString());
        QFile f(dir.filePath("k.csv"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].contains("joules_per_distance,mean_power_w,energy_note,note"));
        QVERIFY2(lines[1].contains(",,,\"CPU kernel: no board energy counter\","), qPrintable(lines[1]));
        QVERIFY2(lines[2].contains(",0.0015,250,\"\","), qPrintable(lines[2]));
    }
    void kernelSdtwDesigns() {
        // The subsequence-search designs side by side. Choosing sdtw lists
        // every design with its one-line description (device ones greyed with the reason
        // where there is no GPU), asks for queries and a reference instead of pairs and a band,
        // and a run of the checked designs fills the table and the chart.
        widgets::KernelComparisonView view;
        view.resize(620, 790);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* metric = view.findChildren<QComboBox*>().front();
        const int at = metric->findData(int(compute::Metric::Sdtw));
        QVERIFY(at >= 0);
        metric->setCurrentIndex(at);
        auto* list = view.findChild<QListWidget*>();
        QVERIFY(list);
        QCOMPARE(list->count(), int(compute::sdtwDesigns().size()));
        const bool gpu = compute::benchDeviceUnavailable().empty();
        for (int i = 0; i < list->count(); ++i) {
            const compute::SdtwDesign& d = compute::sdtwDesigns()[std::size_t(i)];
            QVERIFY(list->item(i)->text().startsWith(QString::fromStdString(d.name)));
            QVERIFY(list->item(i)->toolTip().contains(QString::fromStdString(d.description)));
            QCOMPARE(bool(list->item(i)->flags() & Qt::ItemIsEnabled), !d.device || gpu);
            if (d.device && !gpu) {
                // The reason's first clause on the line, the whole of it in the tooltip.
                const QString why = QString::fromStdString(compute::benchDeviceUnavailable());
                const QString line = list->item(i)->text().section('\n', 1);
                QVERIFY(list->item(i)->toolTip().contains(why));
                QVERIFY2(line.startsWith("— ") && why.startsWith(line.mid(2)) && !line.contains(": "), qPrintable(line));
            }
        }
        QStringList labels;
        for (QLabel* l : view.findChildren<QLabel*>())
            if (l->isVisible()) labels << l->text();
        QVERIFY2(labels.contains("Queries") && labels.contains("Reference") && !labels.contains("Band w"),
                 qPrintable(labels.join(", ")));
        view.setLengths("64,128");
        view.setPairs(3);
        compute::BenchConfig cfg = view.config();
        QCOMPARE(cfg.params.metric, compute::Metric::Sdtw);
        QCOMPARE(cfg.searchQueries, 3);
        QVERIFY(cfg.params.znorm);
        QVERIFY(cfg.kernels.size() >= 2);
        cfg.referenceLength = 4000;  // a quick run on the CPU designs
        cfg.repeats = 1;
        const compute::BenchReport report = compute::runBenchmark(cfg);
        QCOMPARE(report.rows.size(), cfg.kernels.size() * 2);
        view.setResults(report.rows);
        auto* table = view.findChild<QTableWidget*>();
        QCOMPARE(table->rowCount(), int(report.rows.size()));
        int cpuRows = 0;
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->item(r, 0)->text().startsWith("cpu.")) {
                ++cpuRows;
                QVERIFY(table->item(r, 4)->text().toDouble() > 0);  // cells / s
            }
        QCOMPARE(cpuRows, 4);
        QVERIFY(view.linePlot()->graphCount() >= 2);
        snap(&view, "kernels_sdtw_designs");
        metric->setCurrentIndex(metric->findData(int(compute::Metric::Dtw)));
        QVERIFY(view.findChildren<QLabel*>().size() > 0);
        // Another metric shows its own results (none yet), not the sdtw designs' curves under
        // its axis; back on sdtw, the designs' results are there again.
        QVERIFY(view.results().empty());
        QCOMPARE(table->rowCount(), 0);
        QCOMPARE(view.linePlot()->graphCount(), 0);
        // The empty chart keeps its width (an empty legend row once squeezed it to a sliver) and
        // says why it is empty.
        view.linePlot()->replot();
        QVERIFY2(view.linePlot()->axisRect()->rect().width() > view.linePlot()->width() / 2,
                 qPrintable(QString::number(view.linePlot()->axisRect()->rect().width())));
        QVERIFY(view.linePlot()->findChild<QCPItemText*>("noResults"));
        snap(&view, "kernels_dtw_after_sdtw");
        metric->setCurrentIndex(at);
        QCOMPARE(view.results().size(), report.rows.size());
        QCOMPARE(table->rowCount(), int(report.rows.size()));
        QVERIFY(view.linePlot()->graphCount() >= 2);
        QVERIFY(view.linePlot()->legend->itemCount() >= 2);  // the legend is back under the chart
        QVERIFY(!view.linePlot()->findChild<QCPItemText*>("noResults"));
        snap(&view, "kernels_sdtw_again");
        // Results that arrive for a metric not shown (a run finishing after the user chose
        // another) are kept for it and not drawn.
        compute::BenchRow late;
        late.kernel = "cpu.simd";
        late.metric = "dtw";
        late.length = 128;
        late.pairs = 8;
        late.cells_per_s = 1e9;
        view.setResults({late});
        view.setCeiling(1e12, "late DTW ceiling");
        QCOMPARE(view.results().size(), report.rows.size());
        metric->setCurrentIndex(metric->findData(int(compute::Metric::Dtw)));
        QCOMPARE(view.results().size(), std::size_t(1));
        QCOMPARE(view.linePlot()->graphCount(), 2);  // the kernel and the ceiling's legend entry
    }
    // Cleared and drawn again many times, shown: the plot widget itself is never hidden (a
    // QCustomPlot shown again from inside a result replotted half set up and corrupted the
    // heap), only its axes; the colour scale goes with a kept matrix, never stays from another.
    void costMatrixClearsAndRedrawsRepeatedly() {
        widgets::CostMatrixView view;
        view.resize(500, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        HideCounter hides;
        view.plot()->installEventFilter(&hides);
        QVERIFY(!view.axesShown());
        QVERIFY(view.plot()->isVisible());
        for (int round = 0; round < 40; ++round) {
            const bool matrix = round % 3 != 2;
            const std::size_t n = 20 + std::size_t(round) * 7, m = 30 + std::size_t(round % 5) * 11;
            std::vector<float> x(n), y(m);
            for (std::size_t k = 0; k < n; ++k) x[k] = float(std::sin(0.1 * double(k)) * 50);
            for (std::size_t k = 0; k < m; ++k) y[k] = float(std::cos(0.1 * double(k)) * 50);
            view.setAlignment(pair(n, m, matrix), x, y, "a", "b");
            QVERIFY(view.axesShown());
            QCOMPARE(view.colorScaleShown(), matrix);
            view.plot()->replot();
            QCoreApplication::processEvents();
            if (round % 2 == 0) {
                view.clear();
                QVERIFY(!view.axesShown());
                QVERIFY(!view.colorScaleShown());
                QVERIFY(view.infoText().startsWith("No pair aligned yet"));
                view.plot()->replot();
                QCoreApplication::processEvents();
            }
            if (round % 7 == 0) view.resize(400 + round * 3, 500 + round);  // a pending resize, as a dock's
        }
        QCOMPARE(hides.hides, 0);
        QVERIFY(view.plot()->isVisible());
        snap(&view, "cost_matrix_redrawn");
    }

    // The search table's five columns fit a 1280 x 800 dock (about 500 px) without sideways
    // scrolling, every header shown whole, each with a tooltip saying it in full.
    void searchHeadersFitWithTooltips() {
        widgets::SearchResultsView view;
        compute::Params p;
        view.setValueUnit(widgets::distanceUnit(p, "uV"), widgets::unitSymbol(p, "uV"));
        view.resize(490, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        std::vector<compute::Match> matches;
        for (int k = 0; k < 5; ++k) matches.push_back({11285.264 + 1000.0 * k, std::size_t(14922 + k * 100), std::size_t(15013 + k * 100)});
        view.setMatches(matches, 1, 256, 0, "Top 5 matches");
        QTest::qWait(50);
        QTableWidget* table = view.table();
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        const QFontMetrics fm(table->horizontalHeader()->font());
        for (int c = 0; c < table->columnCount(); ++c) {
            const QTableWidgetItem* h = table->horizontalHeaderItem(c);
            for (const QString& line : h->text().split('\n'))
                QVERIFY2(table->columnWidth(c) >= fm.horizontalAdvance(line), qPrintable(line));
            QVERIFY2(!h->toolTip().isEmpty(), qPrintable(h->text()));
            for (int r = 0; r < table->rowCount(); ++r)
                QVERIFY2(table->columnWidth(c) >= QFontMetrics(table->font()).horizontalAdvance(table->item(r, c)->text()),
                         qPrintable(table->item(r, c)->text()));
        }
        QVERIFY(table->horizontalHeaderItem(1)->toolTip().contains(widgets::distanceUnit(p, "uV")));
        snap(&view, "search_headers");
    }

    void everyHeaderNamesItsUnit() {
        // Columns holding numbers name a unit in parentheses or say unitless; the others hold
        // names or counts.
        const QStringList plain = {"kernel", "pairs", "note", "rank"};
        auto check = [&](const QStringList& headers) {
            for (const QString& h : headers)
                QVERIFY2(plain.contains(h) || h.contains('(') || h.contains("/ s"), qPrintable(h));
        };
        widgets::KernelComparisonView kernels;
        check(kernels.tableHeaders());
        QVERIFY(kernels.tableHeaders().contains("max rel. error vs reference (unitless)"));
        for (const QString& tip : kernels.tableHeaderToolTips()) QVERIFY(!tip.isEmpty());  // the table scrolls sideways
        QCOMPARE(kernels.tableHeaderToolTips().at(8), QString("max rel. error vs reference (unitless)"));
        widgets::SearchResultsView search;
        check(search.headers());
        compute::Params p;
        search.setValueUnit(widgets::distanceUnit(p, "uV"));
        QCOMPARE(search.headers().at(1), QString::fromUtf8("cost (accumulated squared cost, \u00b5V\u00b2)"));
        search.setValueUnit(widgets::distanceUnit(p, "uV"), widgets::unitSymbol(p, "uV"));
        QCOMPARE(search.headers().at(1), QString::fromUtf8("cost (\u00b5V\u00b2)"));
        widgets::DistanceMatrixView dm;
        dm.setValueUnit(widgets::distanceUnit(p, "uV"), widgets::distanceScaleLabel(p, "uV"));
        QCOMPARE(dm.colorScaleLabel(), QString::fromUtf8("dtw distance (\u00b5V\u00b2)"));
        // One label per quantity: squared cost in µV², absolute cost in µV, never both words.
        QCOMPARE(widgets::costScaleLabel(p, "uV"), QString::fromUtf8("accumulated cost (\u00b5V\u00b2)"));
        compute::Params abs = p;
        abs.cost = compute::Cost::Absolute;
        QCOMPARE(widgets::costScaleLabel(abs, "uV"), QString::fromUtf8("accumulated cost (\u00b5V)"));
        compute::Params z = p;
        z.znorm = true;
        QCOMPARE(widgets::costScaleLabel(z, "uV"), QString("accumulated cost (unitless)"));
    }
    void unitsOfEachMetricSetting() {
        compute::Params p;
        QCOMPARE(widgets::distanceUnit(p, "uV"), QString::fromUtf8("accumulated squared cost, \u00b5V\u00b2"));
        p.sqrt = true;
        QCOMPARE(widgets::distanceUnit(p, "uV"), QString::fromUtf8("square root of the accumulated squared cost, \u00b5V"));
        p.cost = compute::Cost::Absolute;
        QCOMPARE(widgets::distanceUnit(p, "mV"), QString::fromUtf8("square root of the accumulated |a\u2212b| cost, mV^\u00bd"));
        p.sqrt = false;
        QCOMPARE(widgets::distanceUnit(p, "mV"), QString::fromUtf8("accumulated |a\u2212b| cost, mV"));
        p.znorm = true;
        QVERIFY(widgets::distanceUnit(p, "mV").endsWith("unitless (z-normalised series)"));
        p = {};
        p.metric = compute::Metric::Euclidean;
        QCOMPARE(widgets::distanceUnit(p, ""), QString::fromUtf8("sum of squared differences, signal units\u00b2"));
        p.metric = compute::Metric::SoftDtw;
        QVERIFY(widgets::distanceUnit(p, "uV").contains("may be negative"));
        p.metric = compute::Metric::Twed;
        QVERIFY(widgets::distanceUnit(p, "uV").contains("no single unit"));
    }
};

QTEST_MAIN(TestResultViews)
#include "test_result_views.moc"
