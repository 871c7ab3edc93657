// Results over several recordings and channels (study-wide search, pattern discovery over a
// study, search of all channels): one ranked table naming the recording, the channel and the
// clock time of each place. Activating a row asks for that place to be shown (placeActivated):
// the caller opens the recording, scrolls to the time and highlights the span.
#pragma once
#include <vector>

#include <QString>
#include <QWidget>

class QLabel;
class QTableWidget;

namespace warplab::widgets {

struct StudyResultRow {
    double value = 0;        // cost (search) or quality (patterns)
    int recording = -1;      // study recording index; -1: the open recording
    QString recordingName;   // file name
    QString channel;         // channel display name
    double startS = 0, endS = 0;  // seconds from that recording's start
    QString clock;           // clock time of startS ("" when unknown)
};

class StudyResultsView : public QWidget {
    Q_OBJECT
public:
    explicit StudyResultsView(QWidget* parent = nullptr);
    // `valueName` heads the value column ("cost", "quality").
    void setRows(std::vector<StudyResultRow> rows, const QString& valueName, const QString& description);
    void clear();
    const std::vector<StudyResultRow>& rows() const { return rows_; }
    QTableWidget* table() const { return table_; }
    QString description() const;
    void activate(int row);  // as a click on that row

signals:
    void placeActivated(int recording, const QString& channel, double startS, double endS);

private:
    QLabel* info_;
    QTableWidget* table_;
    std::vector<StudyResultRow> rows_;
};

}  // namespace warplab::widgets
