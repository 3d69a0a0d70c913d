#include "core/analysis/hta/idle_time_breakdown.h"

#include "core/analysis/tables/microseconds.h"
#include "core/analysis/tables/pandas_numerics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <unordered_map>

namespace ks::core {

namespace {

    // HTA's IdleTimeType values; the output lists categories in this order (groupby sorts them).
    enum IdleCategory : std::size_t
    {
        kHostWait = 0,
        kKernelWait = 1,
        kOther = 2,
        kCategoryCount = 3
    };

    constexpr std::array<const char*, kCategoryCount> kCategoryNames = { "host_wait", "kernel_wait",
        "other" };

    struct IdleKernel
    {
        std::int64_t stream = -1;
        std::int64_t ts = 0;
        std::int64_t end = 0;
        std::optional<std::int64_t> runtimeTs; // start of the CPU call that launched it
    };

    // One kernel's idle interval before it: none for the first kernel of a stream.
    struct IdleGap
    {
        std::optional<std::int64_t> ns;
        IdleCategory category = kOther;
    };

    struct StreamIdle
    {
        std::int64_t stream = -1;
        std::vector<IdleGap> gaps;
    };

    Cell realCell(double value)
    {
        return std::isnan(value) ? Cell {} : Cell { value };
    }

    Cell roundedCell(std::optional<double> value)
    {
        return value ? realCell(roundHalfEven(*value, 2)) : Cell {};
    }

    // Kinetoscope's runtime link: the CPU call (not device work) carrying the kernel's correlation.
    std::unordered_map<std::int64_t, std::int64_t> launchStartByCorrelation(const RankFrame& frame)
    {
        std::unordered_map<std::int64_t, std::int64_t> starts;
        for (const FrameRow& row : frame.rows)
            if (row.correlation >= 0 && row.stream < 0 && !row.device)
                starts[row.correlation] = row.ts;
        return starts;
    }

    // The kernels whose gaps count, in row order. HtaCompat joins the runtime call
    // through index_correlation, so 0 ("no partner") joins to event 0 when it has a row (§4).
    std::vector<IdleKernel> idleKernels(const RankFrame& frame, bool compat)
    {
        std::unordered_map<std::int64_t, std::int64_t> starts;
        if (!compat)
            starts = launchStartByCorrelation(frame);
        std::vector<IdleKernel> kernels;
        for (const FrameRow& row : frame.rows) {
            // §1.8: HTA's idle breakdown takes device categories on a stream; default mode the device flag
            // (Q3).
            const bool kernel = compat ? row.stream != -1 && row.device : row.device;
            if (!kernel)
                continue;
            IdleKernel k { row.stream, row.ts, row.end(), std::nullopt };
            if (compat) {
                if (const FrameRow* runtime =
                        row.indexCorrelation >= 0 ? frame.rowOfEvent(row.indexCorrelation) : nullptr)
                    k.runtimeTs = runtime->ts;
            } else if (auto it = starts.find(row.correlation); row.correlation >= 0 && it != starts.end()) {
                k.runtimeTs = it->second;
            }
            kernels.push_back(k);
        }
        return kernels;
    }

    // Q4: HtaCompat measures each gap from the previous kernel's end in ts order, so
    // overlapping kernels give negative gaps; default mode from the latest end so far, never negative.
    std::vector<IdleGap> classifyStream(std::vector<IdleKernel> kernels, double delayUs, bool compat)
    {
        std::stable_sort(kernels.begin(), kernels.end(),
            [](const IdleKernel& a, const IdleKernel& b) { return a.ts < b.ts; });
        const double delayNs = delayUs * 1000.0; // Q10: the threshold is in µs in both modes
        std::vector<IdleGap> gaps;
        gaps.reserve(kernels.size());
        std::optional<std::int64_t> prevEnd;
        for (const IdleKernel& k : kernels) {
            IdleGap gap;
            if (prevEnd) {
                const std::int64_t ns = compat ? k.ts - *prevEnd : std::max<std::int64_t>(0, k.ts - *prevEnd);
                gap.ns = ns;
                if (k.runtimeTs && *k.runtimeTs > *prevEnd)
                    gap.category = kHostWait;
                else if (static_cast<double>(ns) < delayNs)
                    gap.category = kKernelWait;
            }
            gaps.push_back(gap);
            prevEnd = compat || !prevEnd ? k.end : std::max(*prevEnd, k.end);
        }
        return gaps;
    }

    // Streams in order of first appearance among the kernels, as HTA's unique().
    std::vector<StreamIdle> analyzeRank(const std::vector<IdleKernel>& kernels, double delayUs, bool compat)
    {
        std::vector<StreamIdle> streams;
        for (const IdleKernel& k : kernels)
            if (std::none_of(streams.begin(), streams.end(),
                    [&k](const StreamIdle& s) { return s.stream == k.stream; }))
                streams.push_back(StreamIdle { k.stream, {} });
        for (StreamIdle& s : streams) {
            std::vector<IdleKernel> ofStream;
            for (const IdleKernel& k : kernels)
                if (k.stream == s.stream)
                    ofStream.push_back(k);
            s.gaps = classifyStream(std::move(ofStream), delayUs, compat);
        }
        return streams;
    }

    struct CategoryTotals
    {
        std::array<bool, kCategoryCount> present {};
        std::array<std::int64_t, kCategoryCount> ns {};
    };

