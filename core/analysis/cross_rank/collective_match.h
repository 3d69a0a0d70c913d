#pragma once

// X2 groundwork: which slices on different ranks are the same collective.
//
// matchCollectives() finds every collective instance of a job and the member
// ranks' slices that took part in it. Other analyses (collective skew, clock
// offsets, the cross-rank critical path, stragglers) build on its result and
// never match by themselves.
//
// What counts as a collective slice on a rank:
//  - a communication kernel on a GPU stream (NCCL/RCCL/... by name, see
//    classifyKernelDefault), backend Gpu;
//  - a CPU slice named "gloo:<op>" (gloo's worker threads; the c10d::* op on
//    the caller thread is its caller, not a second instance), backend Gloo.
//
// How instances are matched, best rule first:
//  1. GroupSequence: Kineto's args name the process group ("Process Group
//     Name") and a sequence number ("Seq"): key (group, Seq).
//  2. GroupOrder: a group but no Seq: key (group, collective name, n), the
//     n-th instance of that collective in that group on each rank, in start order.
//  3. NameOrder: no group information at all (older traces, gloo events
//     without args): key (slice name, n), the n-th slice of that name on each
//     rank. Said in CollectiveMatch::notes so outputs can tell the user.
// Group members come from "Process Group Ranks", else from the rank's
// distributedInfo.pg_config entry of that name; a group with neither is taken
// to span the loaded ranks that have it. Only a group's members are compared.
//
// Problems never stop the match: instances missing on a member, members that
// are not in the folder, different instance counts per rank and a single-rank
// folder all become one clear line each in `notes`, and the instances that do
// match are still returned.

#include "core/model/rank_trace.h"
#include "core/model/trace_set.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ks::core {

enum class CollectiveBackend : std::uint8_t
{
    Gpu, // a communication kernel on a GPU stream (NCCL, RCCL, ...)
    Gloo, // a gloo:* slice on a CPU thread
};

std::string_view collectiveBackendName(CollectiveBackend backend); // "gpu", "gloo"

// How an instance was matched (see the header comment).
enum class CollectiveMatchRule : std::uint8_t
{
    GroupSequence,
    GroupOrder,
    NameOrder,
};

std::string_view collectiveMatchRuleName(
    CollectiveMatchRule rule); // "group+seq", "group+order", "name+order"

// Index into CollectiveMatch::groups.
using CollectiveGroupId = Id<struct CollectiveGroupTag>;

// A process group as the traces describe it. For NameOrder instances there is
// one pseudo-group per backend with an empty name spanning the loaded ranks.
struct CollectiveGroup
{
    std::string name; // "Process Group Name" ("" for the name-and-order fallback)
    std::string description; // "Process Group Description" / pg_desc, may be empty
    CollectiveBackend backend = CollectiveBackend::Gpu;
    // Member ranks (trace rank numbers, ascending). Empty when the traces do
    // not say: then the loaded ranks that have the group's collectives.
    std::vector<std::int64_t> ranks;
    std::int64_t size = 0; // "Group size" or pg_size; 0 when unknown

    // Text for tables and notes: "0 (default_pg)", "gloo (no group info)".
    std::string label() const;
};

// One rank's part in one collective instance.
struct CollectiveMember
{
    std::size_t rankIndex = 0; // position in the rank list given to matchCollectives
    std::uint32_t slice = 0; // slice of that rank
    TimeNs start = 0; // arrival, the rank's recorded clock
    TimeNs end = 0; // leaves, the rank's recorded clock
};

// One collective call, with every member rank's slice that was found.
struct CollectiveInstance
{
    CollectiveGroupId group;
    std::string name; // "Collective name" (allreduce, ...) or, for NameOrder, the slice name
    // The Seq arg for GroupSequence; else the order of this instance within
    // (group, name) on each rank, from 0.
    std::int64_t ordinal = 0;
    CollectiveMatchRule rule = CollectiveMatchRule::NameOrder;
    std::int64_t messageBytes = -1; // max(In, Out msg nelems) x dtype size; -1 when unknown
    std::vector<CollectiveMember> members; // ascending rankIndex, at most one per rank
    std::vector<std::int64_t> missingRanks; // loaded group members without this instance

    // Times on the recorded clocks (callers apply clock offsets themselves).
    TimeNs firstArrival() const;
    TimeNs lastArrival() const;
    TimeNs firstEnd() const;
    TimeNs lastEnd() const;
    std::size_t lastArrivingMember() const; // index into members
};

struct CollectiveMatch
{
    std::vector<CollectiveGroup> groups; // indexed by CollectiveGroupId
    std::vector<CollectiveInstance> instances; // in order of first arrival
    // Human-readable notes, one line each: fallback rule used, missing
    // members, counts that differ, a single rank. Bounded in number.
    std::vector<std::string> notes;
    bool usedNameOrderFallback = false;

    const CollectiveGroup& group(CollectiveGroupId id) const { return groups[id.value]; }

    // The instance holding `slice` of rank `rankIndex`, if any.
    std::optional<std::size_t> instanceOf(std::size_t rankIndex, std::uint32_t slice) const;

    // (rankIndex << 32 | slice) -> instance index; filled by matchCollectives.
    std::unordered_map<std::uint64_t, std::uint32_t> bySlice;
};

// Matches the collectives of `ranks` (one RankTrace per rank, any order; the
// member rankIndex refers to this list).
CollectiveMatch matchCollectives(const std::vector<const RankTrace*>& ranks);
CollectiveMatch matchCollectives(const TraceSet& traces);

// Bytes of one element of a Kineto "dtype" arg ("Float" 4, "BFloat16" 2, ...); 0 when unknown.
std::int64_t dtypeBytes(std::string_view dtype);

// NCCL-tests' bus bandwidth factor for n ranks: allreduce 2(n-1)/n; allgather,
// reduce_scatter, alltoall (n-1)/n; others 1.
double busBandwidthFactor(std::string_view collectiveName, std::size_t ranks);

} // namespace ks::core
