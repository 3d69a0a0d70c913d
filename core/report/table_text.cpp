#include "core/report/table_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ks::core {

namespace {

    std::string cellForPerson(const Cell& cell)
    {
        if (std::holds_alternative<std::monostate>(cell))
            return "-";
        if (const auto* d = std::get_if<double>(&cell)) {
            char buf[48];
            // µs and counts (whole, or 1000 and more) in fixed notation, the digits a person
            // compares; percentages and ratios, and what is too long or too small for fixed
            // notation, with 4 significant digits.
            const double magnitude = std::abs(*d);
            const bool fixedFits = magnitude < 1e15 && (magnitude >= 1e-2 || magnitude == 0);
            const bool fixed = fixedFits && (magnitude >= 1e3 || *d == std::trunc(*d));
            std::snprintf(buf, sizeof buf, fixed ? "%.0f" : "%.4g", *d);
            return buf;
        }
        return cellAsText(cell);
    }

    bool isNumeric(const Cell& cell)
    {
        return std::holds_alternative<std::int64_t>(cell) || std::holds_alternative<double>(cell);
    }

    void appendTable(std::string& out, const std::string& title, const Table& t)
    {
        out += "== " + title + " ==\n";
        if (t.notApplicable) {
            out += "not applicable: " + *t.notApplicable + "\n\n";
            return;
        }
        constexpr std::size_t kMaxWidth = 60;
        // Two passes over the cells, formatting each twice: keeping every cell's text
        // for the widths cost 150 MB on a per-kernel table of 8 ranks. The widths
        // also give the text's exact size, so the output grows once.
        auto shownCell = [&t](std::size_t r, std::size_t c) {
            std::string s = c < t.rows[r].size() ? cellForPerson(t.rows[r][c]) : "";
            if (s.size() > kMaxWidth)
                s = s.substr(0, kMaxWidth - 3) + "...";
            return s;
        };
        std::vector<std::size_t> width(t.columns.size());
        for (std::size_t c = 0; c < t.columns.size(); ++c)
            width[c] = std::min(kMaxWidth, t.columns[c].name.size());
        for (std::size_t r = 0; r < t.rows.size(); ++r)
            for (std::size_t c = 0; c < t.columns.size(); ++c)
                width[c] = std::max(width[c], shownCell(r, c).size());
        std::size_t lineLength = 1; // the newline
        for (std::size_t c = 0; c < t.columns.size(); ++c)
            lineLength += width[c] + (c ? 2 : 0);
        out.reserve(out.size() + lineLength * (t.rows.size() + 1) + 16);
        auto append = [&out](const std::string& s, std::size_t w, bool right) {
            const std::size_t fill = w > s.size() ? w - s.size() : 0;
            if (right)
                out.append(fill, ' ');
            out += s;
            if (!right)
                out.append(fill, ' ');
        };
        for (std::size_t c = 0; c < t.columns.size(); ++c) {
            if (c)
                out += "  ";
            append(t.columns[c].name.substr(0, kMaxWidth), width[c], false);
        }
        out += '\n';
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
            for (std::size_t c = 0; c < t.columns.size(); ++c) {
                if (c)
                    out += "  ";
                append(shownCell(r, c), width[c], c < t.rows[r].size() && isNumeric(t.rows[r][c]));
            }
            out += '\n';
        }
        if (t.rows.empty())
            out += "(no rows)\n";
        out += '\n';
    }

    void appendCsvField(std::string& out, const std::string& s)
    {
        if (s.find_first_of(",\"\n\r") == std::string::npos) {
            out += s;
            return;
        }
        out += '"';
        for (char c : s) {
            if (c == '"')
                out += '"';
            out += c;
        }
        out += '"';
    }

    void collect(
        std::vector<std::pair<std::string, const Table*>>& out, const std::string& prefix, const HtaResult& r)
    {
        switch (r.kind) {
        case HtaResult::Kind::DataFrame:
            out.emplace_back(prefix, &r.frame);
            break;
        case HtaResult::Kind::Tuple:
        case HtaResult::Kind::List:
            for (std::size_t i = 0; i < r.items.size(); ++i)
                collect(out, prefix + "_" + std::to_string(i), r.items[i]);
            break;
        case HtaResult::Kind::Dict:
            for (const auto& [key, value] : r.entries)
                collect(out, prefix + "_rank" + key, value);
            break;
        default:
            break;
        }
    }

} // namespace

std::vector<std::pair<std::string, const Table*>> framesOf(const HtaResult& result)
{
    std::vector<std::pair<std::string, const Table*>> out;
    collect(out, "", result);
    return out;
}

std::string resultAsText(const std::string& title, const HtaResult& result)
{
    std::string out;
    if (result.kind == HtaResult::Kind::Scalar)
        return "== " + title + " ==\n" + cellForPerson(result.scalar) + "\n\n";
    if (result.kind == HtaResult::Kind::List && !result.items.empty()
        && result.items.front().kind == HtaResult::Kind::Scalar) {
        out += "== " + title + " ==\n";
        for (const HtaResult& item : result.items)
            out += cellForPerson(item.scalar) + "\n";
        return out + "\n";
    }
    if (result.kind == HtaResult::Kind::None)
        return "== " + title + " ==\n(none)\n\n";
    for (const auto& [suffix, table] : framesOf(result))
        appendTable(out, title + (suffix.empty() ? "" : " [" + suffix.substr(1) + "]"), *table);
    return out;
}

std::string tableAsCsv(const Table& t)
{
    std::string out;
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        if (c)
            out += ',';
        appendCsvField(out, t.columns[c].name);
    }
    out += '\n';
    auto appendRow = [](std::string& to, const TableRows::Row& row) {
        for (std::size_t c = 0; c < row.size(); ++c) {
            if (c)
                to += ',';
            appendCsvField(to, cellAsText(row[c]));
        }
        to += '\n';
    };
    // Each row formatted twice: once for the text's size, so that a table of
    // millions of rows grows its text once instead of doubling (and copying) it.
    std::size_t size = out.size();
    std::string line;
    for (const auto& row : t.rows) {
        line.clear();
        appendRow(line, row);
        size += line.size();
    }
    out.reserve(size);
    for (const auto& row : t.rows)
        appendRow(out, row);
    return out;
}

} // namespace ks::core
