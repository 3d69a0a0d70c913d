#include "core/summary/rank_summary.h"

#include "core/analysis/cross_rank/rank_collectives.h"
#include "core/analysis/cross_rank/rank_overview.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/frame/kernel_type.h"
#include "core/analysis/hta/kernel_breakdown.h"
#include "core/analysis/hta/launch_stats.h"
#include "core/analysis/hta/memory_bandwidth.h"
#include "core/analysis/hta/queue_length.h"
#include "core/analysis/hta/user_annotation_breakdown.h"
#include "core/analysis/memory/memory_report.h"
#include "core/insights/rank_compute.h"
#include "core/model/trace_set.h"
#include "core/summary/summary_collectives.h"
#include "core/summary/summary_insights.h"
#include "core/summary/summary_memory.h"
#include "core/summary/summary_schema.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace ks::core {

namespace {

    using Rows = std::vector<std::vector<Cell>>;

    Cell optionalInt(std::int64_t value, std::int64_t absent)
    {
        return value == absent ? Cell {} : Cell { value };
    }

    Cell optionalText(std::string_view text)
    {
        return text.empty() ? Cell {} : Cell { std::string(text) };
    }

    // Copies a table's rows in the order `columns` gives (npos = the rank).
    void copyRows(const Table& table, const std::vector<std::size_t>& columns, std::int64_t rank, Rows& out)
    {
        for (const auto row : table.rows) {
            std::vector<Cell> cells;
            cells.reserve(columns.size());
            for (const std::size_t c : columns)
                cells.push_back(c == std::string::npos ? Cell { rank } : (c < row.size() ? row[c] : Cell {}));
            out.push_back(std::move(cells));
        }
    }

    std::vector<std::size_t> sequence(std::size_t from, std::size_t count)
    {
        std::vector<std::size_t> v;
        for (std::size_t i = 0; i < count; ++i)
            v.push_back(from + i);
        return v;
    }

    class RankSummarizer
    {
    public:
        RankSummarizer(RankSummary& summary, const AnalysisOptions& options)
            : m_s(summary)
            , m_options(options)
        {
        }

        void notApplicable(const std::string& analysis, const std::string& reason)
        {
            m_s.rows["analysis_status"].push_back(
                { static_cast<std::int64_t>(m_s.file.index), m_analysisRank, analysis, reason });
        }

        // The table of an analysis call that produced a data frame (item `item` of a tuple).
        const Table* frameOf(const AnalysisOutput& out, const std::string& analysis, int item = -1)
        {
            if (!out.ok) {
                notApplicable(analysis, out.error);
                return nullptr;
            }
            const HtaResult* r = &out.result;
            if (item >= 0)
                r = static_cast<std::size_t>(item) < r->items.size()
                    ? &r->items[static_cast<std::size_t>(item)]
                    : nullptr;
            if (r && r->kind == HtaResult::Kind::Dict && !r->entries.empty())
                r = &r->entries.front().second;
            if (!r || r->kind != HtaResult::Kind::DataFrame) {
                notApplicable(analysis, "no result");
                return nullptr;
            }
            if (r->frame.notApplicable) {
                notApplicable(analysis, *r->frame.notApplicable);
                return nullptr;
            }
            return &r->frame;
        }

        void analyses(const TraceSet& set)
        {
            auto built = buildFrames(set, m_options);
            if (!built) {
                notApplicable("frames", built.error().describe());
                return;
            }
            const FrameSet& frames = built.value();
            if (frames.ranks.empty()) {
                notApplicable("frames", "no rows for the analyses (no complete events)");
                return;
            }
            m_analysisRank = frames.ranks.front().rank;
            computeBeside(frames);
            // Outputs are kept in locals: frameOf points into them.
            const AnalysisOutput overview = rankOverview(frames, m_options);
            if (const Table* t = frameOf(overview, "rank_overview"))
                copyRows(*t, sequence(0, rank_overview::kColumns.size()), m_analysisRank,
                    m_s.rows["rank_iterations"]);
            // A summary stores no launch figures: skip re-reading every kernel's args.
            AnalysisOptions kernelOptions = m_options;
            kernelOptions.kernels.occupancyColumns = false;
            const AnalysisOutput kernels = gpuKernelBreakdown(frames, kernelOptions);
            if (const Table* t = frameOf(kernels, "kernel_types", 0))
                copyRows(*t, { std::string::npos, 0, 1, 2 }, m_analysisRank, m_s.rows["kernel_types"]);
            if (const Table* t = frameOf(kernels, "top_kernels", 1))
                copyRows(
                    *t, { std::string::npos, 0, 6, 1, 2, 3, 4, 5 }, m_analysisRank, m_s.rows["top_kernels"]);
            const AnalysisOutput launches = cudaKernelLaunchStats(frames, m_options);
            if (const Table* t = frameOf(launches, "launch_stats"))
                for (auto& row : launchStatsSummary(*t, m_analysisRank, m_options.launches))
                    m_s.rows["launch_stats"].push_back(std::move(row));
            const AnalysisOutput queue = queueLengthSummary(frames, m_options);
            if (const Table* t = frameOf(queue, "queue_length"))
                copyRows(*t, sequence(0, 10), m_analysisRank, m_s.rows["queue_length"]);
            const AnalysisOutput bandwidth = memoryBwSummary(frames, m_options);
            if (const Table* t = frameOf(bandwidth, "memory_bandwidth"))
                copyRows(*t, sequence(0, 10), m_analysisRank, m_s.rows["memory_bandwidth"]);
            userAnnotations(frames);
            // The rank rules with their default thresholds: what `insights` on the summary reads.
            InsightsOptions given;
            given.memory = m_memory;
            const RankInsights insights = rankInsights(frames, 0, m_options, given);
            for (auto& row : findingRows(insights))
                m_s.rows[std::string(kFindingsTable)].push_back(std::move(row));
            for (const RuleNotApplicable& na : insights.notApplicable)
                notApplicable(insightsStatusName(na.rule), na.reason);
        }

