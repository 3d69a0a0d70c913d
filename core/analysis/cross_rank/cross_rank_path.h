#pragma once

// X3: the job's critical path across ranks.
//
// Each rank's event graph (A8) is condensed to what the join needs: for every
// blocking collective the rank took part in, its arrival and its end, and the
// longest paths inside the rank between them ("condensed edges", from the rank's
// start or a collective's end to a later collective's arrival or the rank's
// end). joinCondensedRanks() then links the ranks: a blocking collective ends on
// every member when its last member arrives, so each member's arrival has an
// edge to every member's end, weighted by the transfer. Instead of m^2 edges
// per collective the join routes them through one node per collective (arrival
// -> join: 0, join -> end: transfer), which gives the same longest paths.
//
// Times on one rank are on its recorded clock; the join never compares clocks
// of two ranks. The transfer of a collective is the shortest member's duration
// (the last member to arrive barely waits), so unaligned clocks (gloo traces
// count from each process's start) do not matter.

#include "core/analysis/cross_rank/path_name.h"
#include "core/model/event_tables.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ks::core {

// Where the time on the path goes.
enum class PathBound : std::uint8_t
{
    Cpu,
    GpuCompute,
    GpuCommWait, // a communication kernel the join could not match: its whole duration
    Transfer, // a matched collective once its last member arrived
    LaunchOverhead,
    KernelGap, // between two kernels of one stream
};
constexpr std::size_t kPathBoundCount = 6;

// "cpu", "gpu_compute", "gpu_comm_wait", "transfer", "launch_overhead", "kernel_kernel_gap".
std::string_view pathBoundName(PathBound bound);
// The bound of a name above; false when `name` is none of them.
bool pathBoundFromName(std::string_view name, PathBound& bound);

// A stretch of one rank's path spent in one op or kernel.
struct PathPiece
{
    PathName name; // op or kernel name; empty where no event holds the time
    PathBound bound = PathBound::Cpu;
    TimeNs start = 0; // frame time base of the rank (recorded clock minus the job's start)
    TimeNs duration = 0; // what the path counts (after what-if scaling)
    std::int64_t eventIndex = -1; // the event the time belongs to, -1 when none
};

// One rank's part in one collective instance.
struct RankCollective
{
    std::uint32_t instance = 0; // job-wide instance id, the same on every member
    std::string name;
    TimeNs arrival = 0; // frame time base
    TimeNs end = 0;
    std::int64_t eventIndex = -1;
    std::int64_t iteration = -1;
    bool complete = true; // every member of its group is in the folder and has it
    double transferScale = 1.0; // what-if factor of its transfer (joined) or its whole duration (not joined)
};

// What a comparison of two paths reads: the time per op or kernel name, and
// the longest piece of that name (the first of equals in path order).
struct NameTime
{
    std::string name;
    TimeNs total = 0;
    TimeNs longest = 0;
    std::int64_t longestEvent = -1; // that piece's event, -1 when none
};

// Sums pieces into name times as they come (pieces without a name are left out).
class NameTimes
{
public:
    void add(const PathPiece& piece);
    std::vector<NameTime> take(); // by first appearance

private:
    std::vector<NameTime> m_times;
    std::unordered_map<std::string, std::size_t> m_index;
};

// The longest path inside one rank between two of its boundary points.
// `from`: 0 is the rank's start, k + 1 the end of collective k.
// `to`: k < collectives.size() is the arrival at collective k, collectives.size() the rank's end.
struct CondensedEdge
{
    std::uint32_t from = 0;
    std::uint32_t to = 0;
    TimeNs weight = 0;
    // In path order; their durations add up to weight. Empty until named: the
    // join needs weights only (resolveEdgePieces names what the answer uses).
    std::vector<PathPiece> pieces;
    // The pieces summed by name, for edges only compared (the straggler's and the
    // median member's segment): bounded by the names, where a segment from the
    // rank's start holds as many pieces as the trace before it.
    std::vector<NameTime> nameTimes;
};

