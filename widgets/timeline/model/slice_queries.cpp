#include "widgets/timeline/model/slice_queries.h"

#include "core/analysis/cross_rank/collective_match.h"
#include "core/io/json/args_reader.h"
#include "core/model/rank_trace.h"
#include "widgets/common/format.h"
#include "widgets/timeline/model/collective_spans.h"
#include "widgets/timeline/model/kernel_context.h"
#include "widgets/timeline/model/timeline_data.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace ks::widgets {

std::optional<std::uint32_t> hitTestLevel(
    const core::RankTrace& trace, std::uint32_t track, std::uint32_t level, TimeNs t, TimeNs toleranceNs)
{
    if (track >= trace.tracks.size() || level >= trace.tracks[track].levelCount())
        return std::nullopt;
    const core::Track& tr = trace.tracks[track];
    const std::uint32_t begin = tr.levelBegin[level];
    const std::uint32_t end = tr.levelBegin[level + 1];
    const std::uint32_t j = trace.firstEndingAtOrAfter(tr, level, t);
    if (j < end && trace.slices.start[j] <= t)
        return j; // contains t
    std::optional<std::uint32_t> best;
    TimeNs bestDistance = toleranceNs + 1;
    if (j > begin && t - trace.slices.end(j - 1) < bestDistance) {
        best = j - 1;
        bestDistance = t - trace.slices.end(j - 1);
    }
    if (j < end && trace.slices.start[j] - t < bestDistance)
        best = j;
    return best;
}

std::vector<FlowLink> flowLinksOf(const TimelineData& data, SliceRef ref)
{
    std::vector<FlowLink> out;
    if (!ref.valid() || ref.rank >= data.rankCount())
        return out;
    const core::RankTrace& t = data.trace(ref.rank);
    if (ref.slice >= t.slices.size())
        return out;
    for (std::uint32_t row : t.linksFrom(ref.slice))
        out.push_back({ ref, { ref.rank, t.links.to[row] }, t.links.kind[row] });
    for (std::uint32_t row : t.linksTo(ref.slice))
        out.push_back({ { ref.rank, t.links.from[row] }, ref, t.links.kind[row] });
    return out;
}

SliceRef linkedSlice(const TimelineData& data, SliceRef ref, bool outgoing)
{
    for (const FlowLink& link : flowLinksOf(data, ref)) {
        if (outgoing && link.from == ref)
            return link.to;
        if (!outgoing && link.to == ref)
            return link.from;
    }
    return {};
}

std::vector<FlowLink> launchLinksInRange(const TimelineData& data, int rank, TimeRange raw, std::size_t limit)
{
    std::vector<FlowLink> out;
    const core::RankTrace& t = data.trace(rank);
    for (std::uint32_t track = 0; track < t.tracks.size() && out.size() < limit; ++track) {
        // Links end on GPU streams (launches) and on RPC node threads (remote ops).
        if (t.tracks[track].kind != core::TrackKind::GpuStream && t.tracks[track].rpcNode < 0)
            continue;
        t.forEachSliceInRange(core::TrackId(track), raw.start, raw.end, [&](std::uint32_t s) {
            if (out.size() >= limit)
                return;
            for (std::uint32_t row : t.linksTo(s)) {
                const core::LinkKind kind = t.links.kind[row];
                if (kind == core::LinkKind::LaunchFlow || kind == core::LinkKind::LaunchCorrelation
                    || kind == core::LinkKind::RpcCall)
                    out.push_back({ { rank, t.links.from[row] }, { rank, s }, kind });
            }
        });
    }
    return out;
}

std::vector<std::uint32_t> parentSlices(const core::RankTrace& trace, std::uint32_t slice)
{
    std::vector<std::uint32_t> parents;
    const core::TrackId id = trace.trackOf(slice);
    if (!id.valid())
        return parents;
    const core::Track& tr = trace.tracks[id.value];
    const std::uint32_t level = trace.levelOf(slice);
    if (level >= tr.nestingLevels)
        return parents; // an extra lane: no nesting
    const TimeNs start = trace.slices.start[slice];
    const TimeNs end = trace.slices.end(slice);
    for (std::uint32_t l = 0; l < level; ++l) {
        const std::uint32_t i = trace.firstEndingAtOrAfter(tr, l, end);
        if (i < tr.levelBegin[l + 1] && trace.slices.start[i] <= start)
            parents.push_back(i);
    }
    return parents;
}

namespace {

