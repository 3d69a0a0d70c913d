#pragma once

#include <bit>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ks::core {

// Which rows of a table have a row in a second table, and which one: a bit per
// row and a running count per 64 rows (1.5 bits per row instead of a 4-byte
// reference). The second table's rows are in the first's order.
class RowBitmap
{
public:
    void push(bool set)
    {
        if (m_size % 64 == 0) {
            m_bits.push_back(0);
            m_before.push_back(m_count);
        }
        if (set) {
            m_bits.back() |= std::uint64_t { 1 } << (m_size % 64);
            ++m_count;
        }
        ++m_size;
    }

    bool has(std::uint32_t row) const { return row < m_size && ((m_bits[row / 64] >> (row % 64)) & 1u) != 0; }

    // The partner row of a row that has one: the rows set before it.
    std::uint32_t rank(std::uint32_t row) const
    {
        const std::uint64_t below = m_bits[row / 64] & ((std::uint64_t { 1 } << (row % 64)) - 1);
        return m_before[row / 64] + static_cast<std::uint32_t>(std::popcount(below));
    }

    std::size_t size() const { return m_size; }

    std::size_t bytesUsed() const
    {
        return m_bits.capacity() * sizeof(std::uint64_t) + m_before.capacity() * sizeof(std::uint32_t);
    }

    void reserve(std::size_t rows)
    {
        m_bits.reserve(rows / 64 + 1);
        m_before.reserve(rows / 64 + 1);
    }

    void shrinkToFit()
    {
        m_bits.shrink_to_fit();
        m_before.shrink_to_fit();
    }

private:
    std::vector<std::uint64_t> m_bits;
    std::vector<std::uint32_t> m_before; // rows set in the words before each word
    std::size_t m_size = 0;
    std::uint32_t m_count = 0;
};

// 64-bit values stored in 32 bits, exactly: ids (correlation, stream) rarely
// need more, and those that do go to a side table, as durations do.
class CompactInt64Column
{
public:
    void push(std::int64_t value)
    {
        if (value > kWide && value <= INT32_MAX) {
            m_low.push_back(static_cast<std::int32_t>(value));
        } else {
            m_wide.emplace(static_cast<std::uint32_t>(m_low.size()), value);
            m_low.push_back(kWide);
        }
    }

    std::int64_t operator[](std::uint32_t row) const
    {
        const std::int32_t v = m_low[row];
        return v != kWide ? v : m_wide.at(row);
    }

    std::size_t size() const { return m_low.size(); }

    std::size_t wideCount() const { return m_wide.size(); }

    void reserve(std::size_t rows) { m_low.reserve(rows); }

    void shrinkToFit() { m_low.shrink_to_fit(); }

    std::size_t bytesUsed() const
    {
        return m_low.capacity() * sizeof(std::int32_t)
            + m_wide.size() * (sizeof(std::pair<const std::uint32_t, std::int64_t>) + 2 * sizeof(void*))
            + m_wide.bucket_count() * sizeof(void*);
    }

private:
    static constexpr std::int32_t kWide = INT32_MIN; // the value is in m_wide
    std::vector<std::int32_t> m_low;
    std::unordered_map<std::uint32_t, std::int64_t> m_wide;
};

} // namespace ks::core
