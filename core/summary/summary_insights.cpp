#include "core/summary/summary_insights.h"

#include "core/analysis/cross_rank/rank_overview.h"
#include "core/common/median.h"
#include "core/insights/arrival_findings.h"
#include "core/summary/job_overview.h"
#include "core/summary/summary_reader.h"
#include "core/summary/summary_schema.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace ks::core {

namespace {

    constexpr std::string_view kStatusPrefix = "insights:";

    std::string joinInts(const std::vector<std::int64_t>& v)
    {
        std::string out;
        for (std::size_t i = 0; i < v.size(); ++i)
            out += (i ? "," : "") + std::to_string(v[i]);
        return out;
    }

    std::vector<std::int64_t> splitInts(const std::string& text)
    {
        std::vector<std::int64_t> out;
        std::istringstream in(text);
        std::string item;
        while (std::getline(in, item, ','))
            if (!item.empty())
                out.push_back(std::stoll(item));
        return out;
    }

    std::string joinLines(const std::vector<std::string>& lines)
    {
        std::string out;
        for (std::size_t i = 0; i < lines.size(); ++i)
            out += (i ? "\n" : "") + lines[i];
        return out;
    }

    std::vector<std::string> splitLines(const std::string& text)
    {
        std::vector<std::string> out;
        std::istringstream in(text);
        std::string line;
        while (std::getline(in, line))
            out.push_back(line);
        return out;
    }

    Severity severityFromName(std::string_view name)
    {
        if (name == "critical")
            return Severity::Critical;
        if (name == "warning")
            return Severity::Warning;
        return Severity::Info;
    }

    // "a, b, c" of at most `limit` ranks' files, "+ N more".
    std::string filesOf(const JobOverview& job, const std::vector<std::int64_t>& ranks, std::size_t limit = 4)
    {
        std::string out;
        std::size_t shown = 0;
        for (const std::int64_t r : ranks)
            for (const JobRank& jr : job.ranks)
                if (jr.rank == r && jr.ok() && shown < limit) {
                    out += (shown++ ? " " : "") + jr.file;
                    break;
                }
        if (ranks.size() > shown)
            out += " (+" + std::to_string(ranks.size() - shown) + " more)";
        return out;
    }

    // The ranks job mode marks: rank_iterations' straggler flag and compute outliers.
    std::vector<std::int64_t> suspectRanks(const JobOverview& job)
    {
        std::vector<std::int64_t> ranks;
        const auto rank = job.rankOverview.find(rank_overview::kRank);
        const auto flag = job.rankOverview.find(rank_overview::kStraggler);
        if (rank && flag)
            for (const auto& row : job.rankOverview.rows)
                if (cellAsDouble(row[*flag]).value_or(0) > 0)
                    ranks.push_back(static_cast<std::int64_t>(cellAsDouble(row[*rank]).value_or(-1)));
        for (const std::size_t row : computeOutlierRows(job.profiles))
            ranks.push_back(job.ranks[row].rank);
        std::sort(ranks.begin(), ranks.end());
        ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
        return ranks;
    }

    // The share of GPU communication time that overlaps GPU compute, per bin of the
    // job's utilisation, on the median rank (of `rows`, empty: every rank with communication).
    double commOverlapPct(const JobProfiles& profiles, const std::vector<std::size_t>& rows)
    {
        std::vector<double> shares;
        const std::size_t count = profiles.bins > 0 ? profiles.shares.size() / profiles.bins : 0;
        for (std::size_t r = 0; r < count; ++r) {
            if (!rows.empty() && std::find(rows.begin(), rows.end(), r) == rows.end())
                continue;
            double comm = 0;
            double overlapped = 0;
            for (const KindShares& bin : profiles.row(r)) {
                comm += bin[1];
                overlapped += std::min(bin[0], bin[1]);
            }
            if (comm > 0)
                shares.push_back(100.0 * overlapped / comm);
        }
        return median(shares).value_or(0);
    }

} // namespace

std::string insightsStatusName(std::string_view rule)
{
    return std::string(kStatusPrefix) + std::string(rule);
}