    CategoryTotals totalsOf(const StreamIdle& s)
    {
        CategoryTotals t;
        for (const IdleGap& g : s.gaps) {
            t.present[g.category] = true;
            t.ns[g.category] += g.ns.value_or(0); // pandas sum skips NaN
        }
        return t;
    }

    Table breakdownTable(bool compat)
    {
        Table t;
        t.name = "idle_time_breakdown";
        const AnalysisMode mode = compat ? AnalysisMode::HtaCompat : AnalysisMode::Default;
        using namespace idle_time_breakdown;
        for (const ColumnId& c : { kRank, kStream, kIdleCategory, kIdleTime, kIdleTimeRatio })
            t.columns.push_back(c.column(mode));
        return t;
    }

    Table intervalStatsTable(bool compat)
    {
        Table t;
        t.name = "idle_interval_stats";
        t.indexColumns = { "idle_category" };
        t.columns = { { "idle_category", "" }, { "rank", "" }, { "stream", "" }, { "count", "" } };
        const char* stats[] = { "mean", "std", "min", "25%", "50%", "75%", "max" };
        const char* labelled[] = { "mean_us", "std_us", "min_us", "p25_us", "p50_us", "p75_us", "max_us" };
        for (std::size_t i = 0; i < std::size(stats); ++i)
            t.columns.push_back({ compat ? stats[i] : labelled[i], "us" });
        return t;
    }

    void addBreakdownRows(Table& table, std::int64_t rank, const StreamIdle& s)
    {
        const CategoryTotals t = totalsOf(s);
        double totalUs = 0.0;
        for (std::size_t c = 0; c < kCategoryCount; ++c)
            if (t.present[c])
                totalUs += microseconds(t.ns[c]);
        for (std::size_t c = 0; c < kCategoryCount; ++c) {
            if (!t.present[c])
                continue;
            const double us = microseconds(t.ns[c]);
            // 0/0 is NaN (a stream of one kernel); a total of zero from negative gaps gives inf, as in
            // pandas.
            table.addRow({ rank, s.stream, std::string(kCategoryNames[c]), roundHalfEven(us, 2),
                realCell(roundHalfEven(us / totalUs, 2)) });
        }
    }

    void addIntervalRows(Table& table, std::int64_t rank, const StreamIdle& s)
    {
        const CategoryTotals t = totalsOf(s);
        for (std::size_t c = 0; c < kCategoryCount; ++c) {
            if (!t.present[c])
                continue;
            std::vector<double> values;
            for (const IdleGap& g : s.gaps)
                if (g.category == c && g.ns)
                    values.push_back(microseconds(*g.ns));
            const Describe d = describe(std::move(values));
            table.addRow({ std::string(kCategoryNames[c]), rank, s.stream, static_cast<double>(d.count),
                roundedCell(d.mean), roundedCell(d.std), roundedCell(d.min), roundedCell(d.q25),
                roundedCell(d.q50), roundedCell(d.q75), roundedCell(d.max) });
        }
    }

    // pandas concatenates the per-rank frames, each indexed 0..n-1: with several ranks the
    // index repeats, so it becomes a leading `index` column.
    void addRepeatedIndex(Table& table, const std::vector<std::size_t>& rowsPerRank)
    {
        table.columns.insert(table.columns.begin(), Column { "index", "" });
        table.indexColumns = { "index" };
        TableRows indexed;
        indexed.reserve(table.rows.size(), table.columns.size());
        std::size_t row = 0;
        for (std::size_t n : rowsPerRank)
            for (std::size_t i = 0; i < n; ++i, ++row) {
                std::vector<Cell> cells { Cell { static_cast<std::int64_t>(i) } };
                const std::vector<Cell> rest = table.rows[row].cells();
                cells.insert(cells.end(), rest.begin(), rest.end());
                indexed.push_back(cells);
            }
        table.rows = std::move(indexed);
    }

} // namespace

AnalysisOutput idleTimeBreakdown(const FrameSet& frames, const AnalysisOptions& options)
{
    const bool compat = options.htaCompat();
    Table breakdown = breakdownTable(compat);
    Table intervals = intervalStatsTable(compat);
    std::vector<std::size_t> rowsPerRank;
    for (const RankFrame& frame : frames.ranks) {
        const std::vector<IdleKernel> kernels = idleKernels(frame, compat);
        if (kernels.empty()) {
            if (compat) // HTA: "No objects to concatenate" for the whole call
                return AnalysisOutput::notApplicable("no GPU kernels on rank " + std::to_string(frame.rank));
            continue;
        }
        const std::size_t before = breakdown.rows.size();
        for (const StreamIdle& s : analyzeRank(kernels, options.idle.consecutiveKernelDelayUs, compat)) {
            addBreakdownRows(breakdown, frame.rank, s);
            addIntervalRows(intervals, frame.rank, s);
        }
        rowsPerRank.push_back(breakdown.rows.size() - before);
    }
    if (rowsPerRank.empty())
        return AnalysisOutput::notApplicable("no GPU kernels on any selected rank");
    if (rowsPerRank.size() > 1)
        addRepeatedIndex(breakdown, rowsPerRank);

    HtaResult result;
    result.kind = HtaResult::Kind::Tuple;
    result.items.push_back(HtaResult::dataFrame(std::move(breakdown)));
    result.items.push_back(
        options.idle.showIntervalStats ? HtaResult::dataFrame(std::move(intervals)) : HtaResult::none());
    return AnalysisOutput::of(std::move(result));
}

} // namespace ks::core
