#pragma once

#include <QDialog>
#include <QList>

class QAction;
class QMenuBar;
class QTreeWidget;

namespace ks::app {

// Help→Keyboard Shortcuts: every menu action with a shortcut, grouped by menu,
// plus the shortcuts that live inside views. Built from the live menus, so it
// cannot drift from what the keys really do. Non-modal.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ShortcutsDialog(const QMenuBar* menuBar, QWidget* parent = nullptr);

    QTreeWidget* tree() const { return m_tree; }

private:
    void addMenuActions(const QMenuBar* menuBar);
    void addViewShortcuts();

    QTreeWidget* m_tree = nullptr;
};

} // namespace ks::app