// The name times of an edge: from its pieces when named, else its nameTimes.
std::vector<NameTime> nameTimesOf(const CondensedEdge& edge);

struct CondensedRank
{
    std::int64_t rank = 0;
    std::vector<RankCollective> collectives; // in the rank's order (by arrival)
    std::vector<CondensedEdge> edges;
    TimeNs windowStart = 0; // frame time base
    TimeNs windowEnd = 0;
    // No event graph: the main thread's time between collectives (CPU-only ranks).
    bool serialModel = false;
    std::vector<std::string> notes;

    static constexpr std::uint32_t kStart = 0;

    std::uint32_t endOfCollective(std::size_t k) const { return static_cast<std::uint32_t>(k + 1); }

    std::uint32_t rankEnd() const { return static_cast<std::uint32_t>(collectives.size()); }
};

// The path moves from one rank to another at a collective: the path reached it
// through `fromRank`'s arrival (the member the others waited for) and leaves
// through `toRank`'s end.
struct PathHop
{
    std::int64_t fromRank = 0;
    std::int64_t toRank = 0;
    std::uint32_t instance = 0;
    std::string collective;
    TimeNs pathOffset = 0; // length of the path before the hop
};

// One edge of the joined graph the path takes.
struct PathStep
{
    enum class Kind : std::uint8_t
    {
        Condensed, // inside a rank: `index` is the condensed edge
        ToJoin, // a member's arrival -> the collective's join node
        FromJoin, // the join node -> a member's end (the transfer)
        Own, // arrival -> end of an unjoined collective on the same rank
    };

    Kind kind = Kind::Condensed;
    std::uint32_t rankPos = 0; // index into the condensed ranks
    std::uint32_t index = 0; // condensed edge, or collective of rankPos
    TimeNs weight = 0;
};

struct PathSegment
{
    std::int64_t rank = 0;
    PathPiece piece;
    TimeNs pathOffset = 0; // length of the path before this segment
};

// A collective instance as the join saw it.
struct JoinedCollective
{
    std::string name;
    std::int64_t iteration = -1;
    TimeNs transfer = 0; // shortest member duration
    bool joined = false; // complete on at least two members: cross-rank edges were added

    struct Member
    {
        std::size_t rankPos = 0; // index into the condensed ranks
        std::size_t local = 0; // index into that rank's collectives
    };

    std::vector<Member> members;
};

struct CrossRankPath
{
    bool ok = false;
    TimeNs length = 0;
    std::vector<PathStep> steps; // in path order
    std::vector<PathSegment> segments; // in path order (layOutSegments)
    std::vector<PathHop> hops;
    std::vector<JoinedCollective> collectives; // indexed by instance id
    std::vector<std::string> notes;
    // Per (rank position, collective): the condensed edge the longest path into
    // its arrival came through, -1 when unreachable. Stragglers compare these.
    std::vector<std::vector<std::int32_t>> arrivalEdge;

    // Σ duration per bound type over the path's segments on `rank`.
    std::array<TimeNs, kPathBoundCount> timeByBound(std::int64_t rank) const;
};

// Joins condensed ranks into the job's graph and finds its longest path.
// Instances on one member only, or marked incomplete, keep their own duration
// (bound GpuCommWait) and get a note. A cycle (members that order their
// collectives differently) gives ok = false and a note, never a wrong path.
CrossRankPath joinCondensedRanks(const std::vector<CondensedRank>& ranks);

// The two halves of joinCondensedRanks: the longest path (steps, length,
// arrivalEdge, collectives) from the edges' weights, and its segments and hops
// from the pieces of the condensed edges it takes.
CrossRankPath findJoinedPath(const std::vector<CondensedRank>& ranks);
void layOutSegments(const std::vector<CondensedRank>& ranks, CrossRankPath& path);

// The condensed edges of rank position `rankPos` the path takes.
std::vector<std::uint32_t> pathEdgesOfRank(const CrossRankPath& path, std::size_t rankPos);

} // namespace ks::core
