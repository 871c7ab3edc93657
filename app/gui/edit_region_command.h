// Undo command: moving or editing a region (kind, channel, times, note), kept as before/after.
#pragma once
#include <QUndoCommand>

#include "io/regions.h"

namespace warplab::app {

class Document;

class EditRegionCommand : public QUndoCommand {
public:
    EditRegionCommand(Document* doc, int index, const io::Region& after, const QString& text,
                      QUndoCommand* parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document* doc_;
    int index_;
    io::Region before_, after_;
};

}  // namespace warplab::app
