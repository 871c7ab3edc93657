// The marked regions as a table (kind, channel, time, note): selecting one shows it in the
// signal view, double-clicking edits it, Delete removes it (through the document's undo). The
// note column is cut to the dock's width; the selected region's whole note shows below.
#pragma once
#include <vector>

#include <QStringList>
#include <QWidget>

#include "io/regions.h"

class QLabel;
class QTableWidget;

namespace warplab::widgets {

class RegionList : public QWidget {
    Q_OBJECT
public:
    explicit RegionList(QWidget* parent = nullptr);
    void setRegions(const std::vector<io::Region>& regions, const QStringList& channelNames);
    void selectRegion(int index);
    int rowCount() const;
    QTableWidget* table() const { return table_; }

Q_SIGNALS:
    void regionSelected(int index);
    void editRequested(int index);
    void deleteRequested(int index);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void showNote(int row);

    QTableWidget* table_;
    QLabel* note_;  // the selected region's note, whole
    std::vector<io::Region> regions_;
};

}  // namespace warplab::widgets
