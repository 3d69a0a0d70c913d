#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// The args of every event as raw JSON object text, kept compressed in blocks
// of ~256 KB and decoded on demand (details panel, writers). Args are ~40 % of
// a trace's JSON and very repetitive; compressed they cost a few bytes per event.
class ArgsStore
{
public:
    ArgsStore();

    std::uint32_t add(std::string_view rawJsonObject);
    // Seals the open block; call once when loading ends.
    void finish();
    // The args text of a row ("" for an unknown row). Decodes one block.
    std::string raw(std::uint32_t row) const;
    // The args text of many rows, each block decoded once (raw() per row would
    // decode a block per row). `visit` gets the rows in ascending order.
    void forEachRaw(std::vector<std::uint32_t> rows,
        const std::function<void(std::uint32_t row, std::string_view text)>& visit) const;

    std::size_t size() const { return m_rowBlock.size(); }

    std::size_t bytesUsed() const;

    std::uint64_t rawBytes() const { return m_rawBytes; }

private:
    void sealBlock();

    struct Block
    {
        std::vector<std::uint8_t> compressed;
        std::uint32_t size = 0;
    };

    std::vector<Block> m_blocks;
    std::string m_open; // the block being filled
    std::vector<std::uint32_t> m_rowBlock;
    std::vector<std::uint32_t> m_rowOffset; // start inside its block
    std::uint64_t m_rawBytes = 0;
};

} // namespace ks::core
