#pragma once

// Helpers shared by the counter analyses (queue length, memory bandwidth).

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/table.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ks::core::counters {

// The pid or tid HTA has for a row: the integer, or the text when the trace wrote a string.
inline Cell threadKeyCell(const RankTrace& trace, std::int64_t value, bool isName)
{
    if (isName)
        return std::string(trace.name(NameId(static_cast<std::uint32_t>(value))));
    return value;
}

inline const ThreadKey& threadKeyOf(const RankFrame& frame, const FrameRow& row)
{
    return frame.trace->tracks[frame.trace->trackOf(row.slice).value].key;
}

} // namespace ks::core::counters
