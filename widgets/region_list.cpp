#include "widgets/region_list.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "widgets/region_style.h"

namespace warplab::widgets {

RegionList::RegionList(QWidget* parent) : QWidget(parent) {
    table_ = new QTableWidget(0, 5);
    table_->setHorizontalHeaderLabels({tr("kind"), tr("channel"), tr("start (s)"), tr("end (s)"), tr("note")});
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setDefaultSectionSize(62);  // keeps the dock narrow
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    auto* remove = new QPushButton(tr("Delete region"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(table_, 1);
    layout->addWidget(remove);
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row, int, int, int) {
        if (row >= 0) Q_EMIT regionSelected(row);
    });
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { Q_EMIT editRequested(row); });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (table_->currentRow() >= 0) Q_EMIT deleteRequested(table_->currentRow());
    });
}

void RegionList::setRegions(const std::vector<io::Region>& regions, const QStringList& channelNames) {
    const QSignalBlocker block(table_);
    table_->setRowCount(int(regions.size()));
    for (int r = 0; r < int(regions.size()); ++r) {
        const io::Region& g = regions[std::size_t(r)];
        auto* kind = new QTableWidgetItem(regionKindLabel(g.kind));
        kind->setForeground(regionColor(g.kind));
        table_->setItem(r, 0, kind);
        table_->setItem(r, 1, new QTableWidgetItem(g.channel < 0 ? tr("all") : g.channel < channelNames.size() ? channelNames[g.channel] : QString::number(g.channel)));
        table_->setItem(r, 2, new QTableWidgetItem(QString::number(g.startS, 'f', 3)));
        table_->setItem(r, 3, new QTableWidgetItem(QString::number(g.endS, 'f', 3)));
        table_->setItem(r, 4, new QTableWidgetItem(QString::fromStdString(g.note)));
        for (int c = 0; c < table_->columnCount(); ++c) table_->item(r, c)->setToolTip(table_->item(r, c)->text());
    }
    // Kind, channel and times whole ("Reference", "FP1-F7"): only the note may be cut.
    for (int c = 0; c < 4; ++c) table_->resizeColumnToContents(c);
}

void RegionList::selectRegion(int index) {
    const QSignalBlocker block(table_);
    if (index >= 0 && index < table_->rowCount()) table_->selectRow(index);
    else table_->clearSelection();
}

int RegionList::rowCount() const { return table_->rowCount(); }

void RegionList::keyPressEvent(QKeyEvent* event) {
    if ((event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace) && table_->currentRow() >= 0) {
        Q_EMIT deleteRequested(table_->currentRow());
        return;
    }
    QWidget::keyPressEvent(event);
}

}  // namespace warplab::widgets
