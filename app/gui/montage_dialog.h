// View ▸ Montage: one derivation per line, checked against the open recording before the
// dialog closes. An error names its line ("line 2: ...") under the text, which stays as typed;
// the example uses the recording's own channel names; a difference whose labels contain '-'
// is accepted with the reading taken said (io/montage.h derivationReading).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <QDialog>
#include <QStringList>

class QLabel;
class QPlainTextEdit;

namespace warplab::io {
class Recording;
}

namespace warplab::widgets {
class SignalView;
}

namespace warplab::app {

class Document;

class MontageDialog : public QDialog {
    Q_OBJECT
public:
    // `recorded`: the recording as opened (the montage derives from its channels);
    // `current`: the montage in effect (empty: the channels as recorded).
    MontageDialog(std::shared_ptr<const io::Recording> recorded, const std::vector<std::string>& current,
                  QWidget* parent = nullptr);

    // After Accepted: the derivations (empty: the channels as recorded) and how ambiguous-looking
    // ones were read ("line 2: \"F7-T7-T7-P7\" read as (F7-T7) minus (T7-P7)").
    std::vector<std::string> expressions() const { return expressions_; }
    QStringList readings() const { return readings_; }

    // The example shown above the text (from the recording's channels).
    static QString example(const io::Recording& rec);

    void accept() override;

private:
    // Checks the typed lines; empty on success, else "line N: reason" (N counts every line typed).
    QString check();

    std::shared_ptr<const io::Recording> rec_;
    QPlainTextEdit* text_;
    QLabel* error_;
    std::vector<std::string> expressions_;
    QStringList readings_;
};

// Applies `expressions` (MontageDialog's) to the document, keeping the signal view's time
// window; returns the status-bar text saying what changed (channels, what was cleared, the
// readings), or an empty string when the montage was refused (the document said why).
QString applyMontage(Document& doc, widgets::SignalView& signal, const std::vector<std::string>& expressions,
                     const QStringList& readings);

// The View ▸ Montage action: the dialog, then applyMontage; the text goes to `status`.
void montageDialog(QWidget* parent, Document& doc, widgets::SignalView& signal,
                   const std::function<void(const QString&)>& status);

}  // namespace warplab::app
