#pragma once

// Small helpers the rules share: number formatting for evidence, a finding's
// skeleton, and "where" lists built from path segments or frame rows.

#include "core/analysis/frame/intervals.h"
#include "core/insights/rule.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

std::string formatMs(TimeNs ns); // "12.35 ms"
std::string formatPct(double pct); // "12.3 %"
std::string formatFactor(double factor); // "2x", "1.5x"

// A finding of `rule` on the given ranks with its gain (severity from the gain).
Finding newFinding(const RuleInfo& rule, std::string title, double gainPct, std::vector<std::int64_t> ranks);

// The rank's path segments `keep` accepts, longest first, as events and ranges (capped).
RankWhere pathWhere(
    InsightsContext& context, std::int64_t rank, const std::function<bool(const PathSegment&)>& keep);

// Intervals of the rank's frame times as its ranges, in their order (capped).
RankWhere intervalsWhere(InsightsContext& context, std::int64_t rank, const std::vector<Interval>& intervals);

// Frame rows as events and ranges, longest first (capped).
RankWhere rowsWhere(InsightsContext& context, std::int64_t rank, std::vector<const FrameRow*> rows);

// The ProfilerStep numbers of the rows (ascending, without duplicates).
std::vector<std::int64_t> iterationsOf(const std::vector<const FrameRow*>& rows);

// The rank rules' single rank (their context holds one).
const RankFrame& onlyRank(InsightsContext& context);

inline constexpr std::string_view kNoGpu = "no GPU work on this rank";

// collective_skew's model and suggestion, on a folder and from a summary alike. Its gain
// (first to last arrival) is what every late member arriving with the first gives back:
// all the late ranks fixed, not only the latest (which gives back its lead over the
// next-latest, the straggler finding's gain).
inline constexpr const char* kSkewModel =
    "model: every member arrives with the first (all the late ranks fixed), so no collective waits: the "
    "gain is the time between the first and the last arrival; fixing only the latest rank gives back its "
    "lead over the next-latest member (the straggler finding), and the two are not added";
inline constexpr const char* kSkewSuggestion =
    "The gain assumes every rank arrives with the first: align the work before the collective on all the "
    "late ranks, not only the latest (balanced data, no per-rank host work such as logging or "
    "checkpointing on one rank); the straggler finding and the collectives command say which ranks come "
    "late and what fixing the latest alone gives back.";

// True when the rank ran anything on a GPU.
bool hasDeviceWork(const RankFrame& frame);

// A row's index in its frame (what WhatIfRankEdits::rows keys on).
std::uint32_t rowIndexOf(const RankFrame& frame, const FrameRow& row);

// Every row of `rows` scaled by `factor` on `rank`: a fix that makes particular events
// (kernels, calls) faster, re-timed on the critical path.
WhatIfRankEdits scaledRows(
    std::int64_t rank, const RankFrame& frame, const std::vector<const FrameRow*>& rows, double factor);

// Sorts the edits' windows by start, the order WhatIfRankEdits::windows keeps (a rule
// adds them per bound or per stretch).
void sortWindowsByStart(WhatIfRankEdits& edits);

// A stretch where the GPU idled after a host wait (a sync, a blocking copy) and how
// long the host waited in the calls before it.
struct WaitedStretch
{
    Interval idle;
    TimeNs wait = 0;
};

// The rank's host pieces on the critical path (CPU, launch overhead, kernel gap) by
// start, with the path time before each: what a closing edit's window scales.
struct HostPathPieces
{
    std::vector<Interval> pieces;
    std::vector<TimeNs> before; // path time of pieces[0..i)
};

HostPathPieces hostPathPieces(InsightsContext& context, std::int64_t rank);

// The host not waiting (the sync removed, the call made asynchronous, the GPU fed ahead):
// it issues the next work while the GPU runs, so each idle stretch closes by as much as
// the host waited before it and no more than the path's time in it (a host slower than
// the GPU still leaves the rest); overlapping stretches merge, their waits added.
// `closable` gets the path time they close. The edits scale the host pieces of the path
// that keep the GPU idle. An edit window scales the edges that start inside it, and
// that host work often starts before the GPU runs dry (the rest of a sync call, Python
// begun while the GPU drained its queue): each window reaches back to the start of the
// host piece that runs into its stretch, and its factor takes what closes off the path
// time of the host pieces starting inside it.
WhatIfRankEdits closingEdits(InsightsContext& context, std::int64_t rank, const HostPathPieces& host,
    std::vector<WaitedStretch> stretches, TimeNs& closable);

// The same with the rank's host pieces built here (a rule that closes one set of stretches).
WhatIfRankEdits closingEdits(
    InsightsContext& context, std::int64_t rank, std::vector<WaitedStretch> stretches, TimeNs& closable);

// Why the context has no critical path ("no critical path: ..."), nullopt when it has one.
std::optional<std::string> pathMissing(InsightsContext& context);

// GPU work rows of a rank sorted by start, for "what runs next on the GPU" and
// "when did it last work", each answered in log time (rules ask once per host call).
class DeviceRowsByStart
{
public:
    explicit DeviceRowsByStart(const RankFrame& frame);

    // The first device row starting at or after `t`, nullptr when none.
    const FrameRow* nextAt(TimeNs t) const;

    // The latest end of a device row starting before `t` (the GPU's last work before it), or `t` when none.
    TimeNs lastEndBefore(TimeNs t) const;

private:
    std::vector<const FrameRow*> m_rows;
    std::vector<TimeNs> m_reach; // the latest end of m_rows[0..i]
};

// The outermost CPU operator (category cpu_op) enclosing a slice on its thread, "" when none.
std::string enclosingOperator(const RankFrame& frame, const FrameRow& row);

} // namespace ks::core
