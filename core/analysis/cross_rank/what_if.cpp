#include "core/analysis/cross_rank/what_if.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace ks::core {

namespace {

    Error badRule(std::string_view text, const std::string& why)
    {
        return Error { ErrorCode::InvalidArgument, "what-if rule '" + std::string(text) + "': " + why, {},
            {} };
    }

    // ECMAScript's metacharacters outside a bracket expression: what
    // efficiency_roofline's escaping puts a backslash before.
    bool isMetacharacter(char c)
    {
        return std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos;
    }

} // namespace

std::optional<std::vector<std::string>> exactNamesOf(std::string_view pattern)
{
    constexpr std::string_view kOpen = "^(";
    constexpr std::string_view kClose = ")$";
    if (pattern.size() < kOpen.size() + kClose.size() || pattern.substr(0, kOpen.size()) != kOpen
        || pattern.substr(pattern.size() - kClose.size()) != kClose)
        return std::nullopt;
    const std::string_view body = pattern.substr(kOpen.size(), pattern.size() - kOpen.size() - kClose.size());
    std::vector<std::string> names(1);
    for (std::size_t i = 0; i < body.size(); ++i) {
        const char c = body[i];
        if (c == '|') {
            names.emplace_back();
        } else if (c == '\\') {
            // Only an escaped metacharacter is a literal for sure (\d, \b, \1 ... are not).
            if (i + 1 == body.size() || !isMetacharacter(body[i + 1]))
                return std::nullopt;
            names.back() += body[++i];
        } else if (isMetacharacter(c)) {
            return std::nullopt;
        } else {
            names.back() += c;
        }
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

Result<WhatIfRule> parseWhatIfRule(std::string_view text)
{
    const std::size_t eq = text.rfind('=');
    if (eq == std::string_view::npos || eq == 0)
        return badRule(text, "expected NAME_REGEX=FACTOR or kind:BOUND=FACTOR");
    const std::string_view lhs = text.substr(0, eq);
    const std::string_view rhs = text.substr(eq + 1);
    WhatIfRule rule;
    rule.text = std::string(text);
    const auto parsed = std::from_chars(rhs.data(), rhs.data() + rhs.size(), rule.factor);
    if (parsed.ec != std::errc() || parsed.ptr != rhs.data() + rhs.size() || !std::isfinite(rule.factor)
        || rule.factor < 0)
        return badRule(text, "the factor must be a non-negative number, got '" + std::string(rhs) + "'");
    constexpr std::string_view kKindPrefix = "kind:";
    if (lhs.substr(0, kKindPrefix.size()) == kKindPrefix) {
        PathBound bound {};
        if (!pathBoundFromName(lhs.substr(kKindPrefix.size()), bound))
            return badRule(text,
                "unknown kind '" + std::string(lhs.substr(kKindPrefix.size()))
                    + "' (cpu, gpu_compute, gpu_comm_wait, transfer, launch_overhead, kernel_kernel_gap)");
        rule.kind = bound;
        return rule;
    }
    try {
        rule.pattern = std::regex(std::string(lhs), std::regex::ECMAScript | std::regex::optimize);
    } catch (const std::regex_error& e) {
        return badRule(text, std::string("not a regular expression: ") + e.what());
    }
    rule.exactNames = exactNamesOf(lhs);
    return rule;
}

WhatIfScaling::WhatIfScaling(std::vector<WhatIfRule> rules)
    : m_rules(std::move(rules))
{
    for (const WhatIfRule& rule : m_rules)
        if (!rule.kind && !rule.exactNames)
            m_exactNamesOnly = false;
}

double WhatIfScaling::nameFactor(std::string_view name) const
{
    if (m_exactNamesOnly) {
        for (const WhatIfRule& rule : m_rules)
            if (!rule.kind && std::binary_search(rule.exactNames->begin(), rule.exactNames->end(), name))
                return rule.factor;
        return -1.0;
    }
    const std::lock_guard lock(*m_byNameLock);
    auto [it, inserted] = m_byName.try_emplace(std::string(name), -1.0);
    if (inserted)
        for (const WhatIfRule& rule : m_rules) {
            if (rule.kind)
                continue;
            const bool matches = rule.exactNames
                ? std::binary_search(rule.exactNames->begin(), rule.exactNames->end(), name)
                : std::regex_search(it->first, rule.pattern);
            if (matches) {
                it->second = rule.factor;
                break;
            }
        }
    return it->second;
}

void WhatIfScaling::addEdits(WhatIfRankEdits edits)
{
    if (edits.empty())
        return;
    m_edits.push_back(std::move(edits));
}

bool WhatIfScaling::hasEditsFor(std::int64_t rank) const
{
    return std::any_of(
        m_edits.begin(), m_edits.end(), [rank](const WhatIfRankEdits& e) { return e.rank == rank; });
}

RankEditedFactors::RankEditedFactors(const WhatIfScaling& scaling, std::int64_t rank, std::size_t rowCount)
{
    const auto dense = [rowCount](const std::unordered_map<std::uint32_t, double>& byRow) {
        std::vector<double> out;
        if (byRow.empty())
            return out;
        out.assign(rowCount, std::numeric_limits<double>::quiet_NaN());
        for (const auto& [row, f] : byRow)
            if (row < rowCount)
                out[row] = f;
        return out;
    };
    for (const WhatIfRankEdits& e : scaling.edits()) {
        if (e.rank != rank)
            continue;
        Edit edit { dense(e.rows), dense(e.launchDelays), {} };
        for (const WhatIfRankEdits::Window& w : e.windows) { // by start: so is each bound's list
            BoundWindows& b = edit.windows[static_cast<std::size_t>(w.bound)];
            b.starts.push_back(w.start);
            b.ends.push_back(w.end);
            b.latestEnd.push_back(b.latestEnd.empty() ? w.end : std::max(b.latestEnd.back(), w.end));
            b.factors.push_back(w.factor);
        }
        m_edits.push_back(std::move(edit));
    }
}

double RankEditedFactors::factor(std::uint32_t row, PathBound bound, TimeNs at, double ruleFactor) const
{
    static_assert(kNoRow == 0xffffffffu); // TimedGraph::kNoRow
    // Per edit its row's factor (a row's edit holds its own time; its launch delay has
    // an edit of its own, the gap after it none: windows only), else its windows'.
    double factor = 1.0;
    bool edited = false;
    for (const Edit& e : m_edits) {
        if (row != kNoRow && bound != PathBound::KernelGap) {
            const std::vector<double>& ofRow = bound == PathBound::LaunchOverhead ? e.launchDelays : e.rows;
            if (row < ofRow.size() && !std::isnan(ofRow[row])) {
                factor *= ofRow[row];
                edited = true;
                continue;
            }
        }
        const BoundWindows& b = e.windows[static_cast<std::size_t>(bound)];
        if (b.starts.empty())
            continue;
        // The windows starting at or before `at`, from the last back while one could reach it.
        const auto last = static_cast<std::size_t>(
            std::upper_bound(b.starts.begin(), b.starts.end(), at) - b.starts.begin());
        std::size_t first = last;
        while (first > 0 && b.latestEnd[first - 1] > at)
            --first;
        double windows = 1.0;
        bool held = false;
        for (std::size_t k = first; k < last; ++k) // in window order: the factors multiply
            if (at < b.ends[k]) {
                windows *= b.factors[k];
                held = true;
            }
        if (held) {
            factor *= windows;
            edited = true;
        }
    }
    return edited ? factor : ruleFactor;
}

double WhatIfScaling::factor(std::string_view name, PathBound bound) const
{
    if (m_rules.empty())
        return 1.0;
    // Name rules scale time spent in an op or kernel, not the overheads around it.
    const bool inEvent = bound != PathBound::LaunchOverhead && bound != PathBound::KernelGap;
    if (inEvent && !name.empty()) {
        const double f = nameFactor(name);
        if (f >= 0)
            return f;
    }
    for (const WhatIfRule& rule : m_rules)
        if (rule.kind && *rule.kind == bound)
            return rule.factor;
    return 1.0;
}

TimeNs WhatIfScaling::scaled(TimeNs ns, std::string_view name, PathBound bound) const
{
    return scaledBy(ns, factor(name, bound));
}

TimeNs WhatIfScaling::scaledBy(TimeNs ns, double factor)
{
    if (factor == 1.0)
        return ns;
    return static_cast<TimeNs>(std::llround(static_cast<double>(ns) * factor));
}

} // namespace ks::core
