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

// "118 KB", "1.2 GB" (SI units, like file managers).
QString formatBytes(std::uint64_t bytes);

// Adaptive unit: "850 ns", "12.3 µs", "4.56 ms", "1.234 s", "2 min 03 s".
QString formatDuration(std::int64_t ns);

// A wall-clock time for progress: "0:07", "12:30", "1:02:03".
QString formatClock(std::int64_t ms);

// The last path component of a file or folder, for titles and tables.
QString displayName(const QString& path);

// What a list of opened paths is called in titles: "rank0.json", "a.json and b.json",
// "a.json and 3 more".
QString displayNames(const QStringList& paths);

} // namespace ks::widgets
