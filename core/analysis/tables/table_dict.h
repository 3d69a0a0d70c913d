#pragma once

// A dict of named data frames in the given order: how the reports that answer
// with several tables (the critical path's, the job path's) build their result.

#include "core/analysis/tables/hta_result.h"

#include <string>
#include <utility>
#include <vector>

namespace ks::core {

inline HtaResult dictOfTables(std::vector<std::pair<std::string, Table>> tables)
{
    HtaResult dict;
    dict.kind = HtaResult::Kind::Dict;
    for (auto& [name, table] : tables)
        dict.entries.emplace_back(std::move(name), HtaResult::dataFrame(std::move(table)));
    return dict;
}

} // namespace ks::core
