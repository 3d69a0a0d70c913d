#pragma once

#include "core/common/result.h"
#include "core/model/rank_trace.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// Args are not kept in the store: they are re-read from the file a
// rank was loaded from, found by trace.args (ArgsIndex). Each call opens the
// file itself, so a RankTrace stays immutable and any thread may call these.
// The file's identity is checked first and the element found must be the
// stored event (same ts and name); otherwise, or when the file is gone or its
// gzip data is corrupt, the result is ErrorCode::FileChanged ("the file changed
// since it was opened"), never text of another event.

// A slice's args object as written in the file; "" when it has none.
Result<std::string> sliceArgs(const RankTrace& trace, std::uint32_t slice);
// An instant's args object; "" when it has none.
Result<std::string> instantArgs(const RankTrace& trace, std::uint32_t row);

// The args of many slices, reading each stretch of the file once: `visit` gets
// the slices that have args, in file order. Stops at the first error and returns it.
std::optional<Error> forEachSliceArgs(const RankTrace& trace, std::vector<std::uint32_t> slices,
    const std::function<void(std::uint32_t slice, std::string_view text)>& visit);

} // namespace ks::core
