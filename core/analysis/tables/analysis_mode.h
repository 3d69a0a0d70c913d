#pragma once

#include <cstdint>

namespace ks::core {

// HtaCompat reproduces HTA 0.6.1's numbers, quirks included (hta-semantics.md
// Q1-Q14); Default applies Kinetoscope's fixes. Here, under every analysis,
// because a result's column names depend on it (column_id.h).
enum class AnalysisMode : std::uint8_t
{
    Default,
    HtaCompat
};

} // namespace ks::core
