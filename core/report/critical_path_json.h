#pragma once

#include "core/analysis/critical_path/critical_path.h"

#include <string>

namespace ks::core {

// The `result` object of ../shared/reference/*/critical_path_analysis__*.json.
std::string criticalPathResultJson(const CriticalPathGraph& graph);

} // namespace ks::core
