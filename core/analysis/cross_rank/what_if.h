#pragma once

// What-if scaling on the critical path: "these ops or kernels
// took `factor` times as long". Rules are matched against op/kernel names (a
// regular expression, searched) or, with a "kind:" prefix, against a path bound
// type ("kind:gpu_compute=0.5"). A matching name rule wins over kind rules; among
// each, the first that matches decides.

#include "core/analysis/cross_rank/cross_rank_path.h"
#include "core/common/result.h"

#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ks::core {

struct WhatIfRule
{
    std::string text; // as the user gave it, for output
    std::optional<PathBound> kind; // kind rule; otherwise `pattern` is used
    std::regex pattern;
    // The names `pattern` matches when it is a list of exact names, "^(a|b\\.c)$"
    // with only escaped metacharacters (what the insights' what-ifs write): a
    // sorted set looked up without running the regular expression, which
    // matches exactly these names (ECMAScript's ^ and $ without multiline).
    std::optional<std::vector<std::string>> exactNames;
    double factor = 1.0;
};

// The names of a pattern of the form "^(a|b|c)$" whose alternatives are
// literal characters and backslash-escaped metacharacters only, sorted; none
// for any other pattern (it is matched as a regular expression).
std::optional<std::vector<std::string>> exactNamesOf(std::string_view pattern);

// "REGEX=F" or "kind:BOUND=F", F a non-negative number. The last '=' splits.
Result<WhatIfRule> parseWhatIfRule(std::string_view text);

// A what-if's edits of one rank's own events: what a fix changes in particular
// events rather than in every event of a name or bound (the insights' fix models:
// each pageable copy's host call keeps its wait and loses its staging; the CPU's
// dispatch inside a captured region shrinks). Edits decide before the rules.
struct WhatIfRankEdits
{
    std::int64_t rank = 0;
    // Frame row index (RankFrame::rows) -> factor for the time spent in that row: an
    // op's or a call's CPU time, a kernel's or copy's own GPU time. Not the launch
    // delay before a kernel nor the gap after it: a faster kernel launches no sooner.
    std::unordered_map<std::uint32_t, double> rows;
    // Kernel row index -> factor for its launch delay (the path's LaunchOverhead piece
    // from its launch call to its start): a fix that launches it sooner.
    std::unordered_map<std::uint32_t, double> launchDelays;

    // Time of `bound` inside [start, end) (frame time base) scaled by `factor`: an
    // edge counts when it starts inside. Rows listed above keep their own factor.
    struct Window
    {
        TimeNs start = 0;
        TimeNs end = 0;
        PathBound bound = PathBound::Cpu;
        double factor = 1.0;

        bool operator==(const Window&) const = default;
    };

    std::vector<Window> windows; // sorted by start, not overlapping per bound

    bool empty() const { return rows.empty() && launchDelays.empty() && windows.empty(); }

    bool operator==(const WhatIfRankEdits&) const = default;
};

// The rules with a per-name cache (regex search is slow and names repeat;
// rules that list exact names need neither regex nor cache). The
// job path condenses ranks on several threads with one scaling, so the cache is
// locked; copies share the lock (harmless) and keep caches of their own.
class WhatIfScaling
{
public:
    WhatIfScaling() = default;
    explicit WhatIfScaling(std::vector<WhatIfRule> rules);

    bool empty() const { return m_rules.empty() && m_edits.empty(); }

    const std::vector<WhatIfRule>& rules() const { return m_rules; }

    // Adds edits of one rank's events; edits of the same rank combine (factors multiply).
    void addEdits(WhatIfRankEdits edits);

    const std::vector<WhatIfRankEdits>& edits() const { return m_edits; }

    bool hasEditsFor(std::int64_t rank) const;

    // The factor for time of `bound` spent in `name` (1 when no rule matches).
    double factor(std::string_view name, PathBound bound) const;
    // `ns` scaled, rounded to the nearest ns.
    TimeNs scaled(TimeNs ns, std::string_view name, PathBound bound) const;
    // `ns` times `factor` as scaled() rounds it (unchanged when the factor is 1).
    static TimeNs scaledBy(TimeNs ns, double factor);

private:
    // The factor of the first name rule matching `name`, negative when none does.
    double nameFactor(std::string_view name) const;

    std::vector<WhatIfRule> m_rules;

    std::vector<WhatIfRankEdits> m_edits;
    bool m_exactNamesOnly = true; // every name rule has exactNames: no regex, no cache
    mutable std::unordered_map<std::string, double> m_byName; // name -> factor of the first name rule
    std::shared_ptr<std::mutex> m_byNameLock = std::make_shared<std::mutex>();
};

// The factors a scaling's edits give the time of one rank, built once per rank
// for the many edges (or stretches) a condenser scales: each edit's row and
// launch-delay factors in arrays indexed by frame row (a hash lookup per edge and
// edit was the largest cost of a re-timing with edits), its windows searched among
// those of the edge's bound alone.
class RankEditedFactors
{
public:
    // `rowCount`: the rank's frame rows (rows at or past it are never edited).
    RankEditedFactors(const WhatIfScaling& scaling, std::int64_t rank, std::size_t rowCount);

    // The factor of time spent in frame row `row` (TimedGraph::kNoRow: none) of
    // `bound` from `at` (frame time base), whose rules' factor is `ruleFactor`:
    // the edits' where they apply (a row's edit first, else the product of its
    // windows holding `at`; edits multiply), else the rules'.
    double factor(std::uint32_t row, PathBound bound, TimeNs at, double ruleFactor) const;

private:
    // One bound's windows of an edit, in window order (by start), and the latest end up
    // to each: the windows holding a time are found with one search among them.
    struct BoundWindows
    {
        std::vector<TimeNs> starts;
        std::vector<TimeNs> ends;
        std::vector<TimeNs> latestEnd;
        std::vector<double> factors;
    };

    struct Edit
    {
        std::vector<double> rows; // factor per frame row, NaN where the edit names none; empty: none
        std::vector<double> launchDelays; // the same for launch delays
        std::array<BoundWindows, kPathBoundCount> windows;
    };

    std::vector<Edit> m_edits;
};

} // namespace ks::core
