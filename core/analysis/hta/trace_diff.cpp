#include "core/analysis/hta/trace_diff.h"

#include "core/analysis/frame/kernel_type.h"
#include "core/analysis/tables/microseconds.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace ks::core {

namespace {

    // HTA's LabeledTrace parses the files but neither aligns them nor drops the last
    // ProfilerStep (§12). buildFrames does both in HTA-compatible mode unless told
    // otherwise; the flag is set where the options have it (proposed field, see
    // the issue-4 report), so this file builds before and after it exists.

    // HTA reads iterations from the symbol table: int(name.replace("ProfilerStep#", "")).
    std::optional<std::int64_t> stepSymbolNumber(std::string_view name)
    {
        constexpr std::string_view prefix = "ProfilerStep#";
        if (name.substr(0, prefix.size()) != prefix || name.size() == prefix.size())
            return std::nullopt;
        std::int64_t n = 0;
        for (const char c : name.substr(prefix.size())) {
            if (c < '0' || c > '9')
                return std::nullopt;
            n = n * 10 + (c - '0');
        }
        return n;
    }

    struct NameTotals
    {
        std::int64_t count = 0;
        std::int64_t durationNs = 0;
    };

    struct SideSummary
    {
        std::map<std::string, NameTotals> byName; // std::map: HTA's groupby sorts names
        bool floatDurations = false;
    };

    bool takesRow(const FrameRow& row, DiffDevice device, AnalysisMode mode)
    {
        if (device == DiffDevice::All)
            return true;
        // HTA splits on stream != -1 (sync events count as GPU, Q3); Kinetoscope on device activity.
        const bool gpu = mode == AnalysisMode::HtaCompat ? row.stream != -1 : row.device;
        return device == DiffDevice::Gpu ? gpu : !gpu;
    }

    Result<std::vector<std::int64_t>> chosen(const std::optional<std::vector<std::int64_t>>& requested,
        const std::vector<std::int64_t>& available, const std::string& what, const std::string& label)
    {
        if (!requested) {
            if (available.empty())
                return Error { ErrorCode::NotApplicable, label + " trace has no " + what, {}, {} };
            return std::vector<std::int64_t> { available.front() };
        }
        const auto missing = std::find_if(requested->begin(), requested->end(), [&](std::int64_t v) {
            return std::find(available.begin(), available.end(), v) == available.end();
        });
        if (missing != requested->end())
            return Error { ErrorCode::NotApplicable,
                label + " trace has no " + what + " " + std::to_string(*missing), {}, {} };
        return *requested;
    }

    Result<SideSummary> summarize(
        const DiffTrace& trace, const TraceDiffSide& side, const TraceDiffOptions& options)
    {
        std::vector<std::int64_t> ranks;
        for (const RankFrame& f : trace.frames.ranks)
            ranks.push_back(f.rank);
        auto rankChoice = chosen(side.ranks, ranks, "rank", side.label);
        if (!rankChoice)
            return rankChoice.error();
        // Default mode compares whole traces that have no ProfilerStep; HTA raises there.
        const bool allIterations =
            options.mode == AnalysisMode::Default && trace.iterations.empty() && !side.iterations;
        std::vector<std::int64_t> iterations;
        if (!allIterations) {
            auto iterationChoice = chosen(side.iterations, trace.iterations, "iteration", side.label);
            if (!iterationChoice)
                return iterationChoice.error();
            iterations = std::move(iterationChoice).value();
        }
        const std::set<std::int64_t> rankSet(rankChoice.value().begin(), rankChoice.value().end());
        const std::set<std::int64_t> iterationSet(iterations.begin(), iterations.end());
        SideSummary summary;
        for (const RankFrame& frame : trace.frames.ranks) {
            if (!rankSet.count(frame.rank))
                continue;
            summary.floatDurations = summary.floatDurations || frame.floatDurations;
            // Totals per interned name first: no string per row.
            std::unordered_map<std::uint32_t, NameTotals> byId;
            for (const FrameRow& row : frame.rows) {
                if (!allIterations && !iterationSet.count(row.iteration))
                    continue;
                if (!takesRow(row, options.device, options.mode))
                    continue;
                NameTotals& t = byId[frame.trace->slices.name[row.slice].value];
                ++t.count;
                t.durationNs += row.dur;
            }
            for (const auto& [id, totals] : byId) {
                const std::string_view name = frame.trace->name(NameId(id));
                NameTotals& t = summary.byName[options.shortNames ? shortenName(name) : std::string(name)];
                t.count += totals.count;
                t.durationNs += totals.durationNs;
            }
        }
        return summary;
    }

    Cell countCell(std::int64_t n, bool asFloat)
    {
        return asFloat ? Cell(static_cast<double>(n)) : Cell(n);
    }

    struct DiffColumns
    {
        bool controlFloat = false; // a name missing on this side: NaN, then fillna(0), leaves floats
        bool testFloat = false;
        bool controlDurFloat = false;
        bool testDurFloat = false;
    };

    std::pair<std::string, std::string> labels(const TraceDiffOptions& options)
    {
        std::string control = options.control.label;
        std::string test = options.test.label;
        if (control == test) // HTA renames the test side twice
            test += options.mode == AnalysisMode::HtaCompat ? "_control_test" : "_test";
        return { control, test };
    }

