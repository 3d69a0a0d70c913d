#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace ks::core {

// A value already encoded as JSON: a list or object HTA keeps as a Python object in its
// frame (an event's raw args, `op_stack`). JSON output writes it as is, so it stays a list;
// text and CSV show the JSON text.
struct JsonText
{
    std::string json;

    // Ordered by their text, so a Cell orders as before (no <compare>: moc cannot parse it).
    bool operator==(const JsonText& other) const { return json == other.json; }

    bool operator!=(const JsonText& other) const { return json != other.json; }

    bool operator<(const JsonText& other) const { return json < other.json; }

    bool operator>(const JsonText& other) const { return json > other.json; }

    bool operator<=(const JsonText& other) const { return json <= other.json; }

    bool operator>=(const JsonText& other) const { return json >= other.json; }
};

// A cell: null (NaN in HTA), integer, real, text or pre-encoded JSON.
using Cell = std::variant<std::monostate, std::int64_t, double, std::string, JsonText>;

// The rows of a result table, stored column-agnostic but compact: a kind byte
// and an 8-byte value per cell, texts in a side list, one offset per row.
// A vector of Cell vectors costs 40 bytes a cell plus an allocation a row;
// time-series results have millions of cells, and on virtual machines every
// fresh page is expensive. Equal texts are kept once: a per-kernel table
// repeats a few hundred kernel and annotation names over millions of rows.
// Cells are read back as Cell values.
class TableRows
{
public:
    // A read-only view of one row; valid while the rows are not changed.
    class Row
    {
    public:
        Row(const TableRows& rows, std::size_t index);

        std::size_t size() const { return m_end - m_begin; }

        bool empty() const { return m_begin == m_end; }

        Cell operator[](std::size_t column) const { return m_rows->cellAt(m_begin + column); }

        std::vector<Cell> cells() const;

        bool operator==(const std::vector<Cell>& cells) const { return this->cells() == cells; }

    private:
        const TableRows* m_rows;
        std::size_t m_begin;
        std::size_t m_end;
    };

    class const_iterator
    {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Row;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Row;

        const_iterator() = default;

        const_iterator(const TableRows* rows, std::size_t index)
            : m_rows(rows)
            , m_index(index)
        {
        }

        Row operator*() const { return Row(*m_rows, m_index); }

        const_iterator& operator++()
        {
            ++m_index;
            return *this;
        }

        const_iterator operator++(int)
        {
            const_iterator before = *this;
            ++m_index;
            return before;
        }

        bool operator==(const const_iterator& other) const { return m_index == other.m_index; }

        bool operator!=(const const_iterator& other) const { return m_index != other.m_index; }

    private:
        const TableRows* m_rows = nullptr;
        std::size_t m_index = 0;
    };

    std::size_t size() const { return m_rowEnds.size(); }

    bool empty() const { return m_rowEnds.empty(); }

    Row operator[](std::size_t row) const { return Row(*this, row); }

    Row front() const { return Row(*this, 0); }

    Row back() const { return Row(*this, size() - 1); }

    const_iterator begin() const { return { this, 0 }; }

    const_iterator end() const { return { this, size() }; }

    void reserve(std::size_t rows, std::size_t cellsPerRow = 0);
    void push_back(const std::vector<Cell>& cells);
    void clear();

private:
    enum class Kind : std::uint8_t
    {
        Null,
        Integer,
        Real,
        Text,
        Json // the JSON text in m_texts
    };

    Cell cellAt(std::size_t cell) const;
    std::uint64_t internText(const std::string& text); // its index in m_texts

    std::size_t rowBegin(std::size_t row) const { return row == 0 ? 0 : m_rowEnds[row - 1]; }

    std::vector<Kind> m_kinds;
    std::vector<std::uint64_t> m_values; // integer, double bits, or index into m_texts (text, JSON)
    std::vector<std::string> m_texts; // distinct (but for the rare hash collision)
    std::unordered_map<std::size_t, std::uint64_t> m_textByHash; // first text of each hash
    std::vector<std::size_t> m_rowEnds; // one past each row's last cell
};

} // namespace ks::core
