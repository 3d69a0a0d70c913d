#include "widgets/common/format.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QObject>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace ks::widgets {

namespace {

    // The user's locale, always grouping thousands: the C locale (a bare
    // environment, the tests) would otherwise write 1234567.
    QLocale numberLocale()
    {
        QLocale locale;
        locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
        return locale;
    }

} // namespace

QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString formatCount(std::uint64_t count)
{
    return numberLocale().toString(static_cast<qulonglong>(count));
}

QString formatBytes(std::uint64_t bytes)
{
    return numberLocale().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeIecFormat);
}

namespace {

    // Three significant digits, like profilers show durations: 4.56 ms, 45.6 ms, 456 ms.
    QString withUnit(double value, const QString& unit)
    {
        const double magnitude = std::fabs(value);
        const int decimals = magnitude >= 100 ? 0 : (magnitude >= 10 ? 1 : 2);
        return numberLocale().toString(value, 'f', decimals) + QChar(u' ') + unit;
    }

} // namespace

QString formatDuration(std::int64_t ns)
{
    const double v = static_cast<double>(ns);
    const std::int64_t magnitude = std::llabs(ns);
    if (magnitude < 1000)
        return numberLocale().toString(static_cast<qlonglong>(ns)) + QStringLiteral(" ns");
    if (magnitude < 1000 * 1000)
        return withUnit(v / 1e3, QStringLiteral("µs"));
    if (magnitude < 1000 * 1000 * 1000)
        return withUnit(v / 1e6, QStringLiteral("ms"));
    if (magnitude < 60LL * 1000 * 1000 * 1000)
        return numberLocale().toString(v / 1e9, 'f', 3) + QStringLiteral(" s");
    const std::int64_t seconds = ns / 1000000000;
    return QStringLiteral("%1 min %2 s").arg(seconds / 60).arg(std::llabs(seconds % 60), 2, 10, QChar(u'0'));
}

QString formatDurationReal(double ns)
{
    if (std::isnan(ns))
        return {};
    const double magnitude = std::fabs(ns);
    if (magnitude >= 60e9 || std::nearbyint(ns) == ns) // whole nanoseconds: "0 ns", "850 ns"
        return formatDuration(static_cast<std::int64_t>(std::llround(ns)));
    if (magnitude < 1000)
        return withUnit(ns, QStringLiteral("ns"));
    if (magnitude < 1e6)
        return withUnit(ns / 1e3, QStringLiteral("µs"));
    if (magnitude < 1e9)
        return withUnit(ns / 1e6, QStringLiteral("ms"));
    return numberLocale().toString(ns / 1e9, 'f', 3) + QStringLiteral(" s");
}

QString formatPercent(double percent)
{
    if (std::isnan(percent))
        return {};
    return numberLocale().toString(percent, 'f', 1) + QStringLiteral(" %");
}

