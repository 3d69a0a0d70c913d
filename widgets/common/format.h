#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <string_view>

namespace ks::widgets {

// Text for people: sizes, durations and counts as every view of the app shows them,
// so a number reads the same in the summary table, the diagnostics panel and the
// progress bar.

// UTF-8 text from the core.
QString toQString(std::string_view text);

// "4,855" (grouped by the user's locale).
QString formatCount(std::uint64_t count);

// "118 KiB", "1.2 GiB" (binary units: what memory and allocators count in).
QString formatBytes(std::uint64_t bytes);

// Adaptive unit: "850 ns", "12.3 µs", "4.56 ms", "1.234 s", "2 min 03 s".
QString formatDuration(std::int64_t ns);
// The same for fractional nanoseconds (means, percentiles): "1.49 µs", "0.5 ns".
QString formatDurationReal(double ns);

// One decimal and a % sign: "12.3 %".
QString formatPercent(double percent);

// Three or four significant digits with grouping: "0.0123", "12.35", "4,321".
QString formatReal(double value);

// A wall-clock time for progress: "0:07", "12:30", "1:02:03".
QString formatClock(std::int64_t ms);

// The last path component of a file or folder, for titles and tables.
QString displayName(const QString& path);

// What a list of opened paths is called in titles: "rank0.json", "a.json and b.json",
// "a.json and 3 more".
QString displayNames(const QStringList& paths);

// The one number policy of every table and chart: what a
// column holds, read from its name and unit as the core declares them, decides
// how its cells are written and what its header says. Raw values (HTA's names,
// full precision) stay in the tooltip, in copy and in CSV/JSON export.
enum class NumberKind
{
    Text, // not a number: shown as given
    Identifier, // rank, stream, index, correlation…: the integer as is, no grouping
    Count, // grouped integers: "4,855"
    Duration, // adaptive units, 3-4 significant digits: "43.1 µs"
    Timestamp, // a point in time: grouped, in the header's unit
    Percent, // "12.3 %" (values already in percent)
    Ratio, // a fraction 0..1 shown as a percentage: "12.3 %"
    Bytes, // "1.2 GiB"
    Real, // anything else: 3-4 significant digits, the unit in the header
};

struct ColumnFormat
{
    NumberKind kind = NumberKind::Text;
    double toNanoseconds = 1; // Duration: one unit of the raw value in ns
    QString title; // "Idle time", "Memory bandwidth (GB/s)"
};

// How a column of this name and unit ("us", "ms", "ns", "%", "GB/s", "") is shown.
ColumnFormat columnFormat(std::string_view name, std::string_view unit);

// A raw value of such a column as a person reads it; empty for NaN.
QString formatValue(double value, const ColumnFormat& format);

// "idle_time(us)" -> "Idle time", "memory_bw_gbps.25%" -> "Memory bandwidth p25".
QString humanTitle(std::string_view name);

// Roles every table model of the app answers the same way, so copy, tests and
// the palette can ask any of them: the raw value or name as text (copy), and a
// header's NumberKind (as int).
inline constexpr int kRawTextRole = 0x0100 + 40; // Qt::UserRole + 40
inline constexpr int kNumberKindRole = 0x0100 + 41;

} // namespace ks::widgets
