#include "core/insights/insights_format.h"

#include "core/common/json_text.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace ks::core {

namespace {

    std::string number(double v, const char* format = "%.2f")
    {
        char text[48];
        std::snprintf(text, sizeof text, format, v);
        return text;
    }

    std::string microseconds(TimeNs ns)
    {
        return number(static_cast<double>(ns) / 1000.0, "%.3f");
    }

    template <typename T, typename F>
    std::string joined(const std::vector<T>& items, const std::string& separator, F text)
    {
        std::string out;
        for (std::size_t i = 0; i < items.size(); ++i)
            out += (i ? separator : "") + text(items[i]);
        return out;
    }

    std::string intList(const std::vector<std::int64_t>& v)
    {
        return joined(v, ",", [](std::int64_t x) { return std::to_string(x); });
    }

    std::string csvField(const std::string& text)
    {
        if (text.find_first_of(",\"\n") == std::string::npos)
            return text;
        std::string out = "\"";
        for (const char c : text)
            out += c == '"' ? std::string("\"\"") : std::string(1, c);
        return out + "\"";
    }

    std::string measuredLine(const InsightsReport& report)
    {
        return "gains are shares of " + report.measuredWhat + " ("
            + number(static_cast<double>(report.measuredNs) / 1e6, "%.3f")
            + " ms on the critical path's measure)";
    }

    // "12.3 %", or "12.3-45.6 %" when the model gives a range (ranked by its low end).
    std::string gainText(const Finding& f)
    {
        const double high = std::max(f.gainPct, f.gainHighPct);
        if (high - f.gainPct < 0.05)
            return number(f.gainPct, "%.1f") + " %";
        return number(f.gainPct, "%.1f") + "-" + number(high, "%.1f") + " %";
    }

    std::string firstTwoLine(const InsightsReport& report)
    {
        return "fixing the first two together gives back " + number(*report.firstTwoGainPct, "%.1f")
            + " % (both fixes re-timed at once; time both give back counts once)";
    }

} // namespace

std::string rankRuns(const std::vector<std::int64_t>& ranks)
{
    std::string out;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        out += (out.empty() ? "" : ",") + std::to_string(ranks[i]);
        if (j > i)
            out += (j == i + 1 ? "," : "-") + std::to_string(ranks[j]);
        i = j + 1;
    }
    return out;
}

std::string whereSummary(const Finding& finding)
{
    std::string out;
    for (const RankWhere& w : finding.where) {
        if (!out.empty())
            out += "; ";
        out += "rank " + std::to_string(w.rank) + ": ";
        if (!w.events.empty())
            out += "events "
                + intList(std::vector<std::int64_t>(w.events.begin(),
                    w.events.begin()
                        + static_cast<std::ptrdiff_t>(std::min<std::size_t>(w.events.size(), 5))))
                + (w.events.size() > 5 ? ",..." : "");
        else if (!w.ranges.empty())
            out += std::to_string(w.ranges.size()) + " time range(s) from "
                + microseconds(w.ranges.front().start) + " us";
        if (out.size() > 160)
            return out + " ...";
    }
    return out;
}

std::string insightsJson(const InsightsReport& report)
{
    std::string out = "[";
    for (std::size_t i = 0; i < report.findings.size(); ++i) {
        const Finding& f = report.findings[i];
        out += i ? ",\n " : "\n ";
        out += "{\"rule\": " + jsonString(f.rule) + ", \"title\": " + jsonString(f.title) + ", \"gain_pct\": "
            + number(f.gainPct, "%.4f") + ", \"gain_low_pct\": " + number(f.gainPct, "%.4f")
            + ", \"gain_high_pct\": " + number(std::max(f.gainPct, f.gainHighPct), "%.4f")
            + ", \"severity\": " + jsonString(severityName(f.severity)) + ", \"ranks\": [" + intList(f.ranks)
            + "], \"iterations\": [" + intList(f.iterations) + "], \"evidence\": ["
            + joined(f.evidence, ", ", [](const std::string& e) { return jsonString(e); })
            + "], \"suggestion\": " + jsonString(f.suggestion) + ", \"where\": ["
            + joined(f.where, ", ",
                [](const RankWhere& w) {
                    return "{\"rank\": " + std::to_string(w.rank) + ", \"events\": [" + intList(w.events)
                        + "], \"ranges\": ["
                        + joined(w.ranges, ", ",
                            [](const TimeRange& r) {
                                return "{\"start_us\": " + microseconds(r.start)
                                    + ", \"end_us\": " + microseconds(r.end) + "}";
                            })
                        + "]}";
                })
            + "], \"gain_basis\": " + jsonString(f.gainBasis) + ", \"what_if\": ["
            + joined(f.whatIf, ", ", [](const std::string& w) { return jsonString(w); }) + "]}";
    }
    return out + (report.findings.empty() ? "]\n" : "\n]\n");
}

