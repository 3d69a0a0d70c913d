#include "core/analysis/frame/hta_frame.h"

#include "core/common/cancelled_error.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

namespace ks::core {

namespace {

    // The double Python's float() gives for the µs text Kineto wrote, rebuilt
    // from exact ns (Kineto writes at most 3 decimals, so the decimal is the same).
    double pythonMicroseconds(std::int64_t ns)
    {
        // Below 2^53 ns is exact in a double, and IEEE division rounds the exact
        // quotient correctly, as float() rounds the exact decimal: the same value.
        constexpr std::int64_t kExact = std::int64_t(1) << 53;
        if (ns > -kExact && ns < kExact)
            return static_cast<double>(ns) / 1000.0;
        const bool negative = ns < 0;
        const std::uint64_t abs =
            negative ? static_cast<std::uint64_t>(-(ns + 1)) + 1 : static_cast<std::uint64_t>(ns);
        char text[48];
        char* end = text;
        if (negative)
            *end++ = '-';
        end = std::to_chars(end, text + sizeof text, abs / 1000).ptr;
        const std::uint64_t fraction = abs % 1000;
        *end++ = '.';
        *end++ = static_cast<char>('0' + fraction / 100);
        *end++ = static_cast<char>('0' + fraction / 10 % 10);
        *end++ = static_cast<char>('0' + fraction % 10);
        double value = 0;
        std::from_chars(text, end, value); // correctly rounded, as Python's float()
        return value;
    }

    // Q1: ts = ceil(ts), end = floor(ts + dur), dur = end - ts, in double arithmetic.
    void roundLikeHta(std::int64_t& tsNs, std::int64_t& durNs)
    {
        const double ts = pythonMicroseconds(tsNs);
        const double end = ts + pythonMicroseconds(durNs);
        const double roundedTs = std::ceil(ts);
        const double roundedEnd = std::floor(end);
        tsNs = static_cast<std::int64_t>(roundedTs) * 1000;
        durNs = static_cast<std::int64_t>(roundedEnd - roundedTs) * 1000;
    }

    bool isSyncByName(std::string_view name)
    {
        return name == "Event Sync" || name == "Context Sync";
    }

    // HTA's GPUKernelFilter: the "GPU side" of correlation linking.
    bool isGpuSide(const FrameRow& row, std::string_view name)
    {
        return (row.stream >= 0 && row.correlation >= 0) || isSyncByName(name);
    }

    std::optional<std::int64_t> profilerStepNumber(std::string_view name)
    {
        // ProfilerStep\s*#\s*(\d+)
        if (name.rfind("ProfilerStep", 0) != 0)
            return std::nullopt;
        std::size_t i = 12;
        while (i < name.size() && std::isspace(static_cast<unsigned char>(name[i])))
            ++i;
        if (i >= name.size() || name[i] != '#')
            return std::nullopt;
        ++i;
        while (i < name.size() && std::isspace(static_cast<unsigned char>(name[i])))
            ++i;
        if (i >= name.size() || !std::isdigit(static_cast<unsigned char>(name[i])))
            return std::nullopt;
        // from_chars checks overflow: a step number beyond int64 (20 digits) is no step number.
        std::int64_t n = 0;
        const char* const end = name.data() + name.size();
        const auto [ptr, ec] = std::from_chars(name.data() + i, end, n);
        if (ec != std::errc() || ptr == name.data() + i)
            return std::nullopt;
        return n;
    }

    // What a category decides for every slice of it, worked out once per category.
    struct CategoryTraits
    {
        bool keptByHta = false; // HTA keeps X events with a category, except the profiler's own span
        bool device = false;
    };

    std::vector<CategoryTraits> categoryTraits(const RankTrace& trace)
    {
        std::vector<CategoryTraits> traits(trace.categories.size());
        for (std::size_t c = 0; c < traits.size(); ++c) {
            const std::string_view text = trace.strings.view(trace.categories[c]);
            traits[c].keptByHta = c != 0 && text != "Trace";
            traits[c].device = isDeviceActivityCategory(text);
        }
        return traits;
    }

