#pragma once

// What the rules read, computed once per run and shared: the frames, the job's
// critical path over the selection and its what-ifs, and the existing analyses
// (launch statistics, idle time, stragglers, collective skew). Rules compute
// no statistics of their own beyond picking events; the gains come from here.

#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/analysis/cross_rank/stragglers.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/frame/intervals.h"
#include "core/analysis/hta/launch_outliers.h"
#include "core/common/parallel_for.h"
#include "core/insights/efficiency_roofline.h"
#include "core/insights/efficiency_seam.h"
#include "core/insights/finding.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ks::core {

struct RankMemory; // core/analysis/memory/memory_report.h
class PathTimeIndex; // core/insights/path_time_index.h

class InsightsContext
{
public:
    // `frames` must outlive the context. `options` are the ones the frames were built with.
    // `kept`, when given, is the job path over these frames and options (see
    // InsightsOptions::jobPath): path() and the what-ifs read it.
    InsightsContext(const FrameSet& frames, const AnalysisOptions& options,
        const ParallelFor& parallelFor = runSequentially, std::shared_ptr<const KeptJobPath> kept = nullptr);
    ~InsightsContext();
    InsightsContext(const InsightsContext&) = delete;
    InsightsContext& operator=(const InsightsContext&) = delete;

    const FrameSet& frames() const { return m_frames; }

    // A rank context (its frames one rank of the job's): its path is derived from the
    // job's kept graph of that rank (rankAlonePath) instead of building the rank's
    // event graph again, where the job's path kept one. Before the first path().
    void deriveFrom(std::shared_ptr<const KeptJobPath> job, std::size_t rankPos);

    // The kept path (computed by path() when not given): what rank contexts derive from.
    std::shared_ptr<const KeptJobPath> keptPath();

    const AnalysisOptions& options() const { return m_options; }

    // The job's critical path over the selection (the single selected iteration,
    // else everything loaded); an error when it cannot be built.
    const Result<JobCriticalPath>& path();

    bool hasPath() { return path().ok(); }

    // The time gains are shares of (0 without a path).
    TimeNs measured();
    std::string measuredWhat() const;

    // What a what-if on the path gives back, in % of measured(): the path re-timed
    // with the rules (kind:BOUND=F or NAME_REGEX=F) on the graphs path() kept,
    // which gives what rebuilding it with them would; nullopt without a path.
    std::optional<double> whatIfGainPct(const std::vector<std::string>& rules);
    // The same with edits of particular events (a fix's model, WhatIfRankEdits) on top of the rules.
    std::optional<double> whatIfGainPct(
        const std::vector<std::string>& rules, const std::vector<WhatIfRankEdits>& edits);

    // Time the path spends on `rank` inside `ranges` (frame time base, merged or not).
    TimeNs pathTimeWithin(std::int64_t rank, std::vector<Interval> ranges);
    // Time the path spends in segments `keep` accepts.
    TimeNs pathTimeOf(const std::function<bool(const PathSegment&)>& keep);
    // Share of measured() in %, 0 without a path.
    double pctOfMeasured(TimeNs ns);

    // Per rank (frames order) the launches and A6's outlier sets.
    const std::vector<LaunchOutliers>& launchOutliers();
    const std::vector<Straggler>& stragglers();

    // Absolute ns of a frame time (frames are relative to the job's start).
    TimeNs absolute(TimeNs frameTime) const { return frameTime + m_frames.minTs; }

    TimeRange absoluteRange(TimeNs start, TimeNs end) const { return { absolute(start), absolute(end) }; }

    // The efficiency analysis' per-family roofline results: given
    // (tests, a caller that ran it), else low_efficiency runs it on the frames.
    std::optional<std::vector<OpFamilyRoofline>> roofline;
    // low_efficiency's rooflines of the context's rank computed beforehand (or why there
    // are none), where roofline is not given: it reads them instead of computing them.
    std::shared_ptr<const FamilyRooflines> rooflines;
    // The memory analysis of the context's rank (memoryOfRank computes it once):
    // memory_pressure and the memory rules read it.
    std::shared_ptr<const RankMemory> memory;
    // The device low_efficiency draws the roofline against (--device/--peaks).
    RooflineDevice device;

private:
    JobPathOptions pathOptions() const;

    const FrameSet& m_frames;
    AnalysisOptions m_options;
    ParallelFor m_parallelFor;
    std::shared_ptr<const KeptJobPath> m_kept; // given, or computed by path()
    std::shared_ptr<const KeptJobPath> m_job; // deriveFrom's: the job this rank's path comes from
    std::size_t m_jobRankPos = 0;

    // Each what-if re-timed so far and its gain: the Overview's "first two" asks again
    // for the what-ifs the two findings' rules computed.
    struct WhatIfAsked
    {
        std::vector<std::string> rules;
        std::vector<WhatIfRankEdits> edits;
        std::optional<double> gainPct;
    };

    std::vector<WhatIfAsked> m_whatIfs;
    std::optional<std::vector<LaunchOutliers>> m_launchOutliers;
    std::optional<std::vector<Straggler>> m_stragglers;
    std::unique_ptr<const PathTimeIndex> m_pathTimes; // pathTimeWithin's, built on its first call
};

} // namespace ks::core