    Table diffTable(const SideSummary& control, const SideSummary& test, const TraceDiffOptions& options)
    {
        const auto [controlLabel, testLabel] = labels(options);
        const std::string key = options.shortNames ? "short_name" : "name";
        Table t;
        t.name = "compare_traces";
        t.columns = { { key, "" }, { controlLabel + "_counts", "" },
            { controlLabel + "_total_duration", "us" }, { testLabel + "_counts", "" },
            { testLabel + "_total_duration", "us" }, { "diff_counts", "" }, { "diff_duration", "us" },
            { "counts_change_categories", "" } };
        t.indexColumns = { key };
        std::set<std::string> names;
        for (const auto& [name, totals] : control.byName)
            names.insert(name);
        for (const auto& [name, totals] : test.byName)
            names.insert(name);
        DiffColumns c;
        const bool compat = options.mode == AnalysisMode::HtaCompat;
        c.controlFloat = compat && names.size() != control.byName.size();
        c.testFloat = compat && names.size() != test.byName.size();
        // Default mode: exact ns durations shown as µs (fractions kept).
        c.controlDurFloat = !compat || c.controlFloat || control.floatDurations;
        c.testDurFloat = !compat || c.testFloat || test.floatDurations;
        for (const std::string& name : names) {
            const auto ci = control.byName.find(name);
            const auto ti = test.byName.find(name);
            const NameTotals a = ci == control.byName.end() ? NameTotals {} : ci->second;
            const NameTotals b = ti == test.byName.end() ? NameTotals {} : ti->second;
            const std::int64_t diffCount = b.count - a.count;
            t.addRow(
                { name, countCell(a.count, c.controlFloat), microsecondsCell(a.durationNs, c.controlDurFloat),
                    countCell(b.count, c.testFloat), microsecondsCell(b.durationNs, c.testDurFloat),
                    countCell(diffCount, c.controlFloat || c.testFloat),
                    microsecondsCell(b.durationNs - a.durationNs, c.controlDurFloat || c.testDurFloat),
                    std::string(diffCount > 0 ? "+"
                            : diffCount < 0   ? "-"
                                              : "=") });
        }
        return t;
    }

    Result<Table> diff(const DiffTrace& control, const DiffTrace& test, const TraceDiffOptions& options)
    {
        auto a = summarize(control, options.control, options);
        if (!a)
            return a.error();
        auto b = summarize(test, options.test, options);
        if (!b)
            return b.error();
        return diffTable(a.value(), b.value(), options);
    }

    HtaResult nameList(const Table& table, const std::function<bool(double, double, double)>& keep)
    {
        HtaResult list;
        list.kind = HtaResult::Kind::List;
        for (const auto& row : table.rows) {
            const double control = cellAsDouble(row[1]).value_or(0.0);
            const double test = cellAsDouble(row[3]).value_or(0.0);
            const double difference = cellAsDouble(row[5]).value_or(0.0);
            if (!keep(control, test, difference))
                continue;
            HtaResult item;
            item.kind = HtaResult::Kind::Scalar;
            item.scalar = row[0];
            list.items.push_back(std::move(item));
        }
        return list;
    }

} // namespace

std::string shortenName(std::string_view name)
{
    // HTA's is_memory_kernel: re.match of ^(hip)?Memcpy, ^(hip)?Memset, ^dma (anchored).
    if (name.starts_with("Memcpy") || name.starts_with("Memset") || name.starts_with("hipMemcpy")
        || name.starts_with("hipMemset") || name.starts_with("dma"))
        return std::string(name);
    if (name.find('(') == std::string_view::npos && name.find('<') == std::string_view::npos)
        return std::string(name);
    return shortenBracketedName(name);
}

Result<DiffTrace> loadDiffTrace(const TraceSet& traces, AnalysisMode mode)
{
    AnalysisOptions options;
    options.mode = mode;
    options.diffLoading = true;
    auto frames = buildFrames(traces, options);
    if (!frames)
        return frames.error();
    DiffTrace trace;
    trace.frames = std::move(frames).value();
    std::set<std::int64_t> steps;
    for (const RankFrame& frame : trace.frames.ranks)
        for (std::uint32_t s = 0; s < frame.trace->slices.size(); ++s)
            if (auto n = stepSymbolNumber(frame.trace->sliceName(s)))
                steps.insert(*n);
    trace.iterations.assign(steps.begin(), steps.end());
    return trace;
}

AnalysisOutput compareTraces(const DiffTrace& control, const DiffTrace& test, const TraceDiffOptions& options)
{
    auto table = diff(control, test, options);
    if (!table)
        return AnalysisOutput::notApplicable(table.error().message);
    return AnalysisOutput::of(HtaResult::dataFrame(std::move(table).value()));
}

AnalysisOutput opsDiff(const DiffTrace& control, const DiffTrace& test, const TraceDiffOptions& options)
{
    auto table = diff(control, test, options);
    if (!table)
        return AnalysisOutput::notApplicable(table.error().message);
    const Table& t = table.value();
    HtaResult dict;
    dict.kind = HtaResult::Kind::Dict;
    dict.entries.emplace_back(
        "added", nameList(t, [](double c, double x, double) { return c == 0 && x > 0; }));
    dict.entries.emplace_back(
        "deleted", nameList(t, [](double c, double x, double) { return c > 0 && x == 0; }));
    dict.entries.emplace_back(
        "increased", nameList(t, [](double c, double, double d) { return c > 0 && d > 0; }));
    dict.entries.emplace_back(
        "decreased", nameList(t, [](double, double x, double d) { return x > 0 && d < 0; }));
    dict.entries.emplace_back(
        "unchanged", nameList(t, [](double, double x, double d) { return x > 0 && d == 0; }));
    return AnalysisOutput::of(std::move(dict));
}

} // namespace ks::core
