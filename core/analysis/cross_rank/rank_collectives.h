#pragma once

// One rank's collectives as matchCollectives reads them, apart from the rank's
// events: what a job summary stores per rank (core/summary/, the
// collective_arrivals and collective_groups tables), so a summary's instances
// are matched by the same code as a folder's and give the same answers.

#include "core/analysis/cross_rank/collective_match.h"
#include "core/model/rank_metadata.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ks::core {

// One collective slice of a rank (collectiveSlicesOf's order) and what its args say.
struct RankCollectiveSlice
{
    CollectiveBackend backend = CollectiveBackend::Gpu;
    std::uint32_t slice = 0; // slice of the rank; in a summary, the row's position on its rank
    std::string name; // "Collective name", else the slice name
    std::string group; // "Process Group Name"; empty when absent
    std::int64_t groupSize = 0; // "Group size"; 0 when absent
    std::int64_t sequence = -1; // "Seq"; -1 when absent
    std::int64_t messageBytes = -1; // -1 when unknown
    TimeNs start = 0;
    TimeNs end = 0;
    // What a job summary keeps for exposed_communication (the folder's rule reads
    // the path instead; rankCollectives leaves them): the part of [start, end) the
    // rank's own compute covered (core/insights/rank_compute.h) and the slice's
    // iteration, -1 when none.
    TimeNs computeBeside = 0;
    std::int64_t iteration = -1;
};

// What the args of a rank's first slice in a group say of the group.
struct RankGroupArgs
{
    CollectiveBackend backend = CollectiveBackend::Gpu;
    std::string group;
    std::vector<std::int64_t> ranks; // "Process Group Ranks"; empty when absent
    std::string description; // "Process Group Description"
};

struct RankCollectives
{
    std::int64_t rank = 0;
    std::vector<RankCollectiveSlice> slices;
    std::vector<RankGroupArgs> groups; // one per named (backend, group) of `slices`, first seen first
    // distributedInfo.pg_config: where no args list a group's members. A summary keeps
    // only the entries of groups its rank's slices name.
    std::vector<ProcessGroupConfig> processGroups;
};

// Reads a rank's collective slices, their args and its pg_config.
RankCollectives rankCollectives(const RankTrace& trace);

// matchCollectives over ranks read before (a folder's, or a summary's rows); the
// members' rankIndex refers to this list. matchCollectives(traces) is this over
// rankCollectives of each trace.
CollectiveMatch matchCollectives(const std::vector<RankCollectives>& ranks);

} // namespace ks::core
