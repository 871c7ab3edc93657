#include "app/gui/study_missing_dialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace warplab::app {

StudyMissingDialog::StudyMissingDialog(const QString& title, const QString& text, const QStringList& paths,
                                       const QString& startFolder, QWidget* parent)
    : QDialog(parent), startFolder_(startFolder) {
    setObjectName("studyMissingRecordings");
    setWindowTitle(title);
    text_ = new QLabel(text);
    text_->setWordWrap(true);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    list_ = new QPlainTextEdit(paths.join('\n'));
    list_->setObjectName("missingPaths");
    list_->setReadOnly(true);
    list_->setLineWrapMode(QPlainTextEdit::NoWrap);  // a path is one line, scrolled, never broken
    list_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton* choose = buttons->addButton(tr("Choose the recordings' folder…"), QDialogButtonBox::AcceptRole);
    choose->setObjectName("chooseFolder");
    choose->setDefault(true);
    connect(choose, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("The folder that holds the recordings"), startFolder_);
        if (dir.isEmpty()) return;
        folder_ = dir;
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* l = new QVBoxLayout(this);
    l->addWidget(text_);
    l->addWidget(list_, 1);
    l->addWidget(buttons);
    resize(760, 420);
}

}  // namespace warplab::app
