#pragma once

#include <QList>
#include <QObject>
#include <QStringList>

namespace ks::app {

// The File→Open Recent list, kept in QSettings. An entry is what one open
// produced: usually one file or folder, or several paths given together.
// Newest first, at most kMaxEntries, no duplicates.
class RecentFiles : public QObject
{
    Q_OBJECT

public:
    static constexpr int kMaxEntries = 10;

    explicit RecentFiles(QObject* parent = nullptr);

    QList<QStringList> entries() const { return m_entries; }

    void add(const QStringList& paths);
    void remove(const QStringList& paths);
    void clear();

signals:
    void changed();

private:
    void load();
    void save() const;

    QList<QStringList> m_entries;
};

} // namespace ks::app
