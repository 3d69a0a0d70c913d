#pragma once

#include "core/analysis/tables/hta_result.h"

#include <string>

namespace ks::core {

// Aligned text for a person: one block per frame, with a heading.
std::string resultAsText(const std::string& title, const HtaResult& result);

// RFC 4180 CSV of one table (header + rows).
std::string tableAsCsv(const Table& table);

// Every frame of a result flattened to (name suffix, table): "" for a single
// frame, "_0"/"_1" for tuple items, "_rank<N>" for dict entries.
std::vector<std::pair<std::string, const Table*>> framesOf(const HtaResult& result);

} // namespace ks::core
