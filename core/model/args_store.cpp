#include "core/model/args_store.h"

#include "core/common/block_codec.h"

#include <algorithm>

namespace ks::core {

namespace {
    constexpr std::size_t kBlockBytes = std::size_t { 256 } * 1024;
    constexpr std::uint32_t kNoBlock = 0xFFFFFFFFu;
} // namespace

ArgsStore::ArgsStore()
{
    m_open.reserve(kBlockBytes + 4096);
}

std::uint32_t ArgsStore::add(std::string_view rawJsonObject)
{
    if (m_open.size() + rawJsonObject.size() > kBlockBytes && !m_open.empty())
        sealBlock();
    const auto row = static_cast<std::uint32_t>(m_rowBlock.size());
    m_rowBlock.push_back(static_cast<std::uint32_t>(m_blocks.size()));
    m_rowOffset.push_back(static_cast<std::uint32_t>(m_open.size()));
    m_open.append(rawJsonObject);
    m_rawBytes += rawJsonObject.size();
    return row;
}

void ArgsStore::sealBlock()
{
    Block block;
    block.size = static_cast<std::uint32_t>(m_open.size());
    block.compressed = compressBlock(m_open);
    m_blocks.push_back(std::move(block));
    m_open.clear();
}

void ArgsStore::finish()
{
    if (!m_open.empty())
        sealBlock();
    m_open.shrink_to_fit();
    m_rowBlock.shrink_to_fit();
    m_rowOffset.shrink_to_fit();
}

std::string ArgsStore::raw(std::uint32_t row) const
{
    if (row >= m_rowBlock.size())
        return {};
    const std::uint32_t block = m_rowBlock[row];
    const std::uint32_t begin = m_rowOffset[row];
    const bool lastInBlock = row + 1 == m_rowBlock.size() || m_rowBlock[row + 1] != block;
    if (block == m_blocks.size()) { // still open (only while loading)
        const std::size_t end = lastInBlock ? m_open.size() : m_rowOffset[row + 1];
        return m_open.substr(begin, end - begin);
    }
    const Block& b = m_blocks[block];
    const std::uint32_t end = lastInBlock ? b.size : m_rowOffset[row + 1];
    std::string text;
    if (!decompressBlock(b.compressed, b.size, text))
        return {};
    return text.substr(begin, end - begin);
}

void ArgsStore::forEachRaw(std::vector<std::uint32_t> rows,
    const std::function<void(std::uint32_t row, std::string_view text)>& visit) const
{
    std::sort(rows.begin(), rows.end());
    std::uint32_t decodedBlock = kNoBlock;
    std::string text;
    for (std::uint32_t row : rows) {
        if (row >= m_rowBlock.size())
            continue;
        const std::uint32_t block = m_rowBlock[row];
        if (block == m_blocks.size()) { // still open (only while loading)
            visit(row, raw(row));
            continue;
        }
        if (block != decodedBlock) {
            text.clear();
            if (!decompressBlock(m_blocks[block].compressed, m_blocks[block].size, text))
                continue;
            decodedBlock = block;
        }
        const bool lastInBlock = row + 1 == m_rowBlock.size() || m_rowBlock[row + 1] != block;
        const std::uint32_t begin = m_rowOffset[row];
        const std::uint32_t end = lastInBlock ? m_blocks[block].size : m_rowOffset[row + 1];
        visit(row, std::string_view(text).substr(begin, end - begin));
    }
}

std::size_t ArgsStore::bytesUsed() const
{
    std::size_t bytes =
        m_open.capacity() + (m_rowBlock.capacity() + m_rowOffset.capacity()) * sizeof(std::uint32_t);
    for (const Block& b : m_blocks)
        bytes += b.compressed.capacity() + sizeof(Block);
    return bytes;
}

} // namespace ks::core
