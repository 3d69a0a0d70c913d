#include "app/gui/dialogs/shortcuts_dialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QStringList>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ks::app {

namespace {

    QString plainText(const QAction* action)
    {
        QString text = action->text();
        return text.remove(QChar(u'&'));
    }

    QString shortcutsText(const QAction* action)
    {
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts())
            keys.append(key.toString(QKeySequence::NativeText));
        return keys.join(QStringLiteral(", "));
    }

} // namespace

ShortcutsDialog::ShortcutsDialog(const QMenuBar* menuBar, QWidget* parent)
    : QDialog(parent)
    , m_tree(new QTreeWidget(this))
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    setObjectName(QStringLiteral("shortcutsDialog"));
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({ tr("Action"), tr("Shortcut") });
    m_tree->setRootIsDecorated(false);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionMode(QAbstractItemView::NoSelection);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(false);
    addMenuActions(menuBar);
    addViewShortcuts();
    m_tree->expandAll();

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_tree);
    layout->addWidget(buttons);
    resize(460, 420);
}

void ShortcutsDialog::addMenuActions(const QMenuBar* menuBar)
{
    QFont bold = font();
    bold.setBold(true);
    for (const QAction* menuAction : menuBar->actions()) {
        const QMenu* menu = menuAction->menu();
        if (!menu)
            continue;
        QTreeWidgetItem* group = nullptr;
        for (const QAction* action : menu->actions()) {
            if (action->isSeparator() || action->shortcuts().isEmpty())
                continue;
            if (!group) {
                group = new QTreeWidgetItem(m_tree, { plainText(menuAction) });
                group->setFont(0, bold);
                group->setFirstColumnSpanned(true);
            }
            new QTreeWidgetItem(group, { plainText(action), shortcutsText(action) });
        }
    }
}

void ShortcutsDialog::addViewShortcuts()
{
    QFont bold = font();
    bold.setBold(true);
    auto* group = new QTreeWidgetItem(m_tree, { tr("Tables") });
    group->setFont(0, bold);
    group->setFirstColumnSpanned(true);
    const auto native = [](QKeySequence::StandardKey key) {
        return QKeySequence(key).toString(QKeySequence::NativeText);
    };
    new QTreeWidgetItem(group, { tr("Copy selected rows (tab-separated)"), native(QKeySequence::Copy) });
    new QTreeWidgetItem(group, { tr("Select all rows"), native(QKeySequence::SelectAll) });
    new QTreeWidgetItem(group, { tr("Move between panels"), tr("Tab, Shift+Tab") });
}

} // namespace ks::app
