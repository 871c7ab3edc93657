// A one-line label that shows as much of its text as fits, ending in "…", and carries the whole
// text in its tooltip whenever it is cut: result titles and list entries stay readable on a
// 1280 x 800 screen without widening their dock.
#pragma once
#include <QLabel>

namespace warplab::widgets {

class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);
    void setFullText(const QString& text);
    // A tooltip that always shows, under the whole text (the label says what it is for).
    void setBaseToolTip(const QString& text);
    QString fullText() const { return full_; }
    bool isElided() const { return shown_ != full_; }
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;  // the whole text: where there is room, it all shows

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void refit();
    QString full_, shown_, base_;
};

}  // namespace warplab::widgets
