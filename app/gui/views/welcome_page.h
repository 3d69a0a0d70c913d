#pragma once

#include <QList>
#include <QStringList>
#include <QWidget>

class QAction;
class QLabel;
class QPushButton;

namespace ks::app {

// What the window shows before anything is open: how to open a trace (buttons,
// shortcuts, drag and drop) and the recent traces, one click away.
class WelcomePage : public QWidget
{
    Q_OBJECT

public:
    WelcomePage(QAction* openFile, QAction* openFolder, QWidget* parent = nullptr);

    void setRecent(const QList<QStringList>& entries);

signals:
    void recentActivated(const QStringList& paths);

private:
    QLabel* m_recentTitle = nullptr;
    QLabel* m_recent = nullptr;
    QList<QStringList> m_entries;
};

} // namespace ks::app
