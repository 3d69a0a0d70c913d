#include "widgets/timeline/counter_track.h"

#include "core/analysis/hta_frame.h"
#include "core/analysis/memory_bandwidth.h"
#include "core/analysis/queue_length.h"
#include "core/model/trace_set.h"
#include "widgets/common/format.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace ks::widgets {

namespace {

    void foldMinMax(CounterTrack::MinMax& acc, const CounterTrack::MinMax& v)
    {
        acc.min = std::min(acc.min, v.min);
        acc.max = std::max(acc.max, v.max);
    }

    // Tables hold µs (integer or double) relative to the frame set's minTs.
    std::optional<TimeNs> cellNs(const core::Cell& cell, TimeNs minTs)
    {
        if (const auto* i = std::get_if<std::int64_t>(&cell))
            return minTs + *i * 1000;
        if (const auto* d = std::get_if<double>(&cell))
            return minTs + static_cast<TimeNs>(std::llround(*d * 1000.0));
        return std::nullopt;
    }

    const core::Table* rankTable(const core::AnalysisOutput& out)
    {
        if (!out.ok || out.result.kind != core::HtaResult::Kind::Dict || out.result.entries.empty())
            return nullptr;
        return &out.result.entries.front().second.frame;
    }

    // Splits a series table into one track per value of `keyColumn`.
    void addSeries(const core::Table& table, TimeNs minTs, const std::string& keyColumn, const std::string& valueColumn,
        const std::function<QString(const core::Cell&)>& trackName, const QString& unit, CounterTracks& out)
    {
        const std::size_t tsCol = table.columnIndex("ts");
        const std::size_t keyCol = table.columnIndex(keyColumn);
        const std::size_t valCol = table.columnIndex(valueColumn);
        if (tsCol == std::string::npos || keyCol == std::string::npos || valCol == std::string::npos)
            return;
        std::map<std::string, CounterTrack> byKey;
        for (const auto& row : table.rows) {
            const auto ts = cellNs(row[tsCol], minTs);
            const auto v = core::cellAsDouble(row[valCol]);
            if (!ts || !v)
                continue;
            const std::string key = core::cellAsText(row[keyCol]);
            auto [it, fresh] = byKey.try_emplace(key);
            if (fresh) {
                it->second.name = trackName(row[keyCol]);
                it->second.unit = unit;
                if (const auto* id = std::get_if<std::int64_t>(&row[keyCol]); id && keyColumn == "stream")
                    it->second.stream = *id;
            }
            it->second.ts.push_back(*ts);
            // Sequential float sums leave ±1e-12 noise where a series returns to 0.
            it->second.value.push_back(std::abs(*v) < 1e-9 ? 0.0 : *v);
        }
        std::vector<CounterTrack> tracks;
        for (auto& [key, track] : byKey) {
            track.finish();
            tracks.push_back(std::move(track));
        }
        // Numeric keys (streams) in numeric order: 7 before 23.
        std::stable_sort(tracks.begin(), tracks.end(), [](const CounterTrack& a, const CounterTrack& b) {
            return a.stream != b.stream ? a.stream < b.stream : false;
        });
        for (auto& track : tracks)
            out.push_back(std::move(track));
    }

} // namespace

void CounterTrack::finish()
{
    if (!std::is_sorted(ts.begin(), ts.end())) {
        std::vector<std::size_t> order(ts.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [this](std::size_t a, std::size_t b) { return ts[a] < ts[b]; });
        std::vector<TimeNs> t2(ts.size());
        std::vector<double> v2(ts.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            t2[i] = ts[order[i]];
            v2[i] = value[order[i]];
        }
        ts = std::move(t2);
        value = std::move(v2);
    }
    minValue = 0;
    maxValue = 0;
    for (double v : value) {
        minValue = std::min(minValue, v);
        maxValue = std::max(maxValue, v);
    }
    pyramid.build(static_cast<std::uint32_t>(value.size()),
        [this](std::uint32_t i) { return MinMax { value[i], value[i] }; }, foldMinMax, MinMax {});
}

std::ptrdiff_t CounterTrack::pointAtOrBefore(TimeNs t) const
{
    const auto it = std::upper_bound(ts.begin(), ts.end(), t);
    return (it - ts.begin()) - 1;
}

