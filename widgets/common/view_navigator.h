#pragma once

#include <QHash>
#include <QStringList>
#include <QWidget>

class QLabel;
class QScrollArea;
class QStackedWidget;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace ks::widgets {

// One place for the analyses: a list of views grouped by the
// question they answer, beside one content area showing the chosen view. A view
// can be taken out (takeView) to live in a window of its own and be given back
// (returnView); its page then says where it went. The navigator knows nothing of
// docks or settings: the app does the moving and remembering, asked by signals.
class ViewNavigator : public QWidget
{
    Q_OBJECT

public:
    explicit ViewNavigator(QWidget* parent = nullptr);

    // Groups in the order listed; a group without views is not shown.
    int addGroup(const QString& title);
    void addView(const QString& id, const QString& title, int group, QWidget* view);

    QStringList viewIds() const { return m_order; }

    QStringList groupTitles() const;
    QString title(const QString& id) const;
    // The group a view is in; -1 for an unknown id.
    int groupOf(const QString& id) const;
    // The view's widget wherever it is now (null for an unknown id).
    QWidget* view(const QString& id) const;

    QString currentView() const { return m_current; }

    // Selects the view (false for an unknown id). A view in its own window is
    // raised there through tornOffViewActivated.
    bool showView(const QString& id);
    // The group's last shown view, its first before that (false for an empty group).
    bool showGroup(int group);

    // The view shown before the current one (empty at first).
    QString previousView() const { return m_previous; }

    // Back to the previous view, so pressing it again returns (false when there is none).
    bool showPreviousView();

    // Hands the view out (the caller reparents it); null when unknown or already out.
    QWidget* takeView(const QString& id);
    // Puts a taken view back on its page.
    void returnView(const QString& id);
    bool isTornOff(const QString& id) const;

    QTreeWidget* list() const { return m_list; }

    // The scroll area a view sits in while it is in the navigator (null for an unknown id).
    QScrollArea* scrollArea(const QString& id) const;

    // The button that takes the current view out ("Open in its own window").
    QToolButton* tearOffButton() const { return m_tearOff; }

signals:
    void currentViewChanged(const QString& id);
    void tearOffRequested(const QString& id);
    void returnRequested(const QString& id);
    void tornOffViewActivated(const QString& id);

private:
    struct Entry
    {
        QString title;
        int group = 0;
        QWidget* view = nullptr;
        QWidget* page = nullptr; // holds the view's scroll area, or the "in its own window" line
        QScrollArea* scroll = nullptr; // the view while it is here
        QWidget* holder = nullptr; // the scroll area's widget, the view's parent while here
        QWidget* away = nullptr;
        QTreeWidgetItem* item = nullptr;
    };

    void onItemActivated(QTreeWidgetItem* item);
    void fitListWidth();

    QTreeWidget* m_list = nullptr;
    QStackedWidget* m_pages = nullptr;
    QLabel* m_title = nullptr;
    QToolButton* m_tearOff = nullptr;
    QList<QTreeWidgetItem*> m_groups;
    QHash<int, QString> m_lastInGroup;
    QHash<QString, Entry> m_entries;
    QStringList m_order;
    QString m_current;
    QString m_previous;
};

} // namespace ks::widgets
