// The options of a detector's cross-validation over the open study, asked before the run: the
// channels whose patterns vote together, patterns per channel, votes an epoch needs, the
// operating point on each pattern's training ROC, the event rule, the fold kind, epoch, stride
// and band, and SzCORE's scoring rules. Names and defaults are `warplab-cli crossval`'s; what
// the user chose is kept between runs (QSettings "crossval/..."), except the fold kind, which is
// the action's, and the band, which is the metric panel's when the dialog opens (the band every
// other analysis runs with). Settings that cannot run are said below the fields and OK stays
// off until they can.
#pragma once
#include <vector>

#include <QDialog>
#include <QString>
#include <QStringList>

#include "app/gui/detection_jobs.h"

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QSpinBox;

namespace warplab::app {

class CrossvalDialog : public QDialog {
    Q_OBJECT
public:
    struct Channel {
        QString name;
        double rateHz = 0;
    };
    // `channels`: the study's; `current`: the channel in view, chosen when none of the
    // remembered ones is in the study; `folds`: the kind the user's action asked for; `band`:
    // the metric panel's.
    CrossvalDialog(std::vector<Channel> channels, const QString& current, compute::CrossvalFolds folds, int band,
                   QWidget* parent = nullptr);

    CrossvalSettings settings() const;
    void setSettings(const CrossvalSettings& s);  // channels the study lacks are left out
    QString problem() const;                      // why OK is off ("" when it is on)

    // What the last accepted dialog chose (the CLI's defaults before any; folds and band are
    // not kept), and keeping it.
    static CrossvalSettings remembered();
    static void remember(const CrossvalSettings& s);

    void accept() override;  // remembers, when the settings can run

private:
    void refresh();

    std::vector<Channel> channels_;
    QListWidget* channelList_;
    QSpinBox* top_;
    QSpinBox* votes_;
    QComboBox* point_;
    QDoubleSpinBox* fpr_;
    QLabel* fprHint_;
    QSpinBox* minEpochs_;
    QDoubleSpinBox* eventGap_;
    QComboBox* folds_;
    QSpinBox* epoch_;
    QSpinBox* stride_;
    QLabel* epochHint_;
    QSpinBox* band_;
    QDoubleSpinBox* tolBefore_;
    QDoubleSpinBox* tolAfter_;
    QDoubleSpinBox* mergeGap_;
    QDoubleSpinBox* maxEvent_;
    QDoubleSpinBox* minOverlap_;
    QDoubleSpinBox* sampleHz_;
    QLabel* problem_;
    QDialogButtonBox* buttons_;
};

}  // namespace warplab::app
