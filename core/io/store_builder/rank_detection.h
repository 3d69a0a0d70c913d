#pragma once

#include "core/common/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ks::core {

// A number in a file name that names the rank: "rank-3", "rank_3", "rank3",
// "worker3" (case-insensitive). The last such match in the name wins.
std::optional<std::int64_t> rankFromFileName(const std::string& fileName);

// The trace files of a folder (not recursive): names ending in .json or .gz,
// hidden files skipped, sorted by name.
Result<std::vector<std::string>> listTraceFiles(const std::string& folder);

bool isDirectory(const std::string& path);

} // namespace ks::core
