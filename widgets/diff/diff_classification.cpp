#include "widgets/diff/diff_classification.h"

#include "core/analysis/hta/trace_diff.h"
#include "core/analysis/tables/table.h"
#include "core/model/rank_trace.h"

namespace ks::widgets {

namespace {

    // compareTraces' columns: name, control count, control total, test count, test total, ...
    constexpr std::size_t kNameColumn = 0;
    constexpr std::size_t kControlCount = 1;
    constexpr std::size_t kControlTotal = 2;
    constexpr std::size_t kTestCount = 3;
    constexpr std::size_t kTestTotal = 4;

    double number(const core::Cell& cell)
    {
        return core::cellAsDouble(cell).value_or(0.0);
    }

} // namespace

DiffClass classifyDiff(
    double controlCount, double controlTotal, double testCount, double testTotal, double tolerance)
{
    if (controlCount <= 0 && testCount > 0)
        return DiffClass::Added;
    if (testCount <= 0 && controlCount > 0)
        return DiffClass::Removed;
    const double change = testTotal - controlTotal;
    const double scale = std::max(controlTotal, 1e-9);
    if (change > tolerance * scale)
        return DiffClass::Slower;
    if (change < -tolerance * scale)
        return DiffClass::Faster;
    return DiffClass::Unchanged;
}

DiffClassification DiffClassification::fromTable(const core::Table& table, double tolerance)
{
    DiffClassification out;
    if (table.columns.size() <= kTestTotal)
        return out;
    out.m_rows.reserve(table.rows.size());
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const auto row = table.rows[r];
        const DiffClass diff = classifyDiff(number(row[kControlCount]), number(row[kControlTotal]),
            number(row[kTestCount]), number(row[kTestTotal]), tolerance);
        out.m_rows.push_back(diff);
        out.m_byName.emplace(core::cellAsText(row[kNameColumn]), diff);
    }
    return out;
}

DiffClass DiffClassification::classOf(std::string_view name) const
{
    const auto it = m_byName.find(std::string(name));
    return it == m_byName.end() ? DiffClass::Unchanged : it->second;
}

std::vector<std::uint8_t> DiffClassification::nameClassesOf(
    const core::RankTrace& trace, bool shortNames) const
{
    std::vector<std::uint8_t> classes(trace.strings.size(), static_cast<std::uint8_t>(DiffClass::Unchanged));
    for (std::uint32_t n = 0; n < trace.strings.size(); ++n) {
        const std::string_view name = trace.strings.view(core::NameId(n));
        const DiffClass diff = shortNames ? classOf(core::shortenName(name)) : classOf(name);
        classes[n] = static_cast<std::uint8_t>(diff);
    }
    return classes;
}

} // namespace ks::widgets
