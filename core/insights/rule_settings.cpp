#include "core/insights/rule_settings.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace ks::core {

namespace {

    Error badSetting(std::string message)
    {
        return Error { ErrorCode::InvalidArgument, std::move(message), {}, {} };
    }

} // namespace

Result<bool> RuleSettings::set(std::string_view assignment, const std::vector<RuleInfo>& rules)
{
    const std::size_t dot = assignment.find('.');
    const std::size_t eq = assignment.find('=');
    if (dot == std::string_view::npos || eq == std::string_view::npos || dot > eq)
        return badSetting("'" + std::string(assignment) + "' is not RULE.PARAM=VALUE");
    const std::string_view ruleId = assignment.substr(0, dot);
    const std::string_view param = assignment.substr(dot + 1, eq - dot - 1);
    const std::string_view text = assignment.substr(eq + 1);
    const auto rule =
        std::find_if(rules.begin(), rules.end(), [&](const RuleInfo& r) { return r.id == ruleId; });
    if (rule == rules.end())
        return badSetting("no rule '" + std::string(ruleId) + "' (in '" + std::string(assignment) + "')");
    const auto known = std::find_if(
        rule->params.begin(), rule->params.end(), [&](const RuleParam& p) { return p.name == param; });
    if (known == rule->params.end()) {
        std::string names;
        for (const RuleParam& p : rule->params)
            names += (names.empty() ? "" : ", ") + std::string(p.name);
        return badSetting("rule " + std::string(ruleId) + " has no parameter '" + std::string(param) + "'"
            + (names.empty() ? std::string(" (it has none)") : " (it has " + names + ")"));
    }
    double value = 0;
    const auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
    if (parsed.ec != std::errc() || parsed.ptr != text.data() + text.size() || !std::isfinite(value))
        return badSetting(std::string(ruleId) + "." + std::string(param) + " needs a number, got '"
            + std::string(text) + "'");
    m_values[std::string(ruleId) + "." + std::string(param)] = value;
    return true;
}

double RuleSettings::value(const RuleInfo& rule, std::string_view param) const
{
    std::string key = std::string(rule.id) + "." + std::string(param);
    if (const auto it = m_values.find(key); it != m_values.end())
        return it->second;
    for (const RuleParam& p : rule.params)
        if (p.name == param)
            return p.defaultValue;
    return 0;
}

} // namespace ks::core