    SliceDetails::Related related(
        const TimelineData& data, SliceRef ref, const Alignment& alignment, const QString& role)
    {
        const core::RankTrace& t = data.trace(ref.rank);
        SliceDetails::Related r;
        r.ref = ref;
        r.role = role;
        r.name = toQString(t.sliceName(ref.slice));
        const core::TrackId track = t.trackOf(ref.slice);
        r.track = track.valid() ? data.rank(ref.rank).trackNames[track.value] : QString();
        r.start = t.slices.start[ref.slice] - data.offset(ref.rank, alignment) - data.traceStart;
        r.duration = t.slices.duration(ref.slice);
        return r;
    }

    QString linkRole(const FlowLink& link, SliceRef self)
    {
        const bool outgoing = link.from == self;
        switch (link.kind) {
        case core::LinkKind::LaunchFlow:
        case core::LinkKind::LaunchCorrelation:
            return outgoing ? QStringLiteral("GPU work") : QStringLiteral("Launched by");
        case core::LinkKind::ForwardBackward:
            return outgoing ? QStringLiteral("Backward") : QStringLiteral("Forward");
        case core::LinkKind::RpcCall:
            return outgoing ? QStringLiteral("Remote op") : QStringLiteral("RPC call");
        case core::LinkKind::OtherFlow:
            break;
        }
        return outgoing ? QStringLiteral("Flow to") : QStringLiteral("Flow from");
    }

    QString jsonValueText(const QJsonValue& v)
    {
        if (v.isString())
            return v.toString();
        if (v.isDouble()) {
            const double d = v.toDouble();
            return d == static_cast<double>(static_cast<qint64>(d)) ? QString::number(static_cast<qint64>(d))
                                                                    : QString::number(d, 'g', 12);
        }
        if (v.isBool())
            return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        if (v.isNull())
            return QStringLiteral("null");
        const QJsonDocument doc = v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject());
        return QString::fromUtf8(doc.toJson(QJsonDocument::Compact));
    }

    // The args; a CUPTI range's numeric ones are its counters too.
    void decodeArgs(const core::RankTrace& t, std::uint32_t slice, SliceDetails& d)
    {
        // Re-read from the file: a file changed since loading says so instead of showing another event's
        // args.
        const auto text = core::sliceArgs(t, slice);
        if (!text) {
            d.argsError = QString::fromStdString(text.error().message);
            return;
        }
        const std::string& raw = text.value();
        if (raw.empty())
            return;
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(raw));
        if (!doc.isObject()) {
            d.args.append({ QStringLiteral("(raw)"), QString::fromStdString(raw) });
            return;
        }
        const QJsonObject obj = doc.object();
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            d.args.append({ it.key(), jsonValueText(it.value()) });
            if (d.counterRange && it.value().isDouble())
                d.counters.append({ it.key(), it.value().toDouble() });
        }
    }

    void addNotes(std::uint8_t flags, SliceDetails& d)
    {
        if (flags & core::kSliceFromBeginEnd)
            d.notes.append(QStringLiteral("built from a B/E pair"));
        if (flags & core::kSliceUnclosed)
            d.notes.append(QStringLiteral("B without E: closed at the rank's last timestamp"));
        if (flags & core::kSliceOverflowLane)
            d.notes.append(QStringLiteral("overlaps a sibling without nesting: drawn on an extra lane"));
        if (flags & core::kSliceNegativeDuration)
            d.notes.append(QStringLiteral("negative duration in the file, shown as 0"));
        if (flags & core::kSliceMissingDuration)
            d.notes.append(QStringLiteral("no duration in the file, shown as 0"));
    }

} // namespace

namespace {

