#include "app/gui/region_exchange.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QObject>
#include <QUndoStack>

#include "app/gui/add_region_command.h"
#include "app/gui/document.h"
#include "io/regions_exchange.h"
#include "widgets/counted.h"

namespace warplab::app {
namespace {

std::vector<std::string> channelNames(const io::Recording& rec) {
    std::vector<std::string> out;
    for (const auto& s : widgets::signalList(rec)) out.push_back(s.displayName);
    return out;
}

bool isCsv(const QString& path) { return QFileInfo(path).suffix().compare("csv", Qt::CaseInsensitive) == 0; }

}  // namespace

RegionExchangeResult exportRegions(const Document& doc, const QString& path) {
    RegionExchangeResult r;
    const auto rec = doc.recording();
    if (!rec) {
        r.message = QObject::tr("No recording is open.");
        return r;
    }
    try {
        const auto names = channelNames(*rec);
        QString extra;
        if (isCsv(path)) {
            io::writeRegionsCsv(path.toStdString(), doc.regions(), names);
        } else {
            const int cut = io::writeRegionsEdf(path.toStdString(), doc.regions(), names, io::annotationStartFromIso(rec->startIso()));
            if (cut > 0) extra = QObject::tr(" (%1 shortened to EDFlib's 40 bytes; CSV keeps them whole)")
                                    .arg(widgets::counted(cut, QObject::tr("note"), QObject::tr("notes")));
        }
        r.ok = true;
        r.count = int(doc.regions().size());
        r.message = QObject::tr("%1 exported to %2%3")
                        .arg(widgets::counted(r.count, QObject::tr("region"), QObject::tr("regions")), QFileInfo(path).fileName(), extra);
    } catch (const std::exception& e) {
        r.message = QString::fromStdString(e.what());
    }
    return r;
}

RegionExchangeResult importRegions(Document& doc, const QString& path) {
    RegionExchangeResult r;
    const auto rec = doc.recording();
    if (!rec) {
        r.message = QObject::tr("No recording is open.");
        return r;
    }
    std::vector<io::Region> found;
    QString extra;
    try {
        const auto names = channelNames(*rec);
        if (isCsv(path)) {
            found = io::readRegionsCsv(path.toStdString(), names);
        } else {
            // EDFlib opens a file once; the open recording's annotations are already read.
            const bool self = QFileInfo(path).canonicalFilePath() == QFileInfo(QString::fromStdString(rec->path())).canonicalFilePath();
            const io::ImportedRegions in = self ? io::regionsFromAnnotations(rec->annotations(), names, rec->path())
                                                : io::readRegionsEdf(path.toStdString(), names);
            found = in.regions;
            if (!in.skipped.empty()) extra = QObject::tr("; %1 left out")
                                                        .arg(widgets::counted(qint64(in.skipped.size()), QObject::tr("other annotation"),
                                                                              QObject::tr("other annotations")));
        }
        io::checkRegions(*rec, found);
    } catch (const std::exception& e) {
        r.message = QString::fromStdString(e.what());
        return r;
    }
    r.ok = true;
    r.count = int(found.size());
    if (!found.empty()) {
        doc.undoStack()->beginMacro(QObject::tr("Import %1 from %2")
                                             .arg(widgets::counted(qint64(found.size()), QObject::tr("region"), QObject::tr("regions")),
                                                  QFileInfo(path).fileName()));
        for (const auto& region : found) doc.undoStack()->push(new AddRegionCommand(&doc, region));
        doc.undoStack()->endMacro();
    }
    r.message = QObject::tr("%1 imported from %2%3")
                    .arg(widgets::counted(r.count, QObject::tr("region"), QObject::tr("regions")), QFileInfo(path).fileName(), extra);
    return r;
}

void exportRegionsDialog(QWidget* parent, const Document& doc, const std::function<void(const RegionExchangeResult&)>& done) {
    if (!doc.recording()) return;
    const QString def = QString::fromStdString(io::regionsCsvPathFor(doc.path().toStdString()));
    const QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export regions"), def,
                                                      QObject::tr("CSV (*.csv);;EDF+ annotations (*.edf)"));
    if (!path.isEmpty()) done(exportRegions(doc, path));
}

void importRegionsDialog(QWidget* parent, Document& doc, const std::function<void(const RegionExchangeResult&)>& done) {
    if (!doc.recording()) return;
    const QString path = QFileDialog::getOpenFileName(parent, QObject::tr("Import regions"), QFileInfo(doc.path()).absolutePath(),
                                                      QObject::tr("Regions (*.csv *.edf *.bdf);;All files (*)"));
    if (!path.isEmpty()) done(importRegions(doc, path));
}

}  // namespace warplab::app
