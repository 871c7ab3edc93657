#include "app/gui/action_table.h"

#include <QAction>
#include <QMainWindow>
#include <QMenuBar>
#include <QToolBar>

namespace warplab::app {

void ActionTable::add(ActionSpec spec) { specs_.push_back(std::move(spec)); }

void ActionTable::setToolbarText(const QString& id, const QString& text) {
    for (ActionSpec& spec : specs_)
        if (spec.id == id) spec.toolbarText = text;
}

void ActionTable::build(QMainWindow* window) {
    QToolBar* toolbar = window->addToolBar(QObject::tr("Main"));
    toolbar->setObjectName("mainToolBar");
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    for (const ActionSpec& spec : specs_) {
        if (!spec.handler) continue;
        QMenu*& menu = menus_[spec.menu];
        if (!menu) menu = window->menuBar()->addMenu(spec.menu);
        auto* action = new QAction(spec.text, window);
        action->setObjectName(spec.id);
        action->setShortcuts(spec.shortcuts);
        if (!spec.icon.isEmpty()) action->setIcon(QIcon(spec.icon));
        if (!spec.toolbarText.isEmpty()) action->setIconText(spec.toolbarText);
        action->setToolTip(QString(spec.text).remove('&').remove(QStringLiteral("…")));
        QObject::connect(action, &QAction::triggered, window, [h = spec.handler] { h(); });
        menu->addAction(action);
        if (spec.toolbar) toolbar->addAction(action);
        actions_[spec.id] = action;
    }
}

QAction* ActionTable::action(const QString& id) const {
    auto it = actions_.find(id);
    return it == actions_.end() ? nullptr : it->second;
}

QMenu* ActionTable::menu(const QString& title) const {
    auto it = menus_.find(title);
    return it == menus_.end() ? nullptr : it->second;
}

}  // namespace warplab::app
