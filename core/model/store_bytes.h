#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace ks::core {

class RankTrace;

// Memory of one part of a RankTrace: a slice column, a typed-args table, the
// args index, the strings... (B3 of performance.md: bytes per kept event).
struct ColumnBytes
{
    std::string_view column;
    std::size_t bytes = 0;
};

// Every part of the store once; RankTrace::bytesUsed() is their sum.
std::vector<ColumnBytes> storeBytesByColumn(const RankTrace& trace);

// Gives back the capacity every column holds beyond its size (RankBuilder::finish).
void shrinkToFit(RankTrace& trace);

} // namespace ks::core
