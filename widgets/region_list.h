// The marked regions as a table (kind, channel, start, end, note): selecting one shows it in
// the signal view, double-clicking edits it, Delete removes it (through the document's undo).
#pragma once
#include <vector>

#include <QStringList>
#include <QWidget>

#include "io/regions.h"

class QTableWidget;

namespace warplab::widgets {

class RegionList : public QWidget {
    Q_OBJECT
public:
    explicit RegionList(QWidget* parent = nullptr);
    void setRegions(const std::vector<io::Region>& regions, const QStringList& channelNames);
    void selectRegion(int index);
    int rowCount() const;

Q_SIGNALS:
    void regionSelected(int index);
    void editRequested(int index);
    void deleteRequested(int index);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    QTableWidget* table_;
};

}  // namespace warplab::widgets
