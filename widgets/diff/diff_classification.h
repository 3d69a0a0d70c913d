#pragma once

#include "widgets/timeline/render/timeline_palette.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ks::core {
class RankTrace;
struct Table;
} // namespace ks::core

namespace ks::widgets {

// D3: the diff class of every name of a compareTraces table, for colouring the
// timelines and filtering the table. Column positions, not names, are read:
// the side labels prefix the column names and are the user's choice.
class DiffClassification
{
public:
    // Below this relative change of total duration a name counts as unchanged:
    // run-to-run noise of a few percent is not a regression.
    static constexpr double kDefaultTolerance = 0.05;

    static DiffClassification fromTable(const core::Table& table, double tolerance = kDefaultTolerance);

    DiffClass rowClass(std::size_t row) const
    {
        return row < m_rows.size() ? m_rows[row] : DiffClass::Unchanged;
    }

    DiffClass classOf(std::string_view name) const;

    std::size_t rowCount() const { return m_rows.size(); }

    // The class of each NameId of a rank's string pool (names shortened first
    // when the table was made with short names): what the renderer looks up.
    std::vector<std::uint8_t> nameClassesOf(const core::RankTrace& trace, bool shortNames) const;

private:
    std::vector<DiffClass> m_rows;
    std::unordered_map<std::string, DiffClass> m_byName;
};

// One name's class from its counts and total durations on each side.
DiffClass classifyDiff(
    double controlCount, double controlTotal, double testCount, double testTotal, double tolerance);

} // namespace ks::widgets