CounterTrack::MinMax CounterTrack::rangeMinMax(std::uint32_t a, std::uint32_t b) const
{
    MinMax acc;
    pyramid.query(a, b, [this](std::uint32_t i) { return MinMax { value[i], value[i] }; }, foldMinMax, acc);
    return acc;
}

QString CounterTrack::formatValue(double v) const
{
    if (unit == QStringLiteral("B"))
        return v < 0 ? QStringLiteral("−") + formatBytes(static_cast<std::uint64_t>(-v))
                     : formatBytes(static_cast<std::uint64_t>(v));
    QString text = std::abs(v - std::round(v)) < 1e-9 ? QLocale().toString(static_cast<qlonglong>(std::llround(v)))
                                                      : QLocale().toString(v, 'g', 4);
    return unit.isEmpty() ? text : text + QChar(u' ') + unit;
}

CounterTracks buildTraceCounters(const core::RankTrace& rank)
{
    CounterTracks out;
    // [memory] instants: one track per device; the allocator's own total when
    // the event carries it, else the running sum of allocations.
    std::map<std::pair<int, int>, CounterTrack> memory;
    std::map<std::pair<int, int>, double> running;
    const core::MemoryEventTable& m = rank.memory;
    for (std::size_t i = 0; i < m.size(); ++i) {
        const std::pair<int, int> device { m.deviceType[i], m.deviceId[i] };
        auto [it, fresh] = memory.try_emplace(device);
        if (fresh) {
            const bool gpu = device.first >= 1;
            it->second.name = gpu ? QStringLiteral("GPU %1 memory allocated").arg(std::max(0, device.second))
                                  : QStringLiteral("Host memory allocated");
            it->second.unit = QStringLiteral("B");
            it->second.placement = gpu ? CounterTrack::Placement::Gpu : CounterTrack::Placement::Host;
        }
        double& sum = running[device];
        sum += static_cast<double>(m.bytes[i]);
        it->second.ts.push_back(m.ts[i]);
        it->second.value.push_back(m.totalAllocated[i] >= 0 ? static_cast<double>(m.totalAllocated[i]) : sum);
    }
    for (auto& [device, track] : memory) {
        track.finish();
        out.push_back(std::move(track));
    }
    for (const core::CounterSeries& series : rank.counters) {
        CounterTrack track;
        const QString name = toQString(rank.name(series.name));
        const QString key = toQString(rank.name(series.key));
        track.name = key.isEmpty() || key == name || key == QStringLiteral("value") ? name : name + QStringLiteral(" · ") + key;
        track.placement = CounterTrack::Placement::Host;
        track.ts = series.ts;
        track.value = series.value;
        track.finish();
        out.push_back(std::move(track));
    }
    return out;
}

CounterTracks buildAnalysisCounters(const core::TraceSet& set, int rankIndex)
{
    CounterTracks out;
    if (rankIndex < 0 || static_cast<std::size_t>(rankIndex) >= set.ranks.size())
        return out;
    // One rank per frame set: the frame rows of every rank at once would cost
    // 64 bytes per slice of the whole job.
    core::TraceSet one;
    one.ranks = { set.ranks[static_cast<std::size_t>(rankIndex)] };
    core::AnalysisOptions options;
    options.mode = core::AnalysisMode::Default;
    auto frames = core::buildFrames(one, options);
    if (!frames)
        return out;
    const TimeNs minTs = frames.value().minTs;
    // The outputs must outlive the table pointers into them.
    const core::AnalysisOutput queue = core::queueLengthTimeSeries(frames.value(), options);
    if (const core::Table* t = rankTable(queue)) {
        addSeries(*t, minTs, "stream", "queue_length",
            [](const core::Cell& c) -> QString { return QStringLiteral("Queue length · stream %1").arg(toQString(core::cellAsText(c))); },
            QString(), out);
    }
    const core::AnalysisOutput bandwidth = core::memoryBwTimeSeries(frames.value(), options);
    if (const core::Table* t = rankTable(bandwidth)) {
        addSeries(*t, minTs, "name", "memory_bw_gbps",
            [](const core::Cell& c) -> QString { return toQString(core::cellAsText(c)) + QStringLiteral(" bandwidth"); },
            QStringLiteral("GB/s"), out);
    }
    return out;
}

} // namespace ks::widgets
