// One table of actions (menu, text, shortcut, handler), as mne-qt-browser keeps its shortcut
// table: it builds the menus, the toolbar and the keyboard-shortcut help, so the three can
// never disagree. Entries without a handler document keys that a view handles itself.
#pragma once
#include <functional>
#include <map>
#include <vector>

#include <QKeySequence>
#include <QList>
#include <QString>

class QAction;
class QMainWindow;
class QMenu;

namespace warplab::app {

struct ActionSpec {
    QString id;          // stable name, for lookups and tests ("file.open")
    QString menu;        // top-level menu title; for help-only entries the view's name
    QString text;
    QList<QKeySequence> shortcuts;
    std::function<void()> handler;  // empty: help-only entry (the key belongs to a view)
    bool toolbar = false;
    QString icon;        // resource path, optional
    QString keysText;    // for the help when the input is not a key ("Drag", "Wheel")
    QString toolbarText; // short label on the toolbar; empty: the menu text
};

class ActionTable {
public:
    void add(ActionSpec spec);
    void setToolbarText(const QString& id, const QString& text);  // before build()
    const std::vector<ActionSpec>& specs() const { return specs_; }

    // Creates the QActions, the menus (in first-use order) and the toolbar of `window`.
    void build(QMainWindow* window);
    QAction* action(const QString& id) const;
    QMenu* menu(const QString& title) const;

private:
    std::vector<ActionSpec> specs_;
    std::map<QString, QAction*> actions_;
    std::map<QString, QMenu*> menus_;
};

}  // namespace warplab::app
