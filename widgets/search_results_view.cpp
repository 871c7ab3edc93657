#include "widgets/search_results_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include "compute/registry/registry.h"
#include "widgets/elided_label.h"
#include "widgets/search_options_bar.h"

namespace warplab::widgets {

namespace {
// A usable GPU kernel is registered and available: then half2 can run.
bool gpuSearchAvailable() {
    for (compute::Kernel* k : compute::KernelRegistry::instance().all())
        if (k->backend() != compute::Backend::Cpu && k->unavailableReason().empty()) return true;
    return false;
}
}  // namespace

SearchResultsView::SearchResultsView(QWidget* parent) : QWidget(parent) {
    info_ = new QLabel(tr("No search yet: mark a query region, then run Search."));
    info_->setWordWrap(true);
    table_ = new QTableWidget(0, 5);
    setValueUnit({});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    options_ = new SearchOptionsBar(gpuSearchAvailable());
    // The options in one row are wider than the dock on a 1280 x 800 screen: they scroll
    // sideways there instead of widening the whole window past the screen.
    auto* optionsScroll = new QScrollArea;
    optionsScroll->setWidget(options_);
    optionsScroll->setWidgetResizable(true);
    optionsScroll->setFrameShape(QFrame::NoFrame);
    optionsScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    optionsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    optionsScroll->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    optionsScroll->setFixedHeight(options_->sizeHint().height() + optionsScroll->horizontalScrollBar()->sizeHint().height());
    layout->addWidget(optionsScroll);
    source_ = new ElidedLabel;
    source_->setObjectName("resultSource");
    layout->addWidget(source_);
    layout->addWidget(info_);
    layout->addWidget(table_, 1);
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row, int, int, int) {
        if (row < 0) return;
        emit matchActivated(channel_, table_->item(row, 2)->data(Qt::UserRole).toDouble(),
                            table_->item(row, 3)->data(Qt::UserRole).toDouble());
    });
}

void SearchResultsView::setMatches(const std::vector<compute::Match>& matches, int channel, double rateHz,
                                   double offsetS, const QString& description) {
    channel_ = channel;
    matches_ = matches;
    const QSignalBlocker block(table_);
    table_->setRowCount(int(matches.size()));
    for (int r = 0; r < int(matches.size()); ++r) {
        const auto& m = matches[r];
        const double s = offsetS + m.start / rateHz, e = offsetS + (m.end + 1) / rateHz;
        auto* start = new QTableWidgetItem(QString::number(s, 'f', 3));
        start->setData(Qt::UserRole, s);
        auto* end = new QTableWidgetItem(QString::number(e, 'f', 3));
        end->setData(Qt::UserRole, e);
        table_->setItem(r, 0, new QTableWidgetItem(QString::number(r + 1)));
        table_->setItem(r, 1, new QTableWidgetItem(QString::number(m.cost, 'g', 8)));
        table_->setItem(r, 2, start);
        table_->setItem(r, 3, end);
        table_->setItem(r, 4, new QTableWidgetItem(QStringLiteral("%1–%2").arg(m.start).arg(m.end)));
    }
    fitColumns();
    info_->setText(description);
}

void SearchResultsView::clear() {
    const QSignalBlocker block(table_);
    matches_.clear();
    table_->setRowCount(0);
    setSource({});
    info_->setText(tr("No search yet: mark a query region, then run Search."));
}

void SearchResultsView::setSource(const QString& text) { source_->setFullText(text); }
QString SearchResultsView::source() const { return source_->fullText(); }

int SearchResultsView::matchCount() const { return table_->rowCount(); }

// Headers on two lines (name, unit), so that the five columns fit a dock about 500 px wide at
// 1280 x 800 without sideways scrolling; each header's tooltip says it in full.
void SearchResultsView::setValueUnit(const QString& unit, const QString& symbol) {
    const QString shown = !symbol.isEmpty() ? symbol : unit;
    table_->setHorizontalHeaderLabels({tr("rank"), shown.isEmpty() ? tr("cost\n(unit of the metric)") : tr("cost\n(%1)").arg(shown),
                                       tr("start\n(s)"), tr("end\n(s)"), tr("samples\n(first–last)")});
    table_->horizontalHeaderItem(0)->setToolTip(tr("rank: 1 is the match of the lowest cost"));
    table_->horizontalHeaderItem(1)->setToolTip(unit.isEmpty() ? tr("cost of the match, in the unit of the metric")
                                                               : tr("cost of the match: %1").arg(unit));
    table_->horizontalHeaderItem(2)->setToolTip(tr("start of the match, seconds from the start of the recording"));
    table_->horizontalHeaderItem(3)->setToolTip(tr("end of the match, seconds from the start of the recording"));
    table_->horizontalHeaderItem(4)->setToolTip(tr("indices of the first and last sample of the match"));
    fitColumns();
}

void SearchResultsView::fitColumns() {
    QHeaderView* header = table_->horizontalHeader();
    header->setStretchLastSection(false);  // a stretched last column says nothing of its need
    table_->resizeColumnsToContents();
    header->setStretchLastSection(true);
}

QStringList SearchResultsView::headers() const {
    QStringList out;  // on one line each, as the tooltips and the tests read them
    for (int c = 0; c < table_->columnCount(); ++c) out << table_->horizontalHeaderItem(c)->text().replace('\n', ' ');
    return out;
}

QTableWidget* SearchResultsView::table() const { return table_; }

}  // namespace warplab::widgets
