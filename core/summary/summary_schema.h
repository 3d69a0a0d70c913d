#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// Version of the .kssum layout (docs/summary_schema.md). Readers refuse any
// other version: a newer writer may have changed a table's meaning, an older one
// lacks tables the job answers need. 2: collective_arrivals and collective_groups.
constexpr int kSummarySchemaVersion = 3;

// One table of a summary: its name and columns in order (SQL types included).
struct SummaryTable
{
    std::string_view name;
    std::vector<std::string_view> columns; // "rank INTEGER", ...
};

// The tables every summary holds, in creation order (meta first).
const std::vector<SummaryTable>& summaryTables();

// CREATE TABLE statements for all of them, plus the writer's scratch table.
std::string summarySchemaSql();

// Each rank's utilisation summed over its GPU streams, one blob per rank
// (rank_profile.h). Added within version 1: readers of a file without it
// rebuild the same numbers from stream_utilisation.
constexpr std::string_view kRankProfilesTable = "rank_profiles";

// The rank rules' findings of each rank (core/summary/summary_insights.h), plus
// one row per rank with an empty rule holding the time its gains are shares of.
// Added within version 1: a summary without it answers `insights` with "written
// before job summaries stored insights". Its last column, `subject` (what a
// finding is about when a rule has several per rank), was added later within
// version 1: a reader of a file without it merges per rule only.
constexpr std::string_view kFindingsTable = "findings";

// Every rank's collective slices as matchCollectives reads them, with each
// member's wait derived when the summary is finished; and what the ranks say of
// their process groups (version 2).
constexpr std::string_view kCollectiveArrivalsTable = "collective_arrivals";
constexpr std::string_view kCollectiveGroupsTable = "collective_groups";

// Each rank's memory analysis in brief (core/summary/summary_memory.h): per device
// the peak, per ProfilerStep the allocated memory at its start and end, the
// operators with the largest self allocation size. Added within version 2: a
// summary without them holds no memory data (readers say so once).
constexpr std::string_view kMemoryPeaksTable = "memory_peaks";
constexpr std::string_view kMemoryStepsTable = "memory_steps";
constexpr std::string_view kMemoryTopOpsTable = "memory_top_ops";

// Rows per rank and GPU stream before the job's bin width is known: each rank
// bins at its own power-of-two width; the writer coarsens them when it finishes.
constexpr std::string_view kUtilisationScratchTable = "utilisation_scratch";

} // namespace ks::core
