#include "core/insights/insights_context.h"

#include "core/insights/efficiency_seam.h"
#include "core/insights/path_time_index.h"

#include <algorithm>

namespace ks::core {

InsightsContext::InsightsContext(const FrameSet& frames, const AnalysisOptions& options,
    const ParallelFor& parallelFor, std::shared_ptr<const KeptJobPath> kept)
    : m_frames(frames)
    , m_options(options)
    , m_parallelFor(parallelFor)
    , m_kept(std::move(kept))
{
}

InsightsContext::~InsightsContext() = default;

JobPathOptions InsightsContext::pathOptions() const
{
    JobPathOptions o;
    // One selected iteration: gains are shares of that step; otherwise of all that is loaded.
    if (m_options.iterations && m_options.iterations->size() == 1)
        o.iteration = m_options.iterations->front();
    o.cancel = m_options.cancel;
    return o;
}

void InsightsContext::deriveFrom(std::shared_ptr<const KeptJobPath> job, std::size_t rankPos)
{
    m_job = std::move(job);
    m_jobRankPos = rankPos;
}

std::shared_ptr<const KeptJobPath> InsightsContext::keptPath()
{
    path();
    return m_kept;
}

const Result<JobCriticalPath>& InsightsContext::path()
{
    if (!m_kept || !m_kept->path) {
        auto kept = std::make_shared<KeptJobPath>();
        JobPathOptions o = pathOptions();
        o.keepTiming = &kept->timing; // what-ifs re-time the path's ranks
        std::optional<Result<JobCriticalPath>> derived;
        if (m_job && m_job->path && m_job->path->ok())
            derived = rankAlonePath(m_frames, m_job->timing, m_jobRankPos, o);
        kept->path.emplace(derived ? std::move(*derived) : jobCriticalPath(m_frames, o, m_parallelFor));
        m_kept = std::move(kept);
        m_job.reset();
    }
    return *m_kept->path;
}

TimeNs InsightsContext::measured()
{
    return hasPath() ? path().value().measuredTime : 0;
}

std::string InsightsContext::measuredWhat() const
{
    const JobPathOptions o = pathOptions();
    if (o.iteration)
        return "iteration " + std::to_string(*o.iteration);
    if (m_options.iterations && !m_options.iterations->empty())
        return "the selected iterations";
    return "the traced time";
}

std::optional<double> InsightsContext::whatIfGainPct(const std::vector<std::string>& rules)
{
    return whatIfGainPct(rules, {});
}

std::optional<double> InsightsContext::whatIfGainPct(
    const std::vector<std::string>& rules, const std::vector<WhatIfRankEdits>& edits)
{
    if (!hasPath() || measured() <= 0)
        return std::nullopt;
    for (const WhatIfAsked& asked : m_whatIfs)
        if (asked.rules == rules && asked.edits == edits)
            return asked.gainPct;
    std::vector<WhatIfRule> parsed;
    for (const std::string& text : rules) {
        auto rule = parseWhatIfRule(text);
        if (rule)
            parsed.push_back(std::move(rule).value());
    }
    WhatIfScaling scaling(std::move(parsed));
    for (const WhatIfRankEdits& e : edits)
        scaling.addEdits(e);
    const CrossRankPath after = retimedJobPath(m_frames, m_kept->timing, scaling, m_parallelFor);
    std::optional<double> gain;
    if (after.ok && path().value().path.ok) {
        const TimeNs saved = path().value().path.length - after.length;
        gain = std::max(0.0, 100.0 * static_cast<double>(saved) / static_cast<double>(measured()));
    }
    m_whatIfs.push_back({ rules, edits, gain });
    return gain;
}

TimeNs InsightsContext::pathTimeWithin(std::int64_t rank, std::vector<Interval> ranges)
{
    if (!hasPath() || ranges.empty())
        return 0;
    if (!m_pathTimes)
        m_pathTimes = std::make_unique<const PathTimeIndex>(path().value().path.segments);
    return m_pathTimes->within(rank, mergeIntervals(std::move(ranges)));
}

TimeNs InsightsContext::pathTimeOf(const std::function<bool(const PathSegment&)>& keep)
{
    if (!hasPath())
        return 0;
    TimeNs total = 0;
    for (const PathSegment& s : path().value().path.segments)
        if (keep(s))
            total += s.piece.duration;
    return total;
}

double InsightsContext::pctOfMeasured(TimeNs ns)
{
    const TimeNs m = measured();
    return m > 0 ? 100.0 * static_cast<double>(ns) / static_cast<double>(m) : 0.0;
}

const std::vector<LaunchOutliers>& InsightsContext::launchOutliers()
{
    if (!m_launchOutliers)
        m_launchOutliers = launchStatsOutliers(m_frames, m_options);
    return *m_launchOutliers;
}

const std::vector<Straggler>& InsightsContext::stragglers()
{
    if (!m_stragglers)
        m_stragglers = hasPath() ? findStragglers(path().value()) : std::vector<Straggler> {};
    return *m_stragglers;
}

} // namespace ks::core
