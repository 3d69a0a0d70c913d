#include "widgets/timeline/model/counter_track.h"

#include "core/analysis/hta/counter_series.h"
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

    void addReservedPoint(std::map<std::pair<int, int>, CounterTrack>& reserved, std::pair<int, int> device,
        TimeNs ts, std::int64_t value)
    {
        auto [it, fresh] = reserved.try_emplace(device);
        CounterTrack& track = it->second;
        if (fresh) {
            const bool gpu = device.first >= 1;
            track.name = gpu ? QStringLiteral("GPU %1 memory reserved").arg(std::max(0, device.second))
                             : QStringLiteral("Host memory reserved");
            track.unit = QStringLiteral("B");
            track.placement = gpu ? CounterTrack::Placement::Gpu : CounterTrack::Placement::Host;
        }
        track.ts.push_back(ts);
        track.value.push_back(static_cast<double>(value));
        track.maxValue = std::max(track.maxValue, static_cast<double>(value));
    }

} // namespace

void CounterTrack::finish()
{
    if (!std::is_sorted(ts.begin(), ts.end())) {
        std::vector<std::size_t> order(ts.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(
            order.begin(), order.end(), [this](std::size_t a, std::size_t b) { return ts[a] < ts[b]; });
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
    pyramid.build(
        static_cast<std::uint32_t>(value.size()),
        [this](std::uint32_t i) {
            return MinMax { value[i], value[i] };
        },
        foldMinMax, MinMax {});
}

std::ptrdiff_t CounterTrack::pointAtOrBefore(TimeNs t) const
{
    const auto it = std::upper_bound(ts.begin(), ts.end(), t);
    return (it - ts.begin()) - 1;
}

CounterTrack::MinMax CounterTrack::rangeMinMax(std::uint32_t a, std::uint32_t b) const
{
    MinMax acc;
    pyramid.query(
        a, b,
        [this](std::uint32_t i) {
            return MinMax { value[i], value[i] };
        },
        foldMinMax, acc);
    return acc;
}

QString CounterTrack::formatValue(double v) const
{
    if (std::isnan(v)) // a stretch without a sample (est. SM efficiency of kernels without the args)
        return QStringLiteral("no data");
    if (unit == QStringLiteral("B"))
        return v < 0 ? QStringLiteral("−") + formatBytes(static_cast<std::uint64_t>(-v))
                     : formatBytes(static_cast<std::uint64_t>(v));
    QString text = std::abs(v - std::round(v)) < 1e-9
        ? QLocale().toString(static_cast<qlonglong>(std::llround(v)))
        : QLocale().toString(v, 'g', 4);
    return unit.isEmpty() ? text : text + QChar(u' ') + unit;
}

CounterTracks buildTraceCounters(const core::RankTrace& rank)
{
    CounterTracks out;
    // [memory] instants: one track per device; the allocator's own total when
    // the event carries it, else the running sum of allocations. Then, per
    // device whose events carry `Total Reserved`, the caching allocator's
    // reserved total as a track of its own right under it: reserved far above
    // allocated is memory the cache holds but no tensor uses.
    std::map<std::pair<int, int>, CounterTrack> memory;
    std::map<std::pair<int, int>, CounterTrack> reserved;
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
        if (i < m.totalReserved.size() && m.totalReserved[i] >= 0)
            addReservedPoint(reserved, device, m.ts[i], m.totalReserved[i]);
    }
    for (auto& [device, track] : memory) {
        track.finish();
        out.push_back(std::move(track));
        const auto r = reserved.find(device);
        // A reserved total that never leaves 0 (the CPU allocator caches nothing) says nothing.
        if (r != reserved.end() && r->second.maxValue > 0) {
            r->second.finish();
            out.push_back(std::move(r->second));
        }
    }
    for (const core::CounterSeries& series : rank.counters) {
        CounterTrack track;
        const QString name = toQString(rank.name(series.name));
        const QString key = toQString(rank.name(series.key));
        track.name = key.isEmpty() || key == name || key == QStringLiteral("value")
            ? name
            : name + QStringLiteral(" · ") + key;
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
    const core::RankTrace& rank = *set.ranks[static_cast<std::size_t>(rankIndex)];
    auto add = [&out](core::StepSeries&& series, QString name, QString unit) {
        CounterTrack track;
        track.name = std::move(name);
        track.unit = std::move(unit);
        track.stream = series.stream;
        track.ts = std::move(series.ts);
        track.value = std::move(series.value);
        // Float sums leave ±1e-12 noise where a series returns to 0.
        for (double& v : track.value)
            v = std::abs(v) < 1e-9 ? 0.0 : v;
        track.finish();
        out.push_back(std::move(track));
    };
    for (core::StepSeries& s : core::queueLengthSeries(rank)) {
        const QString name = QStringLiteral("Queue length · stream %1").arg(s.stream);
        add(std::move(s), name, QString());
    }
    for (core::StepSeries& s : core::memoryBandwidthSeries(rank)) {
        const QString name = toQString(s.name) + QStringLiteral(" bandwidth");
        s.stream = -1;
        add(std::move(s), name, QStringLiteral("GB/s"));
    }
    // Per stream: drawn right under it, after the queue length. Per GPU (where several of its
    // streams carry the arg): after the streams, with the other GPU counters.
    core::SmEfficiencySeries efficiency = core::smEfficiencySeries(rank);
    for (core::StepSeries& s : efficiency.perStream) {
        const QString name = QStringLiteral("Est. SM efficiency · stream %1").arg(s.stream);
        add(std::move(s), name, QStringLiteral("%"));
    }
    for (core::StepSeries& s : efficiency.perDevice) {
        const QString name = QStringLiteral("GPU %1 est. SM efficiency").arg(toQString(s.name));
        add(std::move(s), name, QStringLiteral("%"));
    }
    return out;
}

} // namespace ks::widgets
