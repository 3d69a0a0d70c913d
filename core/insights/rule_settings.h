#pragma once

// The rules' thresholds: named parameters with defaults, changed by the user
// as RULE.PARAM=V (`insights --set`, `check --max-gain` reads rule ids too).

#include "core/common/result.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

struct RuleParam
{
    std::string_view name; // "min_gain_pct"
    double defaultValue = 0;
    std::string_view meaning; // one line for --help and the README
};

// What every rule declares about itself.
struct RuleInfo
{
    std::string_view id;
    std::string_view title; // what the rule looks for, one line
    std::vector<RuleParam> params;
    // The navigator's view that proves a finding of the rule (the Overview's
    // "open the analysis" link): a view id of the app's registry; empty: none.
    std::string_view proofView;
};

// The values in force: defaults unless set.
class RuleSettings
{
public:
    // "RULE.PARAM=V": the rule and the parameter must exist, V must be a finite number.
    // The error names the rule and the parameter.
    Result<bool> set(std::string_view assignment, const std::vector<RuleInfo>& rules);

    // The value of `param` for `rule`: what was set, else the declared default.
    double value(const RuleInfo& rule, std::string_view param) const;

    bool empty() const { return m_values.empty(); }

private:
    std::map<std::string, double, std::less<>> m_values; // "rule.param" -> value
};

} // namespace ks::core