    std::vector<FrameRow> selectRows(const RankTrace& trace, bool compat)
    {
        const bool roundTimes =
            compat && (trace.counts.fractionalTimestamps || trace.counts.eventWithoutTimestamp);
        const std::vector<CategoryTraits> traits = categoryTraits(trace);
        // Rows go in event order. Event indexes are unique positions in traceEvents,
        // so a dense slot per event orders them in one pass instead of a sort.
        std::uint32_t maxEvent = 0;
        for (const std::uint32_t e : trace.slices.eventIndex)
            maxEvent = std::max(maxEvent, e);
        constexpr std::uint32_t kNone = 0xffffffffu;
        std::vector<std::uint32_t> sliceAtEvent(trace.slices.size() ? std::size_t(maxEvent) + 1 : 0, kNone);
        std::size_t selected = 0;
        for (std::uint32_t i = 0; i < trace.slices.size(); ++i) {
            if (compat) {
                const std::uint8_t flags = trace.slices.flags[i];
                if ((flags & (kSliceFromBeginEnd | kSliceMissingDuration)) != 0
                    || !traits[trace.slices.category[i]].keptByHta)
                    continue;
            }
            sliceAtEvent[trace.slices.eventIndex[i]] = i;
            ++selected;
        }
        std::vector<FrameRow> rows;
        rows.reserve(selected);
        for (const std::uint32_t i : sliceAtEvent) {
            if (i == kNone)
                continue;
            FrameRow& row = rows.emplace_back();
            row.slice = i;
            row.eventIndex = trace.slices.eventIndex[i];
            row.ts = trace.slices.start[i];
            row.dur = trace.slices.duration(i);
            if (roundTimes)
                roundLikeHta(row.ts, row.dur);
            row.stream = trace.stream(i);
            row.correlation = trace.correlation(i);
            row.device = traits[trace.slices.category[i]].device;
        }
        return rows;
    }

    // Kernel names repeat: each (category, name) pair is classified once.
    void classifyGpuWork(RankFrame& frame, AnalysisMode mode)
    {
        const bool compat = mode == AnalysisMode::HtaCompat;
        std::unordered_map<std::uint64_t, KernelType> known;
        for (FrameRow& row : frame.rows) {
            if (compat ? row.stream == -1 : !row.device)
                continue;
            const std::uint64_t key = (std::uint64_t(frame.trace->slices.category[row.slice]) << 32)
                | frame.trace->slices.name[row.slice].value;
            auto [it, added] = known.try_emplace(key, KernelType::Other);
            if (added)
                it->second = classifyKernel(mode, frame.category(row), frame.name(row));
            row.kernelType = it->second;
        }
    }

    // HTA's transform_correlation_to_index: inner join of CPU and GPU sides on
    // correlation; with several matches the last assignment wins.
    void linkCorrelations(RankFrame& frame)
    {
        std::unordered_map<std::int64_t, std::int64_t> lastGpu, lastCpu;
        for (FrameRow& row : frame.rows) {
            row.indexCorrelation = std::min<std::int64_t>(row.correlation, 0);
            if (row.correlation == -1)
                continue;
            if (isGpuSide(row, frame.name(row)))
                lastGpu[row.correlation] = row.eventIndex;
            else
                lastCpu[row.correlation] = row.eventIndex;
        }
        for (FrameRow& row : frame.rows) {
            if (row.correlation == -1)
                continue;
            const bool gpu = isGpuSide(row, frame.name(row));
            const auto& partners = gpu ? lastCpu : lastGpu;
            if (auto it = partners.find(row.correlation); it != partners.end())
                row.indexCorrelation = it->second;
        }
    }

    struct Step
    {
        std::int64_t ts = 0;
        std::int64_t dur = 0;
        std::int64_t number = 0;
    };

    Result<std::vector<Step>> profilerSteps(const RankFrame& frame)
    {
        std::vector<Step> steps;
        for (const FrameRow& row : frame.rows) {
            const std::string_view name = frame.name(row);
            if (name.rfind("ProfilerStep", 0) != 0)
                continue;
            auto n = profilerStepNumber(name);
            if (!n)
                return Error { ErrorCode::NotApplicable,
                    "cannot read the step number of \"" + std::string(name)
                        + "\" (no digits after '#', or more than a 64-bit integer holds)",
                    frame.trace->path, {} };
            steps.push_back(Step { row.ts, row.dur, *n });
        }
        return steps;
    }