QString formatReal(double value)
{
    if (std::isnan(value))
        return {};
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("∞") : QStringLiteral("-∞");
    const double magnitude = std::fabs(value);
    if (magnitude == 0)
        return QStringLiteral("0");
    if (magnitude >= 1000 || std::nearbyint(value) == value)
        return numberLocale().toString(value, 'f', 0);
    // Four significant digits below 1000: 123.4, 12.35, 1.235, 0.01235.
    const int decimals = std::clamp(3 - static_cast<int>(std::floor(std::log10(magnitude))), 0, 12);
    QString text = numberLocale().toString(value, 'f', decimals);
    // No trailing zeros after the point: "1.5", not "1.500".
    const QChar point = numberLocale().decimalPoint().front();
    if (text.contains(point)) {
        while (text.endsWith(QChar(u'0')))
            text.chop(1);
        if (text.endsWith(point))
            text.chop(1);
    }
    return text;
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

namespace {

    bool endsWith(std::string_view text, std::string_view end)
    {
        return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
    }

    // The name without a unit written into it: "idle_time(us)", "sum (us)",
    // "mean_us", "memory_bw_gbps", "idle_time_pctg" -> the part a person names.
    std::string_view withoutUnit(std::string_view name)
    {
        if (const auto paren = name.find('('); paren != std::string_view::npos && endsWith(name, ")"))
            name = name.substr(0, paren);
        while (!name.empty() && name.back() == ' ')
            name.remove_suffix(1);
        // "_b": bytes, as the memory tables name them ("size_b").
        for (std::string_view suffix : { "_us", "_ms", "_ns", "_gbps", "_pctg", "_pct", "_bytes", "_b" }) {
            if (endsWith(name, suffix) && name.size() > suffix.size())
                return name.substr(0, name.size() - suffix.size());
        }
        return name;
    }

    // A raw value's unit when the column's name carries it and its unit field does not.
    std::string_view unitInName(std::string_view name)
    {
        const std::string_view base = name.substr(0, name.find('.'));
        if (endsWith(base, "(us)") || endsWith(base, "_us"))
            return "us";
        if (endsWith(base, "(ms)") || endsWith(base, "_ms"))
            return "ms";
        if (endsWith(base, "(ns)") || endsWith(base, "_ns"))
            return "ns";
        if (endsWith(base, "_gbps"))
            return "GB/s";
        return {};
    }

    bool isIdentifier(std::string_view base)
    {
        for (std::string_view id :
            { "rank", "stream", "index", "pid", "tid", "correlation", "index_correlation", "iteration",
                "event_index", "seq", "instance", "device", "from_rank", "to_rank", "step" }) {
            if (base == id)
                return true;
        }
        return endsWith(base, "_id") || endsWith(base, "_rank") || endsWith(base, "_index")
            || endsWith(base, "external_id");
    }

    bool isCount(std::string_view name, std::string_view base, std::string_view stat)
    {
        if (stat == "count" || base == "count" || endsWith(base, "_count") || endsWith(base, "count"))
            return true;
        for (std::string_view count : { "hops", "ranks", "calls", "collectives_joined", "kernels", "events",
                 "occurrences", "instances", "num_kernels" }) {
            if (base == count)
                return true;
        }
        return name == "occurrence_count";
    }

    double nanosecondsPer(std::string_view unit)
    {
        if (unit == "ns")
            return 1;
        if (unit == "us")
            return 1e3;
        if (unit == "ms")
            return 1e6;
        if (unit == "s")
            return 1e9;
        return 0;
    }

    QString statTitle(std::string_view stat)
    {
        if (stat == "25%")
            return QStringLiteral("p25");
        if (stat == "50%")
            return QStringLiteral("median");
        if (stat == "75%")
            return QStringLiteral("p75");
        if (stat == "std")
            return QStringLiteral("std dev");
        return toQString(stat);
    }

} // namespace

QString humanTitle(std::string_view name)
{
    std::string_view stat;
    std::string_view base = name;
    if (const auto dot = name.rfind('.'); dot != std::string_view::npos && dot + 1 < name.size()) {
        base = name.substr(0, dot);
        stat = name.substr(dot + 1);
    }
    const bool share = endsWith(base, "_pctg") || endsWith(base, "_pct") || base == "percentage";
    base = withoutUnit(base);
    static const std::pair<std::string_view, std::string_view> kWords[] = {
        { "gpu", "GPU" },
        { "cpu", "CPU" },
        { "bw", "bandwidth" },
        { "pid", "PID" },
        { "tid", "TID" },
        { "id", "ID" },
        { "ts", "time" },
        { "aten", "ATen" },
        { "std", "std dev" },
        { "stddev", "std dev" },
        { "avg", "mean" },
        { "comp", "compute" },
        { "comm", "communication" },
        { "nccl", "NCCL" },
        { "cuda", "CUDA" },
        { "pctg", "share" },
        { "percentage", "share" },
        { "pct", "%" },
        { "flops", "FLOPs" },
    };
    QStringList words;
    // A unit inside the name ("kernel_time_us_sum") is the cells' to say.
    QString spelled = toQString(base);
    for (const char* unit : { "_us_", "_ms_", "_ns_" })
        spelled.replace(QLatin1String(unit), QStringLiteral("_"));
    for (const QString& word :
        spelled.split(QRegularExpression(QStringLiteral("[_ ]+")), Qt::SkipEmptyParts)) {
        QString shown = word;
        for (const auto& [raw, human] : kWords) {
            if (word == toQString(raw))
                shown = toQString(human);
        }
        words.append(shown);
    }
    if (share && !words.isEmpty() && words.back() != QStringLiteral("share"))
        words.append(QStringLiteral("share"));
    if (!stat.empty())
        words.append(statTitle(stat));
    QString title = words.join(QChar(u' '));
    if (!title.isEmpty())
        title[0] = title.front().toUpper();
    return title.isEmpty() ? toQString(name) : title;
}

ColumnFormat columnFormat(std::string_view name, std::string_view unit)
{
    ColumnFormat format;
    format.title = humanTitle(name);
    std::string_view stat;
    std::string_view base = name;
    if (const auto dot = name.rfind('.'); dot != std::string_view::npos) {
        base = name.substr(0, dot);
        stat = name.substr(dot + 1);
    }
    if (unit.empty())
        unit = unitInName(name);
    const std::string_view plain = withoutUnit(base);
    if (isIdentifier(plain) && stat.empty()) {
        format.kind = NumberKind::Identifier;
    } else if (isCount(name, plain, stat)) {
        format.kind = NumberKind::Count;
    } else if (unit == "%" || endsWith(base, "_pctg") || endsWith(base, "_pct") || base == "percentage") {
        format.kind = NumberKind::Percent;
    } else if (plain == "ratio" || endsWith(plain, "_ratio")
        || plain.find("_ratio_") != std::string_view::npos || plain.substr(0, 9) == "relative_") {
        format.kind = NumberKind::Ratio;
    } else if (const double scale = nanosecondsPer(unit); scale > 0) {
        const bool pointInTime = plain == "ts" || plain == "start" || plain == "end" || plain == "time";
        format.kind = pointInTime ? NumberKind::Timestamp : NumberKind::Duration;
        format.toNanoseconds = scale;
        if (pointInTime)
            format.title +=
                QStringLiteral(" (%1)").arg(unit == "us" ? QStringLiteral("µs") : toQString(unit));
    } else if (unit == "B" || unit == "bytes" || plain.find("bytes") != std::string_view::npos) {
        format.kind = NumberKind::Bytes;
    } else {
        format.kind = NumberKind::Real;
        if (!unit.empty())
            format.title += QStringLiteral(" (%1)").arg(toQString(unit));
    }
    return format;
}

QString formatValue(double value, const ColumnFormat& format)
{
    if (std::isnan(value))
        return {};
    switch (format.kind) {
    case NumberKind::Text:
    case NumberKind::Real:
        return formatReal(value);
    case NumberKind::Identifier:
        return std::nearbyint(value) == value && std::fabs(value) < 9e15
            ? QString::number(static_cast<qlonglong>(value))
            : QString::number(value, 'g', 10);
    case NumberKind::Count:
        return std::nearbyint(value) == value && std::fabs(value) < 9e15
            ? numberLocale().toString(static_cast<qlonglong>(value))
            : formatReal(value);
    case NumberKind::Duration:
        return formatDurationReal(value * format.toNanoseconds);
    case NumberKind::Timestamp:
        return numberLocale().toString(value, 'f', 0);
    case NumberKind::Percent:
        return formatPercent(value);
    case NumberKind::Ratio:
        return formatPercent(value * 100);
    case NumberKind::Bytes:
        return value < 0 ? formatReal(value) : formatBytes(static_cast<std::uint64_t>(value));
    }
    return formatReal(value);
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
