#pragma once

// Whole traceEvents elements of a loaded file, re-read by index (the reader of
// args_reader.h, for callers that need more of an element than its args).

#include "core/common/result.h"
#include "core/model/rank_trace.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace ks::core {

// Calls visit(eventIndex, element text) for each index (sorted ascending
// first), reading each stretch of the file once. The text is valid during the
// call. Stops at the first error and returns it (ErrorCode::FileChanged when
// the file changed since it was loaded, or was not loaded from a file).
std::optional<Error> forEachTraceElement(const RankTrace& trace, std::vector<std::uint32_t> eventIndices,
    const std::function<void(std::uint32_t eventIndex, std::string_view element)>& visit);

} // namespace ks::core