    // HTA's add_iteration (§1.5). HTA gives GPU rows their launch's iteration only on
    // streams above 0, so every kernel and copy on stream 0 (HIP's null stream, where
    // ROCm traces put all their work) has none; the default mode gives device work on
    // stream 0 its launch's iteration too (--hta-compat keeps HTA's NaN).
    Result<bool> assignIterations(RankFrame& frame, bool compat)
    {
        auto steps = profilerSteps(frame);
        if (!steps)
            return steps.error();
        // Steps normally follow one another without overlap; then at most one
        // contains a time and a binary search finds it. Otherwise HTA's rule (the
        // last listed step containing the time wins) needs the full scan.
        std::vector<Step> byStart = steps.value();
        std::sort(byStart.begin(), byStart.end(), [](const Step& a, const Step& b) { return a.ts < b.ts; });
        bool disjoint = true;
        for (std::size_t i = 1; i < byStart.size(); ++i)
            disjoint = disjoint && byStart[i - 1].ts + byStart[i - 1].dur <= byStart[i].ts;
        auto stepAt = [&steps, &byStart, disjoint](std::int64_t ts) {
            std::int64_t it = -1;
            if (disjoint) {
                auto next = std::upper_bound(byStart.begin(), byStart.end(), ts,
                    [](std::int64_t t, const Step& s) { return t < s.ts; });
                if (next != byStart.begin() && ts < std::prev(next)->ts + std::prev(next)->dur)
                    it = std::prev(next)->number;
                return it;
            }
            for (const Step& s : steps.value())
                if (s.ts <= ts && ts < s.ts + s.dur)
                    it = s.number;
            return it;
        };
        for (FrameRow& row : frame.rows) {
            if (row.stream < 0 || (row.stream == 0 && frame.category(row) == "cpu_op"))
                row.iteration = stepAt(row.ts);
            else if (row.stream == 0)
                row.iteration = kNoIteration;
        }
        frame.indexRows();
        for (FrameRow& row : frame.rows) {
            if (row.stream < 0 || (row.stream == 0 && (compat || !row.device)))
                continue;
            const FrameRow* partner =
                row.indexCorrelation > 0 ? frame.rowOfEvent(row.indexCorrelation) : nullptr;
            row.iteration = partner ? partner->iteration : -1;
        }
        return true;
    }

    // Q8: HTA finds the rank with the text regex `"rank":\s+(\d+)` (whitespace
    // required after the colon), first match in the file, else 0. Kineto writes
    // distributedInfo before traceEvents, so its raw text is where the match is.
    std::int64_t htaRank(const RankTrace& trace)
    {
        for (const auto& [key, raw] : trace.metadata.rawKeys) {
            if (key != "distributedInfo")
                continue;
            for (std::size_t at = raw.find("\"rank\":"); at != std::string::npos;
                 at = raw.find("\"rank\":", at + 1)) {
                std::size_t i = at + 7;
                const std::size_t spaces = i;
                while (i < raw.size() && std::isspace(static_cast<unsigned char>(raw[i])))
                    ++i;
                if (i == spaces || i >= raw.size() || !std::isdigit(static_cast<unsigned char>(raw[i])))
                    continue;
                std::int64_t rank = 0;
                for (; i < raw.size() && std::isdigit(static_cast<unsigned char>(raw[i])); ++i)
                    rank = rank * 10 + (raw[i] - '0');
                return rank;
            }
        }
        return 0;
    }

    std::string inferDeviceType(const RankTrace& trace)
    {
        if (trace.metadata.backend && trace.metadata.backend->find("mtia:hccl") != std::string::npos)
            return "MTIA";
        if (trace.strings.find("cudaLaunchKernel").valid())
            return "NVIDIA GPU";
        if (trace.strings.find("hipLaunchKernel").valid())
            return "AMD GPU";
        if (trace.strings.find("runFunction - job_prep_and_submit_for_execution").valid())
            return "MTIA";
        return "UNKNOWN GPU";
    }

