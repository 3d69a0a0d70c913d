#pragma once

#include "core/model/rank_metadata.h"

#include <string_view>

namespace ks::core {

// Records one top-level key of a Kineto document in `metadata`, decoding the
// ones Kinetoscope understands (distributedInfo, deviceProperties, ...).
void applyTopLevelKey(RankMetadata& metadata, std::string_view key, std::string_view rawValue);

} // namespace ks::core
