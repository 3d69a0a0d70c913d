#pragma once

#include "core/analysis/cross_rank/arrival_stragglers.h"
#include "core/analysis/tables/hta_result.h"
#include "core/analysis/tables/table.h"
#include "core/common/result.h"
#include "core/summary/summary_collectives.h"
#include "core/summary/summary_memory.h"
#include "core/summary/summary_reader.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ks::core {

// One file of the job as its summary lists it.
struct JobRank
{
    std::int64_t rank = 0;
    std::int64_t fileIndex = 0;
    std::string file;
    std::string status; // "ok", "failed", "skipped"
    std::string error; // the one-line load error when not ok
    std::int64_t sizeBytes = 0;
    std::int64_t events = 0;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;

    bool ok() const { return status == "ok"; }
};

// Share of one bin's time a rank's GPU spent on each kind of work (the
// streams summed, so it may exceed 1 where streams overlap):
// computation, communication, memory, other.
using KindShares = std::array<float, 4>;

// Every rank's GPU work over the job's bins, one row per JobOverview::ranks
// entry (all zero for a rank that did not load or had no GPU work).
struct JobProfiles
{
    std::int64_t binWidthNs = 1;
    std::int64_t binOriginNs = 0;
    std::size_t bins = 0; // bins covering the job's span
    std::vector<std::int64_t> streams; // GPU streams of each rank
    std::vector<KindShares> shares; // ranks × bins, row-major

    std::span<const KindShares> row(std::size_t rankRow) const
    {
        return { shares.data() + rankRow * bins, bins };
    }
};

// What job mode shows of a job, read from its summary alone.
struct JobOverview
{
    std::string path;
    SummaryMeta meta;
    std::vector<JobRank> ranks; // every file, by rank then file
    JobProfiles profiles;
    Table rankOverview; // X1: rank_iterations with rankOverview()'s columns
    AnalysisOutput collectiveSkew; // X2 from the collective_arrivals table, as on the folder
    SummaryCollectives collectives; // every rank's collectives, matched as on the folder
    ArrivalSummary arrivals; // who arrived last at them and who waited (arrival_stragglers.h)
    SummaryMemory memory; // each rank's memory peaks, growth per step, top operators (stored = false: none)

    std::int64_t startNs() const { return profiles.binOriginNs; }

    std::int64_t endNs() const
    {
        return profiles.binOriginNs + static_cast<std::int64_t>(profiles.bins) * profiles.binWidthNs;
    }
};

// Opens a summary (refused as openSummary refuses it) and reads what job mode
// needs. Profiles come from rank_profiles, one blob per rank; summaries written
// before that table existed are summed from stream_utilisation instead.
Result<JobOverview> readJobOverview(const std::string& path, std::size_t skewTop = 20);

// Rows (JobOverview::ranks order) whose GPU compute time over the job is more
// than `factor` times the median rank's (ordinary spread stays below 1.4 on a
// 1000-rank synthetic job; a rank slowed down twice sits at 2): the ranks job mode marks as
// stragglers. A slow rank computes longer and waits less, so its total busy
// time hardly differs from the others' (X1's flag misses it); its compute does.
std::vector<std::size_t> computeOutlierRows(const JobProfiles& profiles, double factor = 1.5);

} // namespace ks::core
