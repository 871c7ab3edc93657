#include "widgets/study_results_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace warplab::widgets {

StudyResultsView::StudyResultsView(QWidget* parent) : QWidget(parent) {
    setObjectName("studyResultsView");
    info_ = new QLabel(tr("No study-wide result yet: Analysis ▸ Search the query in the whole study, or ▸ Find seizure patterns in the whole study."));
    info_->setWordWrap(true);
    table_ = new QTableWidget(0, 7);
    table_->setHorizontalHeaderLabels({tr("rank"), tr("cost"), tr("recording"), tr("channel"), tr("clock time"), tr("start (s)"), tr("end (s)")});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(info_);
    layout->addWidget(table_, 1);
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row, int, int, int) {
        if (row >= 0 && row < int(rows_.size())) {
            const StudyResultRow& r = rows_[std::size_t(row)];
            emit placeActivated(r.recording, r.channel, r.startS, r.endS);
        }
    });
}

void StudyResultsView::setRows(std::vector<StudyResultRow> rows, const QString& valueName, const QString& description) {
    rows_ = std::move(rows);
    const QSignalBlocker block(table_);
    table_->clearContents();
    table_->setHorizontalHeaderItem(1, new QTableWidgetItem(valueName));
    table_->setRowCount(int(rows_.size()));
    for (int i = 0; i < int(rows_.size()); ++i) {
        const StudyResultRow& r = rows_[std::size_t(i)];
        const QStringList cells = {QString::number(i + 1), QString::number(r.value, 'g', 8), r.recordingName, r.channel, r.clock,
                                   QString::number(r.startS, 'f', 3), QString::number(r.endS, 'f', 3)};
        for (int c = 0; c < cells.size(); ++c) table_->setItem(i, c, new QTableWidgetItem(cells[c]));
    }
    table_->resizeColumnsToContents();
    info_->setText(description);
}

void StudyResultsView::clear() { setRows({}, tr("cost"), tr("No study-wide result.")); }

QString StudyResultsView::description() const { return info_->text(); }

void StudyResultsView::activate(int row) {
    if (row < 0 || row >= table_->rowCount()) return;
    if (table_->currentRow() == row) {  // the same row again: jump anyway
        const StudyResultRow& r = rows_[std::size_t(row)];
        emit placeActivated(r.recording, r.channel, r.startS, r.endS);
        return;
    }
    table_->setCurrentCell(row, 0);
}

}  // namespace warplab::widgets
