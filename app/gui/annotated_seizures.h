// When a recording opens, the seizures its annotations name (io/seizure_annotations.h) are
// marked as Seizure regions, unless the user turned that off (View menu; kept in QSettings).
#pragma once
#include <QString>

namespace warplab::app {

class Document;

// QSettings key of the choice (default on).
QString annotatedSeizuresKey();
bool markAnnotatedSeizuresOnOpen();
void setMarkAnnotatedSeizuresOnOpen(bool on);

// Right after Document::open: when the choice is on and the document has no region yet, its
// named seizures become its regions (no undo step: they are what the file says). Returns how
// many were marked.
int markAnnotatedSeizures(Document& doc);

}  // namespace warplab::app
