#include "widgets/region_list.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "widgets/region_style.h"

namespace warplab::widgets {
namespace {
// Milliseconds at most, without trailing zeros: "42", "3.79", "0.493" (room for the note).
QString seconds(double s) {
    QString t = QString::number(s, 'f', 3);
    while (t.endsWith('0')) t.chop(1);
    if (t.endsWith('.')) t.chop(1);
    return t;
}
}  // namespace

RegionList::RegionList(QWidget* parent) : QWidget(parent) {
    // Start and end in one column: as two, they left the note a few pixels of a narrow dock.
    table_ = new QTableWidget(0, 4);
    table_->setHorizontalHeaderLabels({tr("kind"), tr("channel"), tr("time (s)"), tr("note")});
    table_->verticalHeader()->setVisible(false);
    // Kind, channel and time whole ("Reference", "FP1-F7"); the note gets what is left.
    table_->horizontalHeader()->setMinimumSectionSize(30);
    for (int c = 0; c < 3; ++c) table_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(3, QHeaderView::Stretch);
    // One line a region, the note cut with "…" at the dock's edge (its tooltip and the line
    // below the table hold it whole), never wrapped into pieces.
    table_->setWordWrap(false);
    table_->setTextElideMode(Qt::ElideRight);
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    note_ = new QLabel;
    note_->setObjectName("regionNote");
    note_->setWordWrap(true);
    note_->setTextFormat(Qt::PlainText);
    note_->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    auto* remove = new QPushButton(tr("Delete region"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(table_, 1);
    layout->addWidget(note_);
    layout->addWidget(remove);
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row, int, int, int) {
        showNote(row);
        if (row >= 0) Q_EMIT regionSelected(row);
    });
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { Q_EMIT editRequested(row); });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (table_->currentRow() >= 0) Q_EMIT deleteRequested(table_->currentRow());
    });
}

void RegionList::setRegions(const std::vector<io::Region>& regions, const QStringList& channelNames) {
    const QSignalBlocker block(table_);
    regions_ = regions;
    table_->setRowCount(int(regions.size()));
    for (int r = 0; r < int(regions.size()); ++r) {
        const io::Region& g = regions[std::size_t(r)];
        auto* kind = new QTableWidgetItem(regionKindLabel(g.kind));
        kind->setForeground(regionColor(g.kind));
        table_->setItem(r, 0, kind);
        table_->setItem(r, 1, new QTableWidgetItem(g.channel < 0 ? tr("all") : g.channel < channelNames.size() ? channelNames[g.channel] : QString::number(g.channel)));
        table_->setItem(r, 2, new QTableWidgetItem(tr("%1–%2").arg(seconds(g.startS), seconds(g.endS))));
        table_->setItem(r, 3, new QTableWidgetItem(QString::fromStdString(g.note)));
        for (int c = 0; c < table_->columnCount(); ++c) table_->item(r, c)->setToolTip(table_->item(r, c)->text());
    }
    showNote(table_->currentRow());
}

void RegionList::showNote(int row) {
    const QString note = row >= 0 && row < int(regions_.size()) ? QString::fromStdString(regions_[std::size_t(row)].note) : QString();
    note_->setText(tr("Note: %1").arg(note));
    note_->setVisible(!note.isEmpty());
}

void RegionList::selectRegion(int index) {
    const QSignalBlocker block(table_);
    if (index >= 0 && index < table_->rowCount()) table_->selectRow(index);
    else table_->clearSelection();
    showNote(index);
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
