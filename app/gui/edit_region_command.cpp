#include "app/gui/edit_region_command.h"

#include "app/gui/document.h"

namespace warplab::app {

EditRegionCommand::EditRegionCommand(Document* doc, int index, const io::Region& after, const QString& text,
                                     QUndoCommand* parent)
    : QUndoCommand(text, parent), doc_(doc), index_(index), before_(doc->regions().at(std::size_t(index))), after_(after) {}

void EditRegionCommand::redo() { doc_->setRegionRaw(index_, after_); }
void EditRegionCommand::undo() { doc_->setRegionRaw(index_, before_); }

}  // namespace warplab::app
