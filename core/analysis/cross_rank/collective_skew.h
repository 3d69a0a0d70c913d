#pragma once

#include "core/analysis/cross_rank/collective_match.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"
#include "core/model/trace_set.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ks::core {

// Columns of the collective_skew table.
namespace collective_skew_columns {
    inline constexpr ColumnId kGroup { "group", "" }; // process group label
    inline constexpr ColumnId kBackend { "backend", "" }; // gpu | gloo
    inline constexpr ColumnId kName { "name", "" }; // collective name
    inline constexpr ColumnId kInstance { "instance", "" }; // Seq, or order within (group, name)
    inline constexpr ColumnId kMatchedBy { "matched_by", "" }; // group+seq | group+order | name+order
    inline constexpr ColumnId kRanks { "ranks", "" }; // members found
    inline constexpr ColumnId kFirstArrival { "first_arrival_us", "us" }; // from the job's start
    inline constexpr ColumnId kSkew { "skew_us", "us" }; // last arrival - first arrival
    inline constexpr ColumnId kLastRank { "last_rank", "" };
    inline constexpr ColumnId kTransfer { "transfer_us", "us" }; // all members inside together
    inline constexpr ColumnId kWaitShare { "wait_share_pct", "%" }; // skew / (skew + transfer)
    inline constexpr ColumnId kMessageBytes { "message_bytes", "B" }; // empty when unknown
    inline constexpr ColumnId kBusBandwidth { "bus_bw_GBps", "GB/s" }; // empty when unknown
} // namespace collective_skew_columns

struct CollectiveSkewOptions
{
    std::size_t top = 20;
    // Per rank (TraceSet order): added to that rank's times before comparing,
    // e.g. estimated clock offsets. Empty: the clocks as recorded.
    std::vector<TimeNs> clockOffsets;
};

// X2: the same collective on every member rank, matched by matchCollectives
// (process group and Seq, else order in the group, else name and order). For
// each instance: when the first and the last member arrived (the skew is time
// the early members spend waiting), which rank came last, how long all members
// were inside together (the transfer), and where the args give sizes the
// message size and bus bandwidth (NCCL-tests' factor over the last arriving
// member's time, which does not wait). Rows sorted by skew, largest first.
// The matcher's notes (fallback rule, missing members) are in CollectiveMatch::notes.
AnalysisOutput collectiveSkew(const TraceSet& traces, std::size_t top = 20);
AnalysisOutput collectiveSkew(const TraceSet& traces, const CollectiveSkewOptions& options);
AnalysisOutput collectiveSkew(
    const TraceSet& traces, const CollectiveMatch& match, const CollectiveSkewOptions& options);

// X2 over a match made elsewhere (a job summary's collective_arrivals, matched by
// matchCollectives over its rows) whose rankIndex i is rank rankNumbers[i]; first
// arrivals are reported relative to `origin` (the job's start).
AnalysisOutput collectiveSkewOf(const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers,
    TimeNs origin, const CollectiveSkewOptions& options);

// One rank's instance of a collective.
struct CollectiveArrival
{
    std::size_t rankIndex = 0; // position in the list of ranks given
    std::uint32_t slice = 0;
    TimeNs start = 0;
    TimeNs end = 0;
};

// The same collective as `slice` of ranks[rankIndex] on every member rank
// (itself included), as matchCollectives matches it; empty when the slice is
// not a collective.
std::vector<CollectiveArrival> sameCollectiveOnRanks(
    const std::vector<const RankTrace*>& ranks, std::size_t rankIndex, std::uint32_t slice);
std::vector<CollectiveArrival> sameCollectiveOnRanks(
    const CollectiveMatch& match, std::size_t rankIndex, std::uint32_t slice);

} // namespace ks::core
