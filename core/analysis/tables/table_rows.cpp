#include "core/analysis/tables/table_rows.h"

#include <bit>
#include <functional>

namespace ks::core {

TableRows::Row::Row(const TableRows& rows, std::size_t index)
    : m_rows(&rows)
    , m_begin(rows.rowBegin(index))
    , m_end(rows.m_rowEnds[index])
{
}

std::vector<Cell> TableRows::Row::cells() const
{
    std::vector<Cell> out;
    out.reserve(size());
    for (std::size_t c = m_begin; c < m_end; ++c)
        out.push_back(m_rows->cellAt(c));
    return out;
}

void TableRows::reserve(std::size_t rows, std::size_t cellsPerRow)
{
    m_rowEnds.reserve(rows);
    m_kinds.reserve(rows * cellsPerRow);
    m_values.reserve(rows * cellsPerRow);
}

void TableRows::push_back(const std::vector<Cell>& cells)
{
    for (const Cell& cell : cells) {
        switch (cell.index()) {
        case 0:
            m_kinds.push_back(Kind::Null);
            m_values.push_back(0);
            break;
        case 1:
            m_kinds.push_back(Kind::Integer);
            m_values.push_back(static_cast<std::uint64_t>(std::get<std::int64_t>(cell)));
            break;
        case 2:
            m_kinds.push_back(Kind::Real);
            m_values.push_back(std::bit_cast<std::uint64_t>(std::get<double>(cell)));
            break;
        case 3:
            m_kinds.push_back(Kind::Text);
            m_values.push_back(internText(std::get<std::string>(cell)));
            break;
        default:
            m_kinds.push_back(Kind::Json);
            m_values.push_back(internText(std::get<JsonText>(cell).json));
            break;
        }
    }
    m_rowEnds.push_back(m_kinds.size());
}

void TableRows::clear()
{
    m_kinds.clear();
    m_values.clear();
    m_texts.clear();
    m_textByHash.clear();
    m_rowEnds.clear();
}

std::uint64_t TableRows::internText(const std::string& text)
{
    const auto [at, added] = m_textByHash.try_emplace(std::hash<std::string> {}(text), m_texts.size());
    if (!added && m_texts[static_cast<std::size_t>(at->second)] == text)
        return at->second;
    m_texts.push_back(text); // a new text, or one whose hash another text has (kept apart)
    return m_texts.size() - 1;
}

Cell TableRows::cellAt(std::size_t cell) const
{
    const std::uint64_t v = m_values[cell];
    switch (m_kinds[cell]) {
    case Kind::Integer:
        return static_cast<std::int64_t>(v);
    case Kind::Real:
        return std::bit_cast<double>(v);
    case Kind::Text:
        return m_texts[static_cast<std::size_t>(v)];
    case Kind::Json:
        return JsonText { m_texts[static_cast<std::size_t>(v)] };
    case Kind::Null:
        break;
    }
    return {};
}

} // namespace ks::core
