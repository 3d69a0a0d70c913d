// `kinetoscope-cli check`: a gate for CI. Computes a few per-rank metrics and
// exits non-zero when one crosses a threshold, printing one line per check.

#include "app/cli/cli_args.h"
#include "app/cli/commands/commands.h"
#include "app/cli/commands/insights_cli.h"
#include "app/cli/inputs/load_for_cli.h"
#include "app/cli/output/cli_output.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/hta/comm_comp_overlap.h"
#include "core/analysis/hta/temporal_breakdown.h"

#include <cstdint>
#include <cstdio>
#include <map>
#include <ostream>

namespace ks::cli {

namespace {

    constexpr int kWithinLimits = 0;
    constexpr int kLimitCrossed = 1;
    constexpr int kUsageExit = 2;
    constexpr int kCannotMeasure = 3;

    constexpr const char* kUsage =
        "usage: kinetoscope-cli check PATH... [--max METRIC=V,..] [--min METRIC=V,..]\n"
        "       [--max-gain RULE=P,..] [--set RULE.PARAM=V]... [--hta-compat] [--ranks R,..]\n"
        "       [--iterations I,..] [--threads N]\n"
        "metrics (per rank): idle_pct, compute_pct, non_compute_pct (temporal breakdown),\n"
        "       overlap_pct (communication/computation overlap), anomalies (import diagnostics)\n"
        "--max-gain: fail when an insights finding of RULE (kinetoscope-cli insights --list-rules)\n"
        "       would give back more than P % of the step time\n"
        "exit: 0 every rank within limits, 1 a limit crossed, 2 usage, 3 nothing to measure\n";

    // The analysis a metric comes from and its column there; anomalies come from the trace itself.
    enum class MetricAnalysis : std::uint8_t
    {
        TemporalBreakdown,
        CommCompOverlap
    };

    struct MetricSource
    {
        MetricAnalysis analysis;
        core::ColumnId column;
    };

    const std::map<std::string, MetricSource> kSourceOfMetric {
        { "idle_pct", { MetricAnalysis::TemporalBreakdown, core::temporal_breakdown::kIdlePctg } },
        { "compute_pct", { MetricAnalysis::TemporalBreakdown, core::temporal_breakdown::kComputePctg } },
        { "non_compute_pct",
            { MetricAnalysis::TemporalBreakdown, core::temporal_breakdown::kNonComputePctg } },
        { "overlap_pct", { MetricAnalysis::CommCompOverlap, core::comm_comp_overlap::kOverlapPctg } },
    };

    struct Limit
    {
        std::string metric;
        double value = 0;
        bool isMax = true;
    };

    // "idle_pct=20,overlap_pct=50" -> limits; false (with `error`) when malformed.
    bool parseLimits(
        const std::optional<std::string>& text, bool isMax, std::vector<Limit>& out, std::string& error)
    {
        if (!text)
            return true;
        for (std::size_t pos = 0; pos <= text->size();) {
            const std::size_t comma = std::min(text->find(',', pos), text->size());
            const std::string item = text->substr(pos, comma - pos);
            const std::size_t eq = item.find('=');
            Limit limit { item.substr(0, eq), 0, isMax };
            if (eq == std::string::npos
                || (!kSourceOfMetric.count(limit.metric) && limit.metric != "anomalies")) {
                error = "not METRIC=VALUE with a known metric: '" + item + "'";
                return false;
            }
            try {
                std::size_t used = 0;
                limit.value = std::stod(item.substr(eq + 1), &used);
                if (used != item.size() - eq - 1)
                    throw std::invalid_argument(item);
            } catch (...) {
                error = "not a number in '" + item + "'";
                return false;
            }
            out.push_back(limit);
            pos = comma + 1;
        }
        return true;
    }

    // rank -> value of one analysis column, from the analysis's first table.
    // Both analyses' tables name the rank column alike (temporal_breakdown::kRank, comm_comp_overlap::kRank).
    std::map<std::int64_t, double> columnByRank(
        const core::AnalysisOutput& output, const core::ColumnId& column)
    {
        std::map<std::int64_t, double> values;
        if (!output.ok || output.result.kind != core::HtaResult::Kind::DataFrame)
            return values;
        const core::Table& t = output.result.frame;
        const auto rankColumn = t.find(core::temporal_breakdown::kRank);
        const auto valueColumn = t.find(column);
        if (!rankColumn || !valueColumn)
            return values;
        for (const auto& row : t.rows) {
            const auto rank = core::cellAsDouble(row[*rankColumn]);
            const auto value = core::cellAsDouble(row[*valueColumn]);
            if (rank && value)
                values[static_cast<std::int64_t>(*rank)] = *value;
        }
        return values;
    }

    struct GainLimit
    {
        std::string rule;
        double pct = 0;
    };

    // "gpu_idle_sync=5,straggler=10" -> limits; false (with `error`) when malformed or a rule is unknown.
    bool parseGainLimits(
        const std::optional<std::string>& text, std::vector<GainLimit>& out, std::string& error)
    {
        if (!text)
            return true;
        for (std::size_t pos = 0; pos <= text->size();) {
            const std::size_t comma = std::min(text->find(',', pos), text->size());
            const std::string item = text->substr(pos, comma - pos);
            pos = comma + 1;
            const std::size_t eq = item.find('=');
            const auto ids = core::parseRuleIds(item.substr(0, eq));
            if (eq == std::string::npos || !ids || ids.value().size() != 1) {
                error = "--max-gain: not RULE=PERCENT with a known rule: '" + item + "'";
                return false;
            }
            try {
                std::size_t used = 0;
                const double pct = std::stod(item.substr(eq + 1), &used);
                if (used != item.size() - eq - 1)
                    throw std::invalid_argument(item);
                out.push_back({ ids.value().front(), pct });
            } catch (...) {
                error = "--max-gain: not a number in '" + item + "'";
                return false;
            }
        }
        return true;
    }

