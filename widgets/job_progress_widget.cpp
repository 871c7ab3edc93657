#include "widgets/job_progress_widget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace warplab::widgets {

JobProgressWidget::JobProgressWidget(QWidget* parent) : QWidget(parent) {
    title_ = new QLabel;
    bar_ = new QProgressBar;
    bar_->setRange(0, 1000);
    bar_->setTextVisible(true);
    bar_->setFixedWidth(180);
    time_ = new QLabel;
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setObjectName("cancelJob");
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title_);
    layout->addWidget(bar_);
    layout->addWidget(time_);
    layout->addWidget(cancel_);
    connect(cancel_, &QPushButton::clicked, this, [this] {
        if (job_) emit cancelRequested(job_);
    });
    tick_.setInterval(250);
    connect(&tick_, &QTimer::timeout, this, &JobProgressWidget::refreshTime);
    setVisible(false);
}

QString JobProgressWidget::formatDuration(qint64 ms) {
    const qint64 s = ms / 1000;
    if (s < 60) return tr("%1.%2 s").arg(s).arg((ms % 1000) / 100);
    return tr("%1:%2 min").arg(s / 60).arg(s % 60, 2, 10, QChar('0'));
}

void JobProgressWidget::start(quint64 id, const QString& title) {
    job_ = id;
    fraction_ = 0;
    clock_.start();
    tick_.start();
    title_->setText(title);
    bar_->setValue(0);
    bar_->setFormat(tr("%p%"));
    time_->setText(tr("starting…"));
    setVisible(true);
}

void JobProgressWidget::setProgress(quint64 id, double fraction, qint64) {
    if (id != job_) return;
    fraction_ = fraction;
    bar_->setValue(int(fraction * 1000));
    refreshTime();
}

void JobProgressWidget::refreshTime() {
    if (!job_) return;
    const qint64 elapsedMs = clock_.elapsed();
    QString text = tr("elapsed %1").arg(formatDuration(elapsedMs));
    // ETA from the mean rate so far; only once there is enough progress to trust it.
    if (fraction_ > 0.02 && fraction_ < 1) text += tr(" · ETA %1").arg(formatDuration(qint64(elapsedMs * (1 - fraction_) / fraction_)));
    time_->setText(text);
}

void JobProgressWidget::finish(quint64 id) {
    if (id != job_) return;
    job_ = 0;
    tick_.stop();
    setVisible(false);
}

}  // namespace warplab::widgets
