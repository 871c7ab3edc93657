// Undo command: a newly marked (or imported) region is appended to the document.
#pragma once
#include <QUndoCommand>

#include "io/regions.h"

namespace warplab::app {

class Document;

class AddRegionCommand : public QUndoCommand {
public:
    AddRegionCommand(Document* doc, const io::Region& region, QUndoCommand* parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document* doc_;
    io::Region region_;
    int index_ = -1;
};

}  // namespace warplab::app
