#pragma once

// The shared memory snapshots (../shared/snapshots/<case>/*.pickle) and what
// memory_viz computes from them (../shared/reference/snapshots/<case>/:
// stats.json, timeline.csv, by_frame.csv; its README says how).

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace ks::test {

inline QString snapshotReferenceDir(const QString& name)
{
    return QStringLiteral(KS_SHARED_DIR "/reference/snapshots/") + name;
}

// The case's pickle; empty when the shared snapshots are absent.
inline QString sharedSnapshotFile(const QString& name)
{
    const QDir dir(QStringLiteral(KS_SHARED_DIR "/snapshots/") + name);
    const QStringList files = dir.entryList({ QStringLiteral("*.pickle") }, QDir::Files);
    return files.isEmpty() ? QString() : dir.filePath(files.front());
}

inline QJsonObject readJsonObject(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// A CSV without quoted newlines: header names -> values per row.
inline QList<QMap<QString, QString>> readReferenceCsv(const QString& path)
{
    QFile f(path);
    QList<QMap<QString, QString>> rows;
    if (!f.open(QIODevice::ReadOnly))
        return rows;
    auto split = [](const QString& line) {
        QStringList cells;
        QString cell;
        bool quoted = false;
        for (const QChar c : line) {
            if (c == u'"')
                quoted = !quoted;
            else if (c == u',' && !quoted) {
                cells << cell;
                cell.clear();
            } else
                cell += c;
        }
        cells << cell;
        return cells;
    };
    const QStringList header = split(QString::fromUtf8(f.readLine()).trimmed());
    while (!f.atEnd()) {
        const QStringList cells = split(QString::fromUtf8(f.readLine()).trimmed());
        QMap<QString, QString> row;
        for (int i = 0; i < header.size() && i < cells.size(); ++i)
            row[header[i]] = cells[i];
        rows << row;
    }
    return rows;
}

} // namespace ks::test
