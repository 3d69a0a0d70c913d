#include "core/analysis/hta/user_annotation_breakdown.h"

#include "core/analysis/hta/name_stats.h"

#include <algorithm>
#include <map>
#include <regex>
#include <string>
#include <utility>

namespace ks::core {

namespace {

    std::string_view annotationCategory(const AnalysisOptions& options)
    {
        return options.annotations.useGpuAnnotation ? "gpu_user_annotation" : "user_annotation";
    }

    // HTA returns None when its symbol table (names and categories of every loaded event,
    // dropped rows included) lacks the category.
    bool traceHasCategory(const FrameSet& frames, std::string_view category)
    {
        return std::any_of(frames.ranks.begin(), frames.ranks.end(), [category](const RankFrame& f) {
            return f.trace && f.trace->counts.byCategory.count(category) > 0;
        });
    }

    // The allowlist as a predicate. Compat: HTA joins re.escape(p) of each pattern, so
    // they match as literal substrings (§16); default: each is a regular expression.
    // An invalid expression is reported in `problem`.
    std::function<bool(const std::string&)> allowlistPredicate(
        const std::vector<std::string>& patterns, AnalysisMode mode, std::string& problem)
    {
        if (patterns.empty())
            return {};
        if (mode == AnalysisMode::HtaCompat)
            return [patterns](const std::string& name) {
                return std::any_of(patterns.begin(), patterns.end(),
                    [&name](const std::string& p) { return name.find(p) != std::string::npos; });
            };
        std::vector<std::regex> expressions;
        for (const std::string& p : patterns) {
            try {
                expressions.emplace_back(p, std::regex::ECMAScript);
            } catch (const std::regex_error& e) {
                problem = "invalid allowlist pattern '" + p + "': " + e.what();
                return {};
            }
        }
        return [expressions = std::move(expressions)](const std::string& name) {
            return std::any_of(expressions.begin(), expressions.end(),
                [&name](const std::regex& r) { return std::regex_search(name, r); });
        };
    }

    struct AnnotationRow
    {
        NameStats stats;
        std::int64_t rank = 0;
    };

} // namespace

// §16. Durations are HTA's µs (compat, Q1 rounding included) or exact ns (default).
AnalysisOutput userAnnotationBreakdown(const FrameSet& frames, const AnalysisOptions& options)
{
    const UserAnnotationOptions& ua = options.annotations;
    if (!(ua.durationRatio >= 0.0 && ua.durationRatio <= 1.0)) // pandas' quantile raises outside [0, 1]
        return AnalysisOutput::notApplicable("duration ratio must be between 0 and 1");
    const AnalysisMode mode = frames.mode;
    const bool compat = mode == AnalysisMode::HtaCompat;
    const std::string_view category = annotationCategory(options);
    if (!traceHasCategory(frames, category)) {
        if (compat)
            return AnalysisOutput::of(HtaResult::none());
        return AnalysisOutput::notApplicable("the trace has no " + std::string(category) + " events");
    }
    std::string problem;
    NameFolding folding { ua.durationRatio, ua.numKernels, allowlistPredicate(ua.allowlist, mode, problem) };
    if (!problem.empty())
        return AnalysisOutput::notApplicable(problem);

    std::vector<AnnotationRow> rows;
    for (const RankFrame& frame : frames.ranks) {
        std::map<std::string, std::vector<double>> byName;
        for (const FrameRow& row : frame.rows)
            if (frame.category(row) == category)
                byName[std::string(frame.name(row))].push_back(
                    compat ? static_cast<double>(row.dur) / 1000.0 : static_cast<double>(row.dur));
        for (NameStats& s : aggregateByName(byName, folding, mode))
            rows.push_back({ std::move(s), frame.rank });
    }
    // HTA sorts by rank, then name (byte-wise).
    std::sort(rows.begin(), rows.end(), [](const AnnotationRow& a, const AnnotationRow& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.stats.name < b.stats.name;
    });
    Table table;
    table.name = compat ? "user_annotation_breakdown" : std::string(category) + "_breakdown";
    using namespace user_annotation_breakdown;
    for (const ColumnId& c : { kName, kSum, kMax, kMin, kStddev, kMean, kRank })
        table.columns.push_back(c.column(mode));
    const double scale = compat ? 1.0 : 1.0 / 1000.0;
    for (const AnnotationRow& r : rows) {
        const NameStats& s = r.stats;
        table.addRow(
            { s.name, s.sum * scale, s.max * scale, s.min * scale, s.std * scale, s.mean * scale, r.rank });
    }
    return AnalysisOutput::of(HtaResult::dataFrame(std::move(table)));
}

} // namespace ks::core
