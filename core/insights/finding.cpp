#include "core/insights/finding.h"

#include <algorithm>

namespace ks::core {

std::string_view severityName(Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return "info";
    case Severity::Warning:
        return "warning";
    case Severity::Critical:
        return "critical";
    }
    return "info";
}

Severity severityOfGain(double gainPct)
{
    if (gainPct >= 10.0)
        return Severity::Critical;
    if (gainPct >= 2.0)
        return Severity::Warning;
    return Severity::Info;
}

void rankFindings(std::vector<Finding>& findings)
{
    std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
        if (a.gainPct != b.gainPct)
            return a.gainPct > b.gainPct;
        if (a.severity != b.severity)
            return a.severity > b.severity;
        return a.rule < b.rule;
    });
}

} // namespace ks::core
