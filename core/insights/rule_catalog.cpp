// Every insights rule, gathered from the family files. A new rule is one entry
// in its family's list (see docs/adding.md, section 2).

#include "core/insights/rule.h"

namespace ks::core {

const std::vector<Rule>& insightRules()
{
    static const std::vector<Rule> rules = [] {
        std::vector<Rule> all;
        for (auto family :
            { gpuIdleRules, memoryTransferRules, distributedRules, hostAndMemoryRules, gpuUtilisationRules,
                tensorCoreRules, kernelFusionRules, smEfficiencyRules, cpuIdleRules, memoryRules })
            for (Rule& r : family())
                all.push_back(std::move(r));
        return all;
    }();
    return rules;
}

std::vector<RuleInfo> insightRuleInfos()
{
    std::vector<RuleInfo> infos;
    for (const Rule& r : insightRules())
        infos.push_back(r.info);
    return infos;
}

} // namespace ks::core
