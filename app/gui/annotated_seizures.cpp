#include "app/gui/annotated_seizures.h"

#include <QSettings>

#include "app/gui/document.h"
#include "io/seizure_annotations.h"

namespace warplab::app {

QString annotatedSeizuresKey() { return QStringLiteral("regions/markAnnotatedSeizures"); }

bool markAnnotatedSeizuresOnOpen() { return QSettings().value(annotatedSeizuresKey(), true).toBool(); }

void setMarkAnnotatedSeizuresOnOpen(bool on) { QSettings().setValue(annotatedSeizuresKey(), on); }

int markAnnotatedSeizures(Document& doc) {
    const auto rec = doc.recording();
    if (!rec || !markAnnotatedSeizuresOnOpen() || !doc.regions().empty()) return 0;
    const std::vector<io::Region> found = io::namedSeizureRegions(*rec);
    if (!found.empty()) doc.setRegions(found);
    return int(found.size());
}

}  // namespace warplab::app
