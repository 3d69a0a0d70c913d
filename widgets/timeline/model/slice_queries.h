#pragma once

#include "core/model/event_tables.h"
#include "widgets/timeline/model/timeline_types.h"

#include <QList>
#include <QPair>
#include <QString>

#include <optional>
#include <vector>

namespace ks::core {
class RankTrace;
}

namespace ks::widgets {

class TimelineData;

// The slice of one level at time t: the one containing t, else the nearest
// within `toleranceNs`. O(log n): levels are sorted and never overlap.
std::optional<std::uint32_t> hitTestLevel(
    const core::RankTrace& trace, std::uint32_t track, std::uint32_t level, TimeNs t, TimeNs toleranceNs);

// A flow between two slices of one rank (T4).
struct FlowLink
{
    SliceRef from; // the CPU launch (or forward op)
    SliceRef to; // the GPU work (or backward op)
    core::LinkKind kind = core::LinkKind::LaunchFlow;
};

// Links touching a slice, both directions.
std::vector<FlowLink> flowLinksOf(const TimelineData& data, SliceRef ref);
// `]` follows a slice's outgoing link (launch -> kernel), `[` its incoming one
// (kernel -> launch). Invalid when there is none.
SliceRef linkedSlice(const TimelineData& data, SliceRef ref, bool outgoing);
// Launch links whose GPU end lies in the raw range of a rank (for "all flows in
// view"), at most `limit`.
std::vector<FlowLink> launchLinksInRange(
    const TimelineData& data, int rank, TimeRange raw, std::size_t limit);

// The slices enclosing a CPU slice, outermost first (its call stack).
std::vector<std::uint32_t> parentSlices(const core::RankTrace& trace, std::uint32_t slice);

// What the details panel shows of a slice (T5).
struct SliceDetails
{
    struct Related
    {
        SliceRef ref;
        QString role; // "GPU work", "Launched by", "Parent", "Backward", ...
        QString name;
        QString track;
        TimeNs start = 0; // relative to the trace start, display time
        TimeNs duration = 0;
    };

    SliceRef ref;
    QString name;
    QString category;
    QString kind; // slice kind (Compute, CPU op, ...)
    QString rank; // "Rank 1"
    QString track; // "stream 7" / "thread 1234 (python)"
    QString file;
    std::uint32_t level = 0;
    TimeNs start = 0; // relative to the trace start, display time
    TimeNs absoluteStart = 0; // as recorded, ns
    TimeNs duration = 0;
    std::int64_t eventIndex = -1;
    QStringList notes; // "unclosed B", "moved to an extra lane", ...
    // X2: the same collective on every rank (role "Rank N"), and what its
    // arrivals say: skew, the rank the others waited for, shared transfer time.
    QList<Related> collective;
    QString collectiveSummary;
    QList<QPair<QString, QString>> args; // decoded args, in key order
    // Why the args could not be re-read from the file ("the file changed since it
    // was opened ..."); empty when they were (or the slice has none).
    QString argsError;
    QList<Related> links;
    QList<Related> parents; // outermost first
    // GPU work (kernel_context.h): the user annotations it ran under, roles
    // "GPU annotation" (on its stream) and "CPU annotation" (around its launch).
    bool gpuWork = false;
    bool rankHasAnnotations = false;
    QList<Related> annotations;
    // A CUPTI range (cuda_profiler_range): its counters (the numeric args, in key order),
    // the launch they are paired with (§19) and that launch's cpu_op stack.
    bool counterRange = false;
    QList<QPair<QString, double>> counters;
    QList<Related> counterLaunch;
    QString opStack; // "aten::linear > aten::mm"
};

SliceDetails describeSlice(const TimelineData& data, SliceRef ref, const Alignment& alignment);

// The slice of a rank with the given traceEvents index (for a diagnostics
// example); invalid when no slice has it.
SliceRef sliceOfEvent(const TimelineData& data, int rank, std::int64_t eventIndex);

} // namespace ks::widgets
