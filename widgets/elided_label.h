// A one-line (or few-line) label that shows as much of its text as fits, ending in "…", and
// carries the whole text in its tooltip whenever it is cut: result titles and list entries stay readable on a
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
    // Up to `lines` lines (default 1), broken between words; only the last one is cut. A
    // result's title names what and where first, metric and band last: two lines keep those.
    void setMaxLines(int lines);
    bool isElided() const { return elided_; }
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;  // the whole text: where there is room, it all shows

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void refit();
    QString full_, shown_, base_;
    int maxLines_ = 1;
    int lines_ = 1;  // shown now
    bool elided_ = false;
};

}  // namespace warplab::widgets
