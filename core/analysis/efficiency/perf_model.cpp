#include "core/analysis/efficiency/perf_model.h"

#include <array>
#include <string>
#include <unordered_map>

namespace ks::core {

namespace {

    constexpr std::array<std::string_view, 10> kFamilyNames { "gemm", "attention", "conv", "elementwise",
        "reduce", "norm", "rope", "moe", "collective", "mhc" };

    // Built once per call of findOpModel's first use; a function-local constant.
    const std::unordered_map<std::string_view, const OpModel*>& modelsByName()
    {
        static const auto table = [] {
            std::unordered_map<std::string_view, const OpModel*> byName;
            for (const auto family :
                { gemmModels(), attentionModels(), varlenAttentionModels(), inferenceAttentionModels(),
                    convModels(), elementwiseModels(), reduceModels(), normModels(), ropeModels(),
                    rmsnormQuantModels(), groupedGemmModels(), quantGemmModels(), quantModels(),
                    mlaCacheModels(), moeModels(), customCollectiveModels(), mhcModels(), samplingModels() })
                for (const OpModel& m : family)
                    byName.emplace(m.name, &m);
            return byName;
        }();
        return table;
    }

} // namespace

std::string_view opFamilyName(OpFamily family)
{
    return kFamilyNames[static_cast<std::size_t>(family)];
}

std::optional<OpFamily> opFamilyFromName(std::string_view name)
{
    for (std::size_t i = 0; i < kFamilyNames.size(); ++i)
        if (kFamilyNames[i] == name)
            return static_cast<OpFamily>(i);
    return std::nullopt;
}

std::string_view skipReasonText(SkipReason reason)
{
    switch (reason) {
    case SkipReason::NoShapes:
        return "no input shapes";
    case SkipReason::MalformedDims:
        return "malformed input dims";
    case SkipReason::UnknownDtype:
        return "unknown dtype";
    case SkipReason::MismatchedShapes:
        return "mismatched operand shapes";
    case SkipReason::NoStepAnnotation:
        return "no step annotation with token sums";
    case SkipReason::NoForwardCall:
        return "no forward call of its sequence number";
    case SkipReason::Count_:
        break;
    }
    return "?";
}

bool isModelledOp(std::string_view name)
{
    return findOpModel(name) != nullptr;
}

std::string_view canonicalOpName(std::string_view name)
{
    constexpr std::string_view kSglang = "sglang_profiler::";
    if (!name.starts_with(kSglang))
        return name;
    const std::size_t underscore = name.rfind('_');
    // at least one character of the op name before the suffix, at least one digit after its '_'
    if (underscore == std::string_view::npos || underscore <= kSglang.size() || underscore + 1 == name.size())
        return name;
    for (std::size_t i = underscore + 1; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9')
            return name;
    return name.substr(0, underscore);
}

const OpModel* findOpModel(std::string_view name)
{
    const auto& table = modelsByName();
    const auto it = table.find(canonicalOpName(name));
    if (it != table.end())
        return it->second;
    for (const OpModel& m : tritonCompiledModels())
        if (name.starts_with(m.name))
            return &m;
    return nullptr;
}

} // namespace ks::core