        // HTA's user-annotation breakdown, GPU time and CPU time,
        // each row as `user_annotations` holds it; a source that does not apply is
        // listed in analysis_status (user_annotations_gpu / _cpu).
        void userAnnotations(const FrameSet& frames)
        {
            for (const bool gpu : { true, false }) {
                AnalysisOptions options = m_options;
                options.annotations.useGpuAnnotation = gpu;
                const AnalysisOutput out = userAnnotationBreakdown(frames, options);
                const std::string source = gpu ? "gpu" : "cpu";
                const Table* t = frameOf(out, "user_annotations_" + source);
                if (!t)
                    continue;
                using namespace user_annotation_breakdown;
                const auto name = t->find(kName);
                const std::array<std::optional<std::size_t>, 5> stats { t->find(kSum), t->find(kMax),
                    t->find(kMin), t->find(kStddev), t->find(kMean) };
                if (!name)
                    continue;
                for (const auto& row : t->rows) {
                    std::vector<Cell> cells { m_analysisRank, source, row[*name] };
                    for (const auto& column : stats)
                        cells.push_back(column ? row[*column] : Cell {});
                    m_s.rows["user_annotations"].push_back(std::move(cells));
                }
            }
        }

        void collectives(const RankTrace& t)
        {
            struct Instance
            {
                std::uint32_t slice;
                const Track* track;
            };

            std::vector<Instance> found;
            for (const Track& track : t.tracks) {
                for (std::uint32_t s = track.sliceBegin; s < track.sliceEnd; ++s) {
                    const std::string_view name = t.sliceName(s);
                    bool collective = false;
                    if (track.kind == TrackKind::GpuStream) {
                        collective =
                            classifyKernelDefault(t.sliceCategory(s), name) == KernelType::Communication;
                    } else {
                        const std::uint32_t extra = t.extraRow(s);
                        collective = (extra != kNoRow && !t.name(t.extra.collectiveName[extra]).empty())
                            || name.starts_with("nccl:") || name.starts_with("gloo:");
                    }
                    if (collective)
                        found.push_back({ s, &track });
                }
            }
            // The n-th instance of a name (X2's matching key) counts in start order.
            std::stable_sort(found.begin(), found.end(), [&t](const Instance& a, const Instance& b) {
                return t.slices.start[a.slice] < t.slices.start[b.slice];
            });
            std::map<std::string, std::int64_t, std::less<>> seen;
            Rows& rows = m_s.rows["collectives"];
            for (const Instance& i : found) {
                const std::uint32_t s = i.slice;
                const bool gpu = i.track->kind == TrackKind::GpuStream;
                std::string name(t.sliceName(s));
                const std::int64_t ordinal = seen[name]++;
                // Cells appended one by one: GCC 12 warns falsely (maybe-uninitialized)
                // on initializer lists of variants holding strings.
                std::vector<Cell> row;
                row.reserve(15);
                row.emplace_back(t.rank);
                row.emplace_back(std::string(gpu ? "gpu_kernel" : "cpu_op"));
                row.emplace_back(std::move(name));
                row.emplace_back(ordinal);
                const std::uint32_t x = t.extraRow(s);
                if (x != kNoRow) {
                    const ExtraArgs& e = t.extra;
                    row.push_back(optionalText(t.name(e.collectiveName[x])));
                    row.push_back(optionalText(t.name(e.processGroupName[x])));
                    row.push_back(optionalInt(e.sequenceNumber[x], -1));
                    row.push_back(optionalInt(e.groupSize[x], 0));
                    row.push_back(optionalInt(e.inMsgNelems[x], 0));
                    row.push_back(optionalInt(e.outMsgNelems[x], 0));
                    row.push_back(optionalText(t.name(e.dtype[x])));
                } else {
                    row.resize(row.size() + 7);
                }
                row.push_back(gpu ? Cell { i.track->stream } : Cell {});
                row.push_back(gpu || i.track->key.tidIsName ? Cell {} : Cell { i.track->key.tid });
                row.emplace_back(t.slices.start[s]);
                row.emplace_back(t.slices.end(s));
                rows.push_back(std::move(row));
            }
        }