    // Q2: keep CPU rows before the last step's start and the GPU rows they launched.
    void dropLastStep(RankFrame& frame, const std::set<std::string>& stepNames, bool includeLastStep)
    {
        std::vector<FrameRow> cpu, gpu;
        for (const FrameRow& row : frame.rows)
            (isGpuSide(row, frame.name(row)) ? gpu : cpu).push_back(row);
        if (cpu.empty())
            return;
        std::optional<std::int64_t> lastStart;
        for (const FrameRow& row : cpu)
            if (stepNames.count(std::string(frame.name(row))))
                lastStart = std::max(lastStart.value_or(row.ts), row.ts);
        if (!lastStart) {
            lastStart = cpu.front().ts;
            for (const FrameRow& row : cpu)
                lastStart = std::min(*lastStart, row.ts);
        }
        std::vector<FrameRow> kept;
        std::unordered_map<std::int64_t, std::int64_t> keptCorrelations;
        std::vector<FrameRow> keptCpu;
        for (const FrameRow& row : cpu) {
            // Q11: with include_last_profiler_step HTA compares aligned ts with its
            // stale, still absolute `end`, so every CPU row passes.
            if (includeLastStep || row.ts < *lastStart) {
                keptCpu.push_back(row);
                ++keptCorrelations[row.correlation];
            }
        }
        // pandas inner merge: a GPU row appears once per CPU row with its correlation.
        for (const FrameRow& row : gpu)
            if (auto it = keptCorrelations.find(row.correlation); it != keptCorrelations.end())
                for (std::int64_t k = 0; k < it->second; ++k)
                    kept.push_back(row);
        kept.insert(kept.end(), keptCpu.begin(), keptCpu.end());
        frame.rows = std::move(kept);
    }

    void selectIterations(RankFrame& frame, const std::vector<std::int64_t>& iterations)
    {
        std::erase_if(frame.rows, [&iterations](const FrameRow& row) {
            return std::find(iterations.begin(), iterations.end(), row.iteration) == iterations.end();
        });
    }

} // namespace

bool isDeviceActivityCategory(std::string_view c)
{
    return c == "kernel" || c == "Kernel" || c == "gpu_memcpy" || c == "Memcpy" || c == "gpu_memset"
        || c == "Memset" || c == "mtia_ccp_events";
}

const FrameRow* RankFrame::rowOfEvent(std::int64_t eventIndex) const
{
    if (eventIndex < 0 || static_cast<std::uint64_t>(eventIndex) >= m_rowByEvent.size())
        return nullptr;
    const std::uint32_t row = m_rowByEvent[static_cast<std::size_t>(eventIndex)];
    return row == kNoRow ? nullptr : &rows[row];
}

void RankFrame::indexRows()
{
    std::uint32_t maxEvent = 0;
    for (const FrameRow& row : rows)
        maxEvent = std::max(maxEvent, row.eventIndex);
    m_rowByEvent.assign(rows.empty() ? 0 : std::size_t(maxEvent) + 1, kNoRow);
    for (std::uint32_t i = 0; i < rows.size(); ++i)
        if (m_rowByEvent[rows[i].eventIndex] == kNoRow) // first occurrence wins for duplicated rows
            m_rowByEvent[rows[i].eventIndex] = i;
}

namespace {

    // One rank's rows before the set-wide steps (alignment, Q2, iteration selection).
    struct RankRows
    {
        std::optional<RankFrame> frame; // empty when HTA removes the rank
        std::optional<Error> error;
        std::set<std::string> stepNames;
        std::optional<std::int64_t> minTs;
    };

