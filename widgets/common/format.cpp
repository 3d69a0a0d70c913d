#include "widgets/common/format.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QObject>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace ks::widgets {

QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString formatCount(std::uint64_t count)
{
    return QLocale().toString(static_cast<qulonglong>(count));
}

QString formatBytes(std::uint64_t bytes)
{
    return QLocale().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeSIFormat);
}

namespace {

    // Three significant digits, like profilers show durations: 4.56 ms, 45.6 ms, 456 ms.
    QString withUnit(double value, const QString& unit)
    {
        const double magnitude = std::fabs(value);
        const int decimals = magnitude >= 100 ? 0 : (magnitude >= 10 ? 1 : 2);
        return QLocale().toString(value, 'f', decimals) + QChar(u' ') + unit;
    }

} // namespace

QString formatDuration(std::int64_t ns)
{
    const double v = static_cast<double>(ns);
    const std::int64_t magnitude = std::llabs(ns);
    if (magnitude < 1000)
        return QLocale().toString(static_cast<qlonglong>(ns)) + QStringLiteral(" ns");
    if (magnitude < 1000 * 1000)
        return withUnit(v / 1e3, QStringLiteral("µs"));
    if (magnitude < 1000 * 1000 * 1000)
        return withUnit(v / 1e6, QStringLiteral("ms"));
    if (magnitude < 60LL * 1000 * 1000 * 1000)
        return QLocale().toString(v / 1e9, 'f', 3) + QStringLiteral(" s");
    const std::int64_t seconds = ns / 1000000000;
    return QStringLiteral("%1 min %2 s").arg(seconds / 60).arg(std::llabs(seconds % 60), 2, 10, QChar(u'0'));
}

QString formatClock(std::int64_t ms)
{
    const std::int64_t total = std::max<std::int64_t>(0, ms) / 1000;
    const std::int64_t hours = total / 3600;
    const std::int64_t minutes = (total / 60) % 60;
    const std::int64_t seconds = total % 60;
    const QChar zero(u'0');
    if (hours > 0)
        return QStringLiteral("%1:%2:%3").arg(hours).arg(minutes, 2, 10, zero).arg(seconds, 2, 10, zero);
    return QStringLiteral("%1:%2").arg(minutes).arg(seconds, 2, 10, zero);
}

QString displayName(const QString& path)
{
    const QFileInfo info(QDir::cleanPath(path));
    const QString name = info.fileName();
    return name.isEmpty() ? QDir::toNativeSeparators(path) : name;
}

QString displayNames(const QStringList& paths)
{
    if (paths.isEmpty())
        return {};
    if (paths.size() == 1)
        return displayName(paths.front());
    if (paths.size() == 2)
        return QObject::tr("%1 and %2").arg(displayName(paths[0]), displayName(paths[1]));
    return QObject::tr("%1 and %2 more").arg(displayName(paths.front())).arg(paths.size() - 1);
}

} // namespace ks::widgets
