// File > Export regions / Import regions: the document's regions as CSV or as EDF+
// annotations (io/regions_exchange.h), chosen by the file's extension. An import is one undo
// step and is checked against the recording first (nothing is added when a region is bad).
#pragma once
#include <functional>

#include <QString>

class QWidget;

namespace warplab::app {

class Document;

struct RegionExchangeResult {
    bool ok = false;
    int count = 0;          // regions written or added
    QString message;        // for the status bar on success, the error text on failure
};

// `.csv` writes CSV, anything else (.edf) an annotation-only EDF+ file.
RegionExchangeResult exportRegions(const Document& doc, const QString& path);
// `.csv` reads CSV, anything else the annotations of an EDF+/BDF+ file (the open recording's
// own when `path` is the recording).
RegionExchangeResult importRegions(Document& doc, const QString& path);

// The dialogs around them (default names beside the recording); errors in a message box.
void exportRegionsDialog(QWidget* parent, const Document& doc, const std::function<void(const RegionExchangeResult&)>& done);
void importRegionsDialog(QWidget* parent, Document& doc, const std::function<void(const RegionExchangeResult&)>& done);

}  // namespace warplab::app