    // X2: a collective shows its instance on every member rank (matched by
    // process group, see core/analysis/cross_rank/collective_match.h) and who waited how long.
    void addCollective(const TimelineData& data, SliceRef ref, const Alignment& alignment, SliceDetails& d)
    {
        const std::vector<CollectiveSpan> spans = collectiveSpans(data, ref, alignment);
        if (spans.empty())
            return;
        const core::CollectiveInstance& inst =
            data.collectives
                ->instances[*data.collectives->instanceOf(static_cast<std::size_t>(ref.rank), ref.slice)];
        const CollectiveSpan* last = &spans.front();
        TimeNs firstArrival = spans.front().wait.start;
        TimeNs firstEnd = spans.front().transfer.end;
        for (const CollectiveSpan& s : spans) {
            firstArrival = std::min(firstArrival, s.wait.start);
            firstEnd = std::min(firstEnd, s.transfer.end);
            if (s.last)
                last = &s;
            const QString waited = s.last ? QStringLiteral("arrived last")
                                          : QStringLiteral("waited %1").arg(formatDuration(s.wait.span()));
            d.collective.append(
                related(data, s.ref, alignment, data.rank(s.ref.rank).label + QStringLiteral(" ") + waited));
        }
        const core::CollectiveGroup& group = data.collectives->group(inst.group);
        QString summary =
            QStringLiteral("%1 #%2 in group %3 (%4) · %5 ranks")
                .arg(toQString(inst.name))
                .arg(inst.ordinal)
                .arg(toQString(group.label()), toQString(core::collectiveMatchRuleName(inst.rule)))
                .arg(spans.size());
        if (!inst.missingRanks.empty())
            summary += QStringLiteral(" (%1 missing)").arg(inst.missingRanks.size());
        summary += QStringLiteral(" · skew %1 (waiting for %2) · all inside together %3")
                       .arg(formatDuration(last->wait.end - firstArrival), data.rank(last->ref.rank).label,
                           formatDuration(std::max<TimeNs>(0, firstEnd - last->wait.end)));
        if (inst.messageBytes >= 0)
            summary += QStringLiteral(" · %1 bytes").arg(inst.messageBytes);
        d.collectiveSummary = summary;
    }

} // namespace

SliceDetails describeSlice(const TimelineData& data, SliceRef ref, const Alignment& alignment)
{
    SliceDetails d;
    if (!ref.valid() || ref.rank >= data.rankCount() || ref.slice >= data.trace(ref.rank).slices.size())
        return d;
    const RankTimeline& rt = data.rank(ref.rank);
    const core::RankTrace& t = *rt.trace;
    d.ref = ref;
    d.name = toQString(t.sliceName(ref.slice));
    d.category = toQString(t.sliceCategory(ref.slice));
    d.kind = sliceKindName(static_cast<SliceKind>(rt.sliceKind[ref.slice]));
    d.rank = rt.label;
    d.file = QString::fromStdString(t.path);
    const core::TrackId track = t.trackOf(ref.slice);
    d.track = track.valid() ? rt.trackNames[track.value] : QString();
    d.level = t.levelOf(ref.slice);
    d.absoluteStart = t.slices.start[ref.slice];
    d.start = d.absoluteStart - data.offset(ref.rank, alignment) - data.traceStart;
    d.duration = t.slices.duration(ref.slice);
    d.eventIndex = t.slices.eventIndex[ref.slice];
    addNotes(t.slices.flags[ref.slice], d);
    const KernelContext kernel = kernelContext(data, ref);
    d.gpuWork = kernel.gpuWork;
    d.counterRange = kernel.counterRange;
    d.rankHasAnnotations = hasUserAnnotations(t);
    if (kernel.gpuAnnotation.valid())
        d.annotations.append(
            related(data, kernel.gpuAnnotation, alignment, QStringLiteral("GPU annotation")));
    if (kernel.cpuAnnotation.valid())
        d.annotations.append(
            related(data, kernel.cpuAnnotation, alignment, QStringLiteral("CPU annotation")));
    if (kernel.counterRange && kernel.launch.valid())
        d.counterLaunch.append(related(data, kernel.launch, alignment, QStringLiteral("Launched by")));
    for (const std::string& op : kernel.opStack)
        d.opStack += (d.opStack.isEmpty() ? QString() : QStringLiteral(" > ")) + toQString(op);
    decodeArgs(t, ref.slice, d);
    for (const FlowLink& link : flowLinksOf(data, ref)) {
        const SliceRef other = link.from == ref ? link.to : link.from;
        d.links.append(related(data, other, alignment, linkRole(link, ref)));
    }
    for (std::uint32_t p : parentSlices(t, ref.slice))
        d.parents.append(related(data, { ref.rank, p }, alignment, QStringLiteral("Parent")));
    addCollective(data, ref, alignment, d);
    return d;
}

SliceRef sliceOfEvent(const TimelineData& data, int rank, std::int64_t eventIndex)
{
    if (rank < 0 || rank >= data.rankCount() || eventIndex < 0)
        return {};
    const auto& idx = data.trace(rank).slices.eventIndex;
    // Slices are stored per track and level, not in file order: a scan, on a click only.
    const auto it = std::find(idx.begin(), idx.end(), static_cast<std::uint32_t>(eventIndex));
    return it == idx.end() ? SliceRef {} : SliceRef { rank, static_cast<std::uint32_t>(it - idx.begin()) };
}

} // namespace ks::widgets