std::vector<std::vector<Cell>> findingRows(const RankInsights& insights)
{
    std::vector<std::vector<Cell>> rows;
    rows.push_back({ insights.rank, std::string(), std::string(), 0.0, std::string(), std::string(),
        std::string(), std::string(), std::string(), std::string(), std::string(), std::string(),
        static_cast<std::int64_t>(insights.measuredNs), std::string(), 0.0 });
    for (const Finding& f : insights.findings) {
        std::vector<std::int64_t> events;
        std::string ranges;
        for (const RankWhere& w : f.where) {
            events.insert(events.end(), w.events.begin(), w.events.end());
            for (const TimeRange& r : w.ranges)
                ranges += (ranges.empty() ? "" : ",") + std::to_string(r.start) + ":" + std::to_string(r.end);
        }
        rows.push_back({ insights.rank, f.rule, f.title, f.gainPct, std::string(severityName(f.severity)),
            joinInts(f.iterations), joinLines(f.evidence), f.suggestion, joinInts(events), ranges,
            f.gainBasis, joinLines(f.whatIf), static_cast<std::int64_t>(insights.measuredNs), f.subject,
            std::max(f.gainPct, f.gainHighPct) });
    }
    return rows;
}

Result<InsightsReport> insightsFromSummary(
    const std::string& path, const InsightsOptions& options, const std::vector<std::int64_t>& ranks)
{
    auto job = readJobOverview(path);
    if (!job)
        return job.error();
    SummaryMeta meta;
    auto db = openSummary(path, meta);
    if (!db)
        return db.error();
    if (!db.value().hasTable(kFindingsTable))
        return Error { ErrorCode::WrongType,
            "written before job summaries stored insights: summarise the traces again with this version",
            path, {} };
    const auto wanted = [&](std::int64_t rank) {
        return ranks.empty() || std::find(ranks.begin(), ranks.end(), rank) != ranks.end();
    };
    std::map<std::int64_t, RankInsights> byRank;
    const std::string columns = "SELECT rank, rule, title, gain_pct, severity, iterations, evidence, "
                                "suggestion, where_events, where_ranges, gain_basis, what_if, measured_ns";
    // `subject`, then `gain_high_pct`, came later within version 1: an older file lacks them.
    bool withSubject = true;
    bool withHigh = true;
    auto select =
        db.value().prepare(columns + ", subject, gain_high_pct FROM " + std::string(kFindingsTable));
    if (!select) {
        withHigh = false;
        select = db.value().prepare(columns + ", subject FROM " + std::string(kFindingsTable));
    }
    if (!select) {
        withSubject = false;
        select = db.value().prepare(columns + " FROM " + std::string(kFindingsTable));
    }
    if (!select)
        return select.error();
    SqliteStatement& s = select.value();
    for (auto step = s.step(); step && step.value(); step = s.step()) {
        const std::int64_t rank = s.columnInt(0);
        if (!wanted(rank))
            continue;
        RankInsights& r = byRank[rank];
        r.rank = rank;
        r.measuredNs = s.columnInt(12);
        const std::string rule = s.columnText(1);
        if (rule.empty() || !ruleSelected(options.rules, rule))
            continue; // the rank's measured row, or a rule not asked for
        Finding f;
        f.rule = rule;
        f.title = s.columnText(2);
        f.gainPct = s.columnDouble(3);
        f.severity = severityFromName(s.columnText(4));
        f.ranks = { rank };
        f.iterations = splitInts(s.columnText(5));
        f.evidence = splitLines(s.columnText(6));
        f.suggestion = s.columnText(7);
        RankWhere w;
        w.rank = rank;
        w.events = splitInts(s.columnText(8));
        std::istringstream in(s.columnText(9));
        std::string range;
        while (std::getline(in, range, ',')) {
            const std::size_t colon = range.find(':');
            if (colon != std::string::npos)
                w.ranges.push_back(
                    { std::stoll(range.substr(0, colon)), std::stoll(range.substr(colon + 1)) });
        }
        f.where.push_back(std::move(w));
        f.gainBasis = s.columnText(10);
        f.whatIf = splitLines(s.columnText(11));
        if (withSubject)
            f.subject = s.columnText(13);
        f.gainHighPct = withHigh ? std::max(f.gainPct, s.columnDouble(14)) : f.gainPct;
        r.findings.push_back(std::move(f));
    }
    auto status = db.value().prepare("SELECT rank, analysis, reason FROM analysis_status");
    if (!status)
        return status.error();
    SqliteStatement& st = status.value();
    for (auto step = st.step(); step && step.value(); step = st.step()) {
        const std::string analysis = st.columnText(1);
        const std::int64_t rank = st.columnInt(0);
        if (analysis.rfind(kStatusPrefix, 0) != 0 || !wanted(rank))
            continue;
        const std::string rule = analysis.substr(kStatusPrefix.size());
        if (!ruleSelected(options.rules, rule))
            continue;
        RankInsights& r = byRank[rank];
        r.rank = rank;
        r.notApplicable.push_back({ rule, st.columnText(2) });
    }
    std::vector<RankInsights> perRank;
    perRank.reserve(byRank.size());
    for (auto& [rank, r] : byRank)
        perRank.push_back(std::move(r));
    InsightsReport report;
    mergeRankInsights(perRank, options.rules, report);
    // One rank's own measure, as runInsights on that rank's trace reports it.
    report.measuredNs = perRank.size() == 1 ? perRank.front().measuredNs : 0;
    for (const RankInsights& r : perRank)
        report.measuredNs = std::max(report.measuredNs, r.measuredNs);
    report.measuredWhat = "the traced time";
    const std::vector<std::int64_t> suspects = suspectRanks(job.value());
    // straggler and collective_skew from the collectives' arrivals, matched as on the folder
    // (over the selected ranks alone, as the folder's job rules run on them).
    const SummaryCollectives& collectives = job.value().collectives;
    ArrivalFindings arrivals;
    if (ranks.empty()) {
        arrivals = arrivalFindings(collectives.match, collectives.rankNumbers, report.measuredNs, options,
            commOverlapPct(job.value().profiles, {}), &collectives.ranks);
    } else {
        std::vector<RankCollectives> selected;
        std::vector<std::int64_t> numbers;
        for (std::size_t r = 0; r < collectives.ranks.size(); ++r)
            if (wanted(collectives.rankNumbers[r])) {
                selected.push_back(collectives.ranks[r]);
                numbers.push_back(collectives.rankNumbers[r]);
            }
        std::vector<std::size_t> rows;
        for (std::size_t r = 0; r < job.value().ranks.size(); ++r)
            if (wanted(job.value().ranks[r].rank))
                rows.push_back(r);
        arrivals = arrivalFindings(matchCollectives(selected), numbers, report.measuredNs, options,
            commOverlapPct(job.value().profiles, rows), &selected);
    }
    // unbalanced_compute from each rank's GPU compute in the utilisation profiles.
    std::vector<std::pair<std::int64_t, TimeNs>> compute;
    const JobProfiles& profiles = job.value().profiles;
    for (std::size_t r = 0; r < job.value().ranks.size() && profiles.bins > 0; ++r) {
        if (!job.value().ranks[r].ok() || !wanted(job.value().ranks[r].rank))
            continue;
        double shares = 0;
        for (const KindShares& bin : profiles.row(r))
            shares += bin[0];
        compute.emplace_back(job.value().ranks[r].rank,
            static_cast<TimeNs>(shares * static_cast<double>(profiles.binWidthNs)));
    }
    ArrivalFindings unbalanced = unbalancedComputeFindings(
        compute, collectives.match, collectives.rankNumbers, report.measuredNs, options);
    arrivals.findings.insert(arrivals.findings.end(), unbalanced.findings.begin(), unbalanced.findings.end());
    arrivals.notApplicable.insert(
        arrivals.notApplicable.end(), unbalanced.notApplicable.begin(), unbalanced.notApplicable.end());
    std::set<std::string, std::less<>> answered;
    for (Finding& f : arrivals.findings) {
        answered.insert(f.rule);
        report.findings.push_back(std::move(f));
    }
    for (RuleNotApplicable& na : arrivals.notApplicable) {
        answered.insert(na.rule);
        report.notApplicable.push_back(std::move(na));
    }
    for (const Rule& rule : insightRules()) {
        if (rule.scope != RuleScope::Job || !ruleSelected(options.rules, rule.info.id))
            continue;
        if (rule.info.id == "straggler" || rule.info.id == "collective_skew"
            || rule.info.id == "exposed_communication" || rule.info.id == "unbalanced_compute"
            || answered.count(rule.info.id))
            continue; // answered from the arrivals, or silent there
        std::string why = "a job summary holds no cross-rank critical path";
        if (!suspects.empty())
            why += "; open the traces of the ranks job mode flags (" + joinInts(suspects)
                + "): " + filesOf(job.value(), suspects);
        else
            why += "; open the traces (kinetoscope-cli insights on the folder, --ranks to choose)";
        report.notApplicable.push_back({ std::string(rule.info.id), why });
    }
    orderReport(report);
    report.notes.emplace_back("findings stored by summarize with the rules' default thresholds");
    return report;
}

} // namespace ks::core