        // What matchCollectives reads of the rank (rank_collectives.h), so a summary's
        // instances are matched as the folder's are. Waits need every rank: the
        // writer fills wait_ns when it finishes.
        void collectiveArrivals(const RankTrace& t)
        {
            const RankCollectives read = rankCollectives(t);
            Rows& rows = m_s.rows["collective_arrivals"];
            std::set<std::string> groups;
            for (std::size_t i = 0; i < read.slices.size(); ++i) {
                const RankCollectiveSlice& c = read.slices[i];
                groups.insert(c.group);
                std::vector<Cell> row;
                row.reserve(13);
                row.emplace_back(t.rank);
                row.emplace_back(static_cast<std::int64_t>(i));
                row.emplace_back(std::string(collectiveBackendName(c.backend)));
                row.emplace_back(c.name);
                row.push_back(optionalText(c.group));
                row.push_back(optionalInt(c.sequence, -1));
                row.push_back(optionalInt(c.groupSize, 0));
                row.push_back(optionalInt(c.messageBytes, -1));
                row.emplace_back(c.start);
                row.emplace_back(c.end);
                row.emplace_back(); // iteration, compute_beside_ns: computeBeside() with the frame
                row.emplace_back();
                row.emplace_back(); // wait_ns
                rows.push_back(std::move(row));
                m_arrivals.push_back({ c.slice, c.start, c.end, rows.size() - 1 });
            }
            Rows& groupRows = m_s.rows["collective_groups"];
            for (const RankGroupArgs& g : read.groups) {
                std::vector<Cell> row;
                row.emplace_back(t.rank);
                row.emplace_back(std::string("args"));
                row.emplace_back(std::string(collectiveBackendName(g.backend)));
                row.emplace_back(g.group);
                row.push_back(optionalText(g.description));
                row.emplace_back();
                row.push_back(optionalText(formatRankList(g.ranks)));
                groupRows.push_back(std::move(row));
            }
            // pg_config only where it can name the members of a group this rank used.
            for (const ProcessGroupConfig& pg : read.processGroups) {
                if (!groups.count(pg.name))
                    continue;
                std::vector<Cell> row;
                row.emplace_back(t.rank);
                row.emplace_back(std::string("pg_config"));
                row.emplace_back();
                row.emplace_back(pg.name);
                row.push_back(optionalText(pg.description));
                row.push_back(optionalInt(pg.size, 0));
                row.push_back(optionalText(formatRankList(pg.ranks)));
                groupRows.push_back(std::move(row));
            }
        }

        // The memory analysis in brief (summary_memory.h), as `memory` computes it on the
        // rank (HTA-compatible mode: the plugin's numbers, as the session gives them there).
        void memory(const RankTrace& t)
        {
            if (t.memory.size() == 0) {
                notApplicable(
                    "memory", "no [memory] events (the profile was not taken with profile_memory=True)");
                return;
            }
            MemoryOptions options;
            options.tbCompat = m_options.htaCompat();
            options.htaCategories = false;
            auto memory = std::make_shared<const RankMemory>(rankMemory(t, options));
            // The memory rules read the same analysis (insightsMemoryOf's options) in the
            // default mode over the whole trace: computed once.
            if (!m_options.htaCompat() && !m_options.iterations)
                m_memory = memory;
            if (memory->error) {
                notApplicable("memory", *memory->error);
                return;
            }
            addSummaryMemoryRows(*memory, m_s.rows);
        }

        std::int64_t analysisRank() const { return m_analysisRank; }

        void setAnalysisRank(std::int64_t rank) { m_analysisRank = rank; }

    private:
        // A collective slice collectiveArrivals stored: its row, to be completed.
        struct StoredArrival
        {
            std::uint32_t slice = 0;
            TimeNs start = 0; // recorded clock
            TimeNs end = 0;
            std::size_t row = 0;
        };