    RankRows buildRankRows(const std::shared_ptr<const RankTrace>& trace, bool compat)
    {
        RankRows out;
        RankFrame frame;
        frame.rank = compat ? htaRank(*trace) : trace->rank;
        frame.trace = trace;
        frame.rows = selectRows(*trace, compat);
        // pandas column types: a NaN makes a column float; HTA's ns rounding
        // (Q1) leaves ts integral but dur float.
        const bool rounded = trace->counts.fractionalTimestamps || trace->counts.eventWithoutTimestamp;
        frame.floatTimestamps = trace->counts.eventWithoutTimestamp;
        frame.floatDurations =
            rounded || trace->counts.fractionalDurations || trace->counts.eventWithoutDuration;
        if (compat && frame.rows.empty())
            return out; // HTA removes ranks without rows
        classifyGpuWork(frame, compat ? AnalysisMode::HtaCompat : AnalysisMode::Default);
        linkCorrelations(frame);
        if (auto ok = assignIterations(frame, compat); !ok) {
            out.error = ok.error();
            return out;
        }
        for (const FrameRow& row : frame.rows) {
            const std::string_view name = frame.name(row);
            if (name.rfind("ProfilerStep", 0) == 0)
                out.stepNames.emplace(name);
            out.minTs = std::min(out.minTs.value_or(row.ts), row.ts);
        }
        out.frame = std::move(frame);
        return out;
    }

    std::vector<std::shared_ptr<const RankTrace>> selectedTraces(
        const TraceSet& traces, const AnalysisOptions& options)
    {
        const bool compat = options.htaCompat();
        std::vector<std::shared_ptr<const RankTrace>> selected;
        for (const auto& trace : traces.ranks) {
            const std::int64_t rank = compat ? htaRank(*trace) : trace->rank;
            if (options.ranks
                && std::find(options.ranks->begin(), options.ranks->end(), rank) == options.ranks->end())
                continue;
            if (compat) // HTA keeps one file per rank: the one listed last
                std::erase_if(selected, [rank](const auto& t) { return htaRank(*t) == rank; });
            selected.push_back(trace);
        }
        if (compat)
            std::stable_sort(selected.begin(), selected.end(),
                [](const auto& a, const auto& b) { return htaRank(*a) < htaRank(*b); });
        return selected;
    }

} // namespace

Result<FrameSet> buildFrames(
    const TraceSet& traces, const AnalysisOptions& options, const ParallelFor& parallelFor)
{
    FrameSet set;
    set.mode = options.mode;
    const bool compat = options.htaCompat();
    const auto selected = selectedTraces(traces, options);
    std::vector<RankRows> built(selected.size());
    // A cancelled request's frames are never used: ranks not yet begun are skipped.
    parallelFor(selected.size(), [&](std::size_t i) {
        if (!options.cancelled())
            built[i] = buildRankRows(selected[i], compat);
    });
    if (options.cancelled())
        return cancelledError();
    std::set<std::string> stepNames;
    std::optional<std::int64_t> minTs;
    for (RankRows& r : built) {
        if (r.error)
            return *r.error;
        if (!r.frame)
            continue;
        stepNames.merge(r.stepNames);
        if (r.minTs)
            minTs = std::min(minTs.value_or(*r.minTs), *r.minTs);
        set.ranks.push_back(std::move(*r.frame));
    }
    set.minTs = minTs.value_or(0);
    if (!set.ranks.empty())
        set.deviceType = inferDeviceType(*set.ranks.front().trace);
    set.filteredToCompleteSteps =
        compat && !options.diffLoading && stepNames.size() >= 2 && set.deviceType != "MTIA";
    std::vector<std::set<std::int64_t>> iterationsOfRank(set.ranks.size());
    parallelFor(set.ranks.size(), [&](std::size_t i) {
        if (options.cancelled())
            return;
        RankFrame& frame = set.ranks[i];
        for (FrameRow& row : frame.rows)
            row.ts -= set.minTs; // two kept time points (time_range.h): the difference fits
        if (set.filteredToCompleteSteps)
            dropLastStep(frame, stepNames, options.includeLastProfilerStep);
        if (options.iterations)
            selectIterations(frame, *options.iterations);
        frame.indexRows();
        for (const FrameRow& row : frame.rows)
            if (row.iteration >= 0)
                iterationsOfRank[i].insert(row.iteration);
    });
    if (options.cancelled())
        return cancelledError();
    std::set<std::int64_t> iterations;
    for (auto& of : iterationsOfRank)
        iterations.merge(of);
    set.iterations.assign(iterations.begin(), iterations.end());
    return set;
}

} // namespace ks::core
