#include "core/analysis/cross_rank/what_if.h"

#include <charconv>
#include <cmath>

namespace ks::core {

namespace {

    Error badRule(std::string_view text, const std::string& why)
    {
        return Error { ErrorCode::InvalidArgument, "what-if rule '" + std::string(text) + "': " + why, {},
            {} };
    }

} // namespace

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
    return rule;
}

WhatIfScaling::WhatIfScaling(std::vector<WhatIfRule> rules)
    : m_rules(std::move(rules))
{
}

double WhatIfScaling::factor(std::string_view name, PathBound bound) const
{
    if (m_rules.empty())
        return 1.0;
    // Name rules scale time spent in an op or kernel, not the overheads around it.
    const bool inEvent = bound != PathBound::LaunchOverhead && bound != PathBound::KernelGap;
    if (inEvent && !name.empty()) {
        const std::lock_guard lock(*m_byNameLock);
        auto [it, inserted] = m_byName.try_emplace(std::string(name), -1.0);
        if (inserted)
            for (const WhatIfRule& rule : m_rules)
                if (!rule.kind && std::regex_search(it->first, rule.pattern)) {
                    it->second = rule.factor;
                    break;
                }
        if (it->second >= 0)
            return it->second;
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
