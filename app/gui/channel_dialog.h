// Channel selection: which channels the signal view draws (ticked ones, in recording order).
#pragma once
#include <vector>

#include <QDialog>
#include <QStringList>

class QListWidget;

namespace warplab::app {

class ChannelDialog : public QDialog {
    Q_OBJECT
public:
    ChannelDialog(const QStringList& names, const std::vector<int>& visible, QWidget* parent = nullptr);
    std::vector<int> selected() const;  // empty when none is ticked (the view then shows all)

private:
    QListWidget* list_;
};

}  // namespace warplab::app