        // Each stored collective's iteration and the part of it the rank's own
        // compute covered: what exposed_communication reads of a summary.
        void computeBeside(const FrameSet& frames)
        {
            if (m_arrivals.empty())
                return;
            const RankFrame& frame = frames.ranks.front();
            const std::vector<Interval> compute = rankCompute(frame);
            std::map<std::uint32_t, std::int64_t> iterationOf;
            for (const StoredArrival& a : m_arrivals)
                iterationOf[a.slice] = -1;
            for (const FrameRow& row : frame.rows) {
                const auto it = iterationOf.find(row.slice);
                if (it != iterationOf.end())
                    it->second = row.iteration;
            }
            Rows& rows = m_s.rows["collective_arrivals"];
            for (const StoredArrival& a : m_arrivals) {
                std::vector<Cell>& row = rows[a.row];
                const std::int64_t iteration = iterationOf[a.slice];
                row[10] = iteration >= 0 ? Cell { iteration } : Cell {};
                row[11] = Cell { coveredWithin(compute, a.start - frames.minTs, a.end - frames.minTs) };
            }
        }

        std::vector<StoredArrival> m_arrivals;
        RankSummary& m_s;
        const AnalysisOptions& m_options;
        std::int64_t m_analysisRank = 0;
        std::shared_ptr<const RankMemory> m_memory; // memory()'s, where the memory rules read the same
    };

    double percentile(const std::vector<double>& sorted, double p)
    {
        const auto n = static_cast<double>(sorted.size());
        const auto k = static_cast<std::size_t>(std::max(1.0, std::ceil(p / 100.0 * n)));
        return sorted[std::min(k, sorted.size()) - 1];
    }

} // namespace

std::vector<std::vector<Cell>> launchStatsSummary(
    const Table& launches, std::int64_t rank, const LaunchStatsOptions& options)
{
    // cpu_duration, gpu_duration, launch_delay: columns 2..4 (named with or
    // without "_us" by mode, in the same order).
    const std::array<std::string, 3> metrics { "cpu_duration", "gpu_duration", "launch_delay" };
    const std::array<std::optional<double>, 3> cutoffs { options.runtimeCutoffUs, std::nullopt,
        options.launchDelayCutoffUs };
    std::vector<std::vector<Cell>> out;
    for (std::size_t m = 0; m < metrics.size(); ++m) {
        std::vector<double> values;
        for (const auto row : launches.rows)
            if (row.size() > m + 2)
                if (const auto v = cellAsDouble(row[m + 2]); v && !std::isnan(*v))
                    values.push_back(*v);
        if (values.empty())
            continue;
        std::sort(values.begin(), values.end());
        double sum = 0;
        for (const double v : values)
            sum += v;
        Cell above {};
        if (cutoffs[m]) {
            const auto beyond = std::upper_bound(values.begin(), values.end(), *cutoffs[m]);
            above = static_cast<std::int64_t>(values.end() - beyond);
        }
        out.push_back({ rank, metrics[m], static_cast<std::int64_t>(values.size()),
            sum / static_cast<double>(values.size()), values.front(), percentile(values, 50),
            percentile(values, 90), percentile(values, 99), values.back(), above });
    }
    return out;
}

RankSummary summarizeRank(
    std::shared_ptr<const RankTrace> trace, const JobFile& file, const AnalysisOptions& options, int bins)
{
    RankSummary s;
    s.file = file;
    s.rank = trace->rank;
    RankSummarizer summarizer(s, options);
    summarizer.setAnalysisRank(trace->rank);
    const RankTrace& t = *trace;
    for (std::size_t k = 0; k < kDiagnosticKindCount; ++k) {
        const auto kind = static_cast<DiagnosticKind>(k);
        const auto& entry = t.diagnostics.entry(kind);
        if (entry.count > 0)
            s.rows["diagnostics"].push_back({ static_cast<std::int64_t>(file.index), t.rank,
                std::string(diagnosticName(kind)), static_cast<std::int64_t>(entry.count), entry.example });
    }
    summarizer.collectives(t);
    summarizer.collectiveArrivals(t);
    summarizer.memory(t);
    s.profiles = streamProfiles(t, bins);
    TraceSet set;
    set.ranks.push_back(std::move(trace));
    summarizer.analyses(set);
    s.rows["ranks"].push_back({ static_cast<std::int64_t>(file.index), file.path, t.rank,
        summarizer.analysisRank(), std::string(rankSourceName(t.rankSource)), std::string("ok"), Cell {},
        static_cast<std::int64_t>(file.sizeBytes), static_cast<std::int64_t>(t.counts.jsonBytes),
        static_cast<std::int64_t>(t.counts.events), t.startNs, t.endNs });
    return s;
}

RankSummary failedRank(const JobFile& file, const Error& error, bool skipped)
{
    RankSummary s;
    s.file = file;
    s.rows["ranks"].push_back({ static_cast<std::int64_t>(file.index), file.path, Cell {}, Cell {}, Cell {},
        std::string(skipped ? "skipped" : "failed"), error.describe(),
        static_cast<std::int64_t>(file.sizeBytes), Cell {}, Cell {}, Cell {}, Cell {} });
    return s;
}

} // namespace ks::core
