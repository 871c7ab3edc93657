// The study whose recordings cannot be read (a CHB-MIT summary copied without its files): what
// happened, naming the summary; the paths it looked for, one per line and never wrapped; and a
// way on: "Choose the recordings' folder…" (the folder is opened as the study, its seizures
// from the summary), besides Close.
#pragma once
#include <QDialog>
#include <QStringList>

class QLabel;
class QPlainTextEdit;

namespace warplab::app {

class StudyMissingDialog : public QDialog {
    Q_OBJECT
public:
    // `startFolder`: where the folder chooser opens (the summary's folder).
    StudyMissingDialog(const QString& title, const QString& text, const QStringList& paths, const QString& startFolder,
                       QWidget* parent = nullptr);
    // The folder chosen (after Accepted), else empty.
    QString folder() const { return folder_; }
    QPlainTextEdit* pathList() const { return list_; }
    QLabel* message() const { return text_; }

private:
    QLabel* text_;
    QPlainTextEdit* list_;
    QString startFolder_, folder_;
};

}  // namespace warplab::app
