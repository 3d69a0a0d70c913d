#pragma once

// One insights rule: what it declares (id, title, thresholds), whether it reads
// one rank or the whole job, and the function that looks for its problem.

#include "core/insights/finding.h"
#include "core/insights/insights_context.h"
#include "core/insights/rule_settings.h"

#include <optional>
#include <string>
#include <vector>

namespace ks::core {

enum class RuleScope : std::uint8_t
{
    // Runs on each rank alone, against that rank's own critical path; a job
    // summary stores what it finds per rank.
    Rank,
    // Needs every rank at once (the job's path, collectives matched across ranks).
    Job,
};

// What one run of a rule gives: findings (maybe none: nothing wrong), or the
// reason it could not run.
struct RuleOutcome
{
    std::vector<Finding> findings;
    std::optional<std::string> notApplicable;

    static RuleOutcome none() { return {}; }

    static RuleOutcome na(std::string why)
    {
        RuleOutcome o;
        o.notApplicable = std::move(why);
        return o;
    }
};

// The thresholds in force for one rule.
class RuleParams
{
public:
    RuleParams(const RuleInfo& info, const RuleSettings& settings)
        : m_info(info)
        , m_settings(settings)
    {
    }

    double operator[](std::string_view param) const { return m_settings.value(m_info, param); }

private:
    const RuleInfo& m_info;
    const RuleSettings& m_settings;
};

struct Rule
{
    RuleInfo info;
    RuleScope scope = RuleScope::Rank;
    RuleOutcome (*run)(InsightsContext& context, const RuleParams& params) = nullptr;
};

// Every rule, in the order reports list "not applicable" lines.
const std::vector<Rule>& insightRules();
std::vector<RuleInfo> insightRuleInfos();

// The rules of each family (rules_*.cpp), gathered by insightRules().
std::vector<Rule> gpuIdleRules(); // gpu_idle_host_bound, gpu_idle_sync, short_kernels, launch_delay_outliers
std::vector<Rule> memoryTransferRules(); // pageable_memcpy, sync_memcpy, sync_memset
std::vector<Rule> distributedRules(); // exposed_communication, straggler, collective_skew, unbalanced_compute
std::vector<Rule> hostAndMemoryRules(); // dataloader_stall, memory_pressure, low_efficiency
std::vector<Rule> gpuUtilisationRules(); // gpu_starvation, low_gpu_utilisation
std::vector<Rule> tensorCoreRules(); // tensor_core_unused
std::vector<Rule> kernelFusionRules(); // kernel_fusion
std::vector<Rule> smEfficiencyRules(); // low_sm_efficiency
std::vector<Rule> cpuIdleRules(); // cpu_idle
std::vector<Rule> memoryRules(); // memory_growth, allocator_cache_overhead, out_of_memory

} // namespace ks::core
