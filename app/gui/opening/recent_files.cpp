#include "app/gui/opening/recent_files.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace ks::app {

namespace {

    const QString kGroup = QStringLiteral("recentFiles");
    const QString kPathsKey = QStringLiteral("paths");

    QStringList normalized(const QStringList& paths)
    {
        QStringList out;
        for (const QString& path : paths)
            out.append(QDir::cleanPath(QFileInfo(path).absoluteFilePath()));
        return out;
    }

} // namespace

RecentFiles::RecentFiles(QObject* parent)
    : QObject(parent)
{
    load();
}

void RecentFiles::add(const QStringList& paths)
{
    const QStringList entry = normalized(paths);
    if (entry.isEmpty())
        return;
    m_entries.removeAll(entry);
    m_entries.prepend(entry);
    while (m_entries.size() > kMaxEntries)
        m_entries.removeLast();
    save();
    emit changed();
}

void RecentFiles::remove(const QStringList& paths)
{
    if (m_entries.removeAll(normalized(paths)) > 0) {
        save();
        emit changed();
    }
}

void RecentFiles::clear()
{
    m_entries.clear();
    save();
    emit changed();
}

void RecentFiles::load()
{
    QSettings settings;
    const int size = settings.beginReadArray(kGroup);
    for (int i = 0; i < size && m_entries.size() < kMaxEntries; ++i) {
        settings.setArrayIndex(i);
        const QStringList paths = settings.value(kPathsKey).toStringList();
        if (!paths.isEmpty() && !m_entries.contains(paths))
            m_entries.append(paths);
    }
    settings.endArray();
}

void RecentFiles::save() const
{
    QSettings settings;
    settings.remove(kGroup);
    settings.beginWriteArray(kGroup, static_cast<int>(m_entries.size()));
    for (int i = 0; i < m_entries.size(); ++i) {
        settings.setArrayIndex(i);
        settings.setValue(kPathsKey, m_entries[i]);
    }
    settings.endArray();
}

} // namespace ks::app