std::string insightsMarkdown(const InsightsReport& report)
{
    std::ostringstream out;
    out << "# Insights\n\n" << measuredLine(report) << ".\n\n";
    if (report.firstTwoGainPct)
        out << firstTwoLine(report) << ".\n\n";
    if (report.findings.empty())
        out << "No finding passed its thresholds.\n\n";
    else {
        out << "| # | rule | gain | severity | ranks | finding |\n|---|---|---|---|---|---|\n";
        for (std::size_t i = 0; i < report.findings.size(); ++i) {
            const Finding& f = report.findings[i];
            out << "| " << i + 1 << " | `" << f.rule << "` | " << gainText(f) << " | "
                << severityName(f.severity) << " | " << rankRuns(f.ranks) << " | " << f.title << " |\n";
        }
        out << '\n';
    }
    for (std::size_t i = 0; i < report.findings.size(); ++i) {
        const Finding& f = report.findings[i];
        out << "## " << i + 1 << ". " << f.title << " (`" << f.rule << "`, " << gainText(f) << ")\n\n";
        for (const std::string& e : f.evidence)
            out << "- " << e << '\n';
        out << "\n**Suggestion:** " << f.suggestion << "\n\n";
        out << "*Gain:* " << f.gainBasis;
        if (!f.whatIf.empty())
            out << " (`critical-path --all-ranks"
                << joined(f.whatIf, "", [](const std::string& w) { return " --what-if " + w; }) << "`)";
        out << ".  \n*Where:* " << whereSummary(f) << "\n\n";
    }
    if (!report.notApplicable.empty()) {
        out << "## Not applicable\n\n";
        for (const RuleNotApplicable& na : report.notApplicable)
            out << "- `" << na.rule << "`: " << na.reason << '\n';
    }
    return out.str();
}

std::string insightsTable(const InsightsReport& report)
{
    std::ostringstream out;
    out << measuredLine(report) << '\n';
    if (report.firstTwoGainPct)
        out << firstTwoLine(report) << '\n';
    if (report.findings.empty())
        out << "no finding passed its thresholds\n";
    for (std::size_t i = 0; i < report.findings.size(); ++i) {
        const Finding& f = report.findings[i];
        out << '\n'
            << i + 1 << ". [" << number(f.gainPct, "%5.1f") << " %] " << severityName(f.severity) << "  "
            << f.rule << ": " << f.title << '\n';
        out << "   ranks: " << rankRuns(f.ranks);
        if (!f.iterations.empty())
            out << "   iterations: " << intList(f.iterations);
        out << '\n';
        for (const std::string& e : f.evidence)
            out << "   - " << e << '\n';
        out << "   suggestion: " << f.suggestion << '\n';
        out << "   gain: " << gainText(f) << ", " << f.gainBasis << '\n';
        out << "   where: " << whereSummary(f) << '\n';
    }
    for (const RuleNotApplicable& na : report.notApplicable)
        out << "\n" << na.rule << ": not applicable: " << na.reason;
    if (!report.notApplicable.empty())
        out << '\n';
    return out.str();
}

std::string insightsCsv(const InsightsReport& report)
{
    std::string out = "rule,gain_pct,severity,ranks,iterations,title,evidence,suggestion,where,gain_low_pct,"
                      "gain_high_pct\n";
    for (const Finding& f : report.findings)
        out += csvField(f.rule) + "," + number(f.gainPct, "%.4f") + ","
            + std::string(severityName(f.severity)) + "," + csvField(intList(f.ranks)) + ","
            + csvField(intList(f.iterations)) + "," + csvField(f.title) + ","
            + csvField(joined(f.evidence, " | ", [](const std::string& e) { return e; })) + ","
            + csvField(f.suggestion) + "," + csvField(whereSummary(f)) + "," + number(f.gainPct, "%.4f") + ","
            + number(std::max(f.gainPct, f.gainHighPct), "%.4f") + "\n";
    return out;
}

} // namespace ks::core
