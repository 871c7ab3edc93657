#include "app/gui/remove_region_command.h"

#include "app/gui/document.h"
#include "widgets/region_style.h"

namespace warplab::app {

RemoveRegionCommand::RemoveRegionCommand(Document* doc, int index, QUndoCommand* parent)
    : QUndoCommand(parent), doc_(doc), index_(index), region_(doc->regions().at(std::size_t(index))) {
    setText(QObject::tr("Delete %1 region").arg(widgets::regionKindLabel(region_.kind).toLower()));
}

void RemoveRegionCommand::redo() { doc_->removeRegionRaw(index_); }
void RemoveRegionCommand::undo() { doc_->insertRegionRaw(index_, region_); }

}  // namespace warplab::app
