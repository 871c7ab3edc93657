// Undo command: deleting a marked region (undo puts it back at the same place).
#pragma once
#include <QUndoCommand>

#include "io/regions.h"

namespace warplab::app {

class Document;

class RemoveRegionCommand : public QUndoCommand {
public:
    RemoveRegionCommand(Document* doc, int index, QUndoCommand* parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document* doc_;
    int index_;
    io::Region region_;
};

}  // namespace warplab::app
