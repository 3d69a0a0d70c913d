#pragma once

#include "core/common/result.h"

#include <simdjson.h>

#include <string>

namespace ks::core {

// Reads a whole trace file into a simdjson-padded buffer, inflating it when it
// starts with the gzip magic bytes (1f 8b), whatever its name. For inputs that
// fit in memory (the --from traces to scale), not for multi-GB loads.
Result<simdjson::padded_string> readTraceText(const std::string& path);

} // namespace ks::core
