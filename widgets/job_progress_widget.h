// The job strip of the status bar: what runs, a progress bar, elapsed time and ETA, Cancel.
#pragma once
#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

class QProgressBar;
class QLabel;
class QPushButton;

namespace warplab::widgets {

class JobProgressWidget : public QWidget {
    Q_OBJECT
public:
    explicit JobProgressWidget(QWidget* parent = nullptr);
    void start(quint64 id, const QString& title);
    void setProgress(quint64 id, double fraction, qint64 elapsedMs);
    void finish(quint64 id);
    quint64 currentJob() const { return job_; }
    static QString formatDuration(qint64 ms);

signals:
    void cancelRequested(quint64 id);

private:
    void refreshTime();

    quint64 job_ = 0;
    double fraction_ = 0;
    QElapsedTimer clock_;  // elapsed time ticks even while a long tile reports nothing
    QTimer tick_;
    QLabel* title_;
    QProgressBar* bar_;
    QLabel* time_;
    QPushButton* cancel_;
};

}  // namespace warplab::widgets
