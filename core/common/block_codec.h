#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// Raw-deflate compression of independent blocks: ISA-L level 1 when available
// (about 1 GB/s), zlib level 1 otherwise. Blocks written by either decode with either.
std::vector<std::uint8_t> compressBlock(std::string_view text);
// Returns false when the data is corrupt.
bool decompressBlock(const std::vector<std::uint8_t>& compressed, std::size_t originalSize, std::string& out);

} // namespace ks::core
