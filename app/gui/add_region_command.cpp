#include "app/gui/add_region_command.h"

#include "app/gui/document.h"
#include "widgets/region_style.h"

namespace warplab::app {

AddRegionCommand::AddRegionCommand(Document* doc, const io::Region& region, QUndoCommand* parent)
    : QUndoCommand(parent), doc_(doc), region_(region) {
    setText(QObject::tr("Mark %1 %2–%3 s").arg(widgets::regionKindLabel(region.kind).toLower())
                .arg(region.startS, 0, 'f', 2).arg(region.endS, 0, 'f', 2));
}

void AddRegionCommand::redo() {
    index_ = int(doc_->regions().size());
    doc_->insertRegionRaw(index_, region_);
}

void AddRegionCommand::undo() { doc_->removeRegionRaw(index_); }

}  // namespace warplab::app
