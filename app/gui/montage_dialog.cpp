#include "app/gui/montage_dialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include "app/gui/document.h"
#include "io/io_error.h"
#include "io/montage.h"
#include "io/recording.h"
#include "widgets/recording_access.h"
#include "widgets/signal_view.h"
#include "widgets/counted.h"

namespace warplab::app {

MontageDialog::MontageDialog(std::shared_ptr<const io::Recording> recorded, const std::vector<std::string>& current,
                             QWidget* parent)
    : QDialog(parent), rec_(std::move(recorded)) {
    setWindowTitle(tr("Montage"));
    auto* intro = new QLabel(tr("One derivation per line: a channel as recorded, or the difference of two channels "
                                "written A-B. Empty: the channels as recorded.\nFor example, with this recording's "
                                "channels:\n%1")
                                 .arg(rec_ ? example(*rec_) : QString()));
    intro->setObjectName("montageIntro");
    intro->setWordWrap(true);
    intro->setTextInteractionFlags(Qt::TextSelectableByMouse);
    text_ = new QPlainTextEdit;
    text_->setObjectName("montageText");
    QStringList lines;
    for (const auto& e : current) lines << QString::fromStdString(e);
    text_->setPlainText(lines.join('\n'));
    text_->setLineWrapMode(QPlainTextEdit::NoWrap);
    error_ = new QLabel;
    error_->setObjectName("montageError");
    error_->setWordWrap(true);
    error_->setStyleSheet("color: #b00020");
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_->hide();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    QPushButton* recordedButton = buttons->addButton(tr("Channels as recorded"), QDialogButtonBox::ResetRole);
    connect(recordedButton, &QPushButton::clicked, this, [this] { text_->clear(); });
    connect(buttons, &QDialogButtonBox::accepted, this, &MontageDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &MontageDialog::reject);
    auto* l = new QVBoxLayout(this);
    l->addWidget(intro);
    l->addWidget(text_, 1);
    l->addWidget(error_);
    l->addWidget(buttons);
    resize(520, 420);
}

QString MontageDialog::example(const io::Recording& rec) {
    const auto& sigs = widgets::signalList(rec);
    if (sigs.empty()) return {};
    const QString a = QString::fromStdString(sigs[0].displayName);
    if (sigs.size() < 2) return a;
    const QString b = QString::fromStdString(sigs[1].displayName);
    return tr("%1   (as recorded)\n%1-%2   (%1 minus %2)").arg(a, b);
}

QString MontageDialog::check() {
    expressions_.clear();
    readings_.clear();
    const QStringList lines = text_->toPlainText().split('\n');
    std::vector<int> lineOf;
    for (int i = 0; i < lines.size(); ++i) {
        const QString t = lines[i].trimmed();
        if (t.isEmpty()) continue;
        expressions_.push_back(t.toStdString());
        lineOf.push_back(i + 1);
    }
    if (!rec_ || expressions_.empty()) return {};
    // Each line alone, so that the error names the line as typed (blank lines counted).
    for (std::size_t k = 0; k < expressions_.size(); ++k) {
        try {
            const auto d = io::resolveMontage(*rec_, {expressions_[k]});
            const std::string r = io::derivationReading(*rec_, d.front());
            if (!r.empty()) readings_ << tr("line %1: %2").arg(lineOf[k]).arg(QString::fromStdString(r));
        } catch (const io::IoError& e) {
            return tr("line %1: %2").arg(lineOf[k]).arg(QString::fromStdString(e.reason()));
        } catch (const std::exception& e) {
            return tr("line %1: %2").arg(lineOf[k]).arg(QString::fromStdString(e.what()));
        }
    }
    return {};
}

void MontageDialog::accept() {
    const QString error = check();
    if (!error.isEmpty()) {
        // The text stays as typed; the line is named under it.
        error_->setText(error);
        error_->show();
        text_->setFocus();
        return;
    }
    error_->hide();
    QDialog::accept();
}

QString applyMontage(Document& doc, widgets::SignalView& signal, const std::vector<std::string>& expressions,
                     const QStringList& readings) {
    // The time window survives the new channels (opening the montage's recording in the view
    // would go back to 0 s / 10 s).
    const double start = signal.windowStart(), length = signal.windowLength();
    const bool hadUndo = doc.undoStack()->count() > 0;
    if (!doc.setMontage(expressions)) return {};
    signal.setWindow(start, length);
    const int channels = doc.recording() ? int(widgets::signalList(*doc.recording()).size()) : 0;
    const QString n = widgets::counted(channels, MontageDialog::tr("channel"), MontageDialog::tr("channels"));
    QString text = expressions.empty() ? MontageDialog::tr("Channels as recorded (%1)").arg(n)
                                       : MontageDialog::tr("Montage applied: %1").arg(n);
    text += MontageDialog::tr("; time window kept; the cost matrix and alignment of the previous channels cleared");
    if (hadUndo) text += MontageDialog::tr("; undo history cleared (channel numbers changed)");
    if (!doc.montageRegionNote().isEmpty()) text += "; " + doc.montageRegionNote();
    if (!readings.isEmpty()) text += "; " + readings.join("; ");
    return text;
}

void montageDialog(QWidget* parent, Document& doc, widgets::SignalView& signal,
                   const std::function<void(const QString&)>& status) {
    if (!doc.recordedRecording()) return;
    MontageDialog dialog(doc.recordedRecording(), doc.montage(), parent);
    if (dialog.exec() != QDialog::Accepted) return;
    const QString text = applyMontage(doc, signal, dialog.expressions(), dialog.readings());
    if (!text.isEmpty() && status) status(text);
}

}  // namespace warplab::app