    std::string formatValue(double v)
    {
        char text[32];
        std::snprintf(text, sizeof text, "%.2f", v);
        return text;
    }

    // Runs the rules of `gains` and prints one line per rule; the exit status.
    int checkGains(
        const CliArgs& parsed, const std::vector<GainLimit>& gains, std::ostream& out, std::ostream& err)
    {
        std::string problem;
        core::InsightsOptions options = insightsOptions(parsed, problem);
        if (!problem.empty()) {
            err << "kinetoscope-cli check: " << problem << '\n';
            return kUsageExit;
        }
        for (const GainLimit& g : gains)
            options.rules.push_back(g.rule);
        const auto report = insightsForCli(parsed, options, "kinetoscope-cli check", err);
        if (!report)
            return kCannotMeasure;
        int status = kWithinLimits;
        for (const GainLimit& g : gains) {
            const auto na = std::find_if(report->notApplicable.begin(), report->notApplicable.end(),
                [&](const core::RuleNotApplicable& n) { return n.rule == g.rule; });
            if (na != report->notApplicable.end()) {
                out << g.rule << ": not applicable: " << na->reason << '\n';
                status = std::max(status, kCannotMeasure);
                continue;
            }
            double gain = 0;
            for (const core::Finding& f : report->findings)
                if (f.rule == g.rule)
                    gain = std::max(gain, f.gainPct);
            const bool crossed = gain > g.pct;
            out << g.rule << ": gain " << formatValue(gain) << " % <= " << formatValue(g.pct)
                << (crossed ? " %  FAILED" : " %  ok") << '\n';
            if (crossed && status == kWithinLimits)
                status = kLimitCrossed;
        }
        return status;
    }

} // namespace

const char* const kCheckUsage = kUsage;

int runCheckCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CliArgs parsed(args, { "--max", "--min", "--max-gain", "--set", "--ranks", "--iterations", "--threads" },
        { "--hta-compat" });
    std::vector<Limit> limits;
    std::vector<GainLimit> gains;
    std::string problem;
    if (!parsed.ok() || parsed.positional().empty()
        || !parseLimits(parsed.value("--max"), true, limits, problem)
        || !parseLimits(parsed.value("--min"), false, limits, problem)
        || !parseGainLimits(parsed.value("--max-gain"), gains, problem)
        || (limits.empty() && gains.empty())) {
        err << "kinetoscope-cli check: "
            << (!parsed.ok()                         ? parsed.error()
                       : parsed.positional().empty() ? std::string("give at least one PATH")
                       : !problem.empty()            ? problem
                                          : std::string("give at least one --max, --min or --max-gain"))
            << '\n'
            << kUsage;
        return kUsageExit;
    }
    core::AnalysisOptions options;
    options.mode = parsed.flag("--hta-compat") ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
    options.ranks = parseNumberList(parsed.value("--ranks"), problem);
    options.iterations = parseNumberList(parsed.value("--iterations"), problem);
    if (!problem.empty()) {
        err << "kinetoscope-cli check: " << problem << '\n' << kUsage;
        return kUsageExit;
    }
    if (limits.empty())
        return checkGains(parsed, gains, out, err);
    auto frames = loadFramesForCli(parsed, options, "kinetoscope-cli check", err);
    if (!frames)
        return kCannotMeasure;
    if (frames->ranks.empty()) {
        err << "kinetoscope-cli check: no rank to measure\n";
        return kCannotMeasure;
    }
    const core::AnalysisOutput temporal = core::temporalBreakdown(frames.value(), options);
    const core::AnalysisOutput overlap = core::commCompOverlap(frames.value(), options);
    int status = kWithinLimits;
    for (const Limit& limit : limits) {
        std::map<std::int64_t, double> values;
        if (limit.metric == "anomalies") {
            for (const core::RankFrame& f : frames.value().ranks)
                values[f.rank] = static_cast<double>(f.trace->diagnostics.anomalies());
        } else {
            const MetricSource& source = kSourceOfMetric.at(limit.metric);
            values = columnByRank(
                source.analysis == MetricAnalysis::CommCompOverlap ? overlap : temporal, source.column);
        }
        if (values.empty()) {
            out << limit.metric << ": not measurable on these ranks\n";
            status = std::max(status, kCannotMeasure);
            continue;
        }
        for (const auto& [rank, value] : values) {
            const bool crossed = limit.isMax ? value > limit.value : value < limit.value;
            out << "rank " << rank << ": " << limit.metric << " " << formatValue(value)
                << (limit.isMax ? " <= " : " >= ") << formatValue(limit.value)
                << (crossed ? "  FAILED" : "  ok") << '\n';
            if (crossed && status == kWithinLimits)
                status = kLimitCrossed;
        }
    }
    if (!gains.empty())
        status = std::max(status, checkGains(parsed, gains, out, err));
    return status;
}

} // namespace ks::cli
