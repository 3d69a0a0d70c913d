#include "core/report/hta_json_writer.h"

#include "core/common/json_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace ks::core {

namespace {

    void appendFrame(std::string& out, const Table& t)
    {
        out += R"({"type":"dataframe","columns":[)";
        for (std::size_t c = 0; c < t.columns.size(); ++c) {
            if (c)
                out += ',';
            appendJsonString(out, t.columns[c].name);
        }
        out += R"(],"index_columns":[)";
        for (std::size_t c = 0; c < t.indexColumns.size(); ++c) {
            if (c)
                out += ',';
            appendJsonString(out, t.indexColumns[c]);
        }
        out += R"(],"n_rows":)" + std::to_string(t.rows.size()) + R"(,"records":[)";
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
            out += r ? ",{" : "{";
            for (std::size_t c = 0; c < t.columns.size() && c < t.rows[r].size(); ++c) {
                if (c)
                    out += ',';
                appendJsonString(out, t.columns[c].name);
                out += ':';
                appendCellJson(out, t.rows[r][c]);
            }
            out += '}';
        }
        out += "]}";
    }

    void appendResult(std::string& out, const HtaResult& r)
    {
        switch (r.kind) {
        case HtaResult::Kind::DataFrame:
            appendFrame(out, r.frame);
            break;
        case HtaResult::Kind::Tuple:
        case HtaResult::Kind::List:
            out += r.kind == HtaResult::Kind::Tuple ? R"({"type":"tuple","items":[)"
                                                    : R"({"type":"list","items":[)";
            for (std::size_t i = 0; i < r.items.size(); ++i) {
                if (i)
                    out += ',';
                appendResult(out, r.items[i]);
            }
            out += "]}";
            break;
        case HtaResult::Kind::Dict:
            out += R"({"type":"dict","items":{)";
            for (std::size_t i = 0; i < r.entries.size(); ++i) {
                if (i)
                    out += ',';
                appendJsonString(out, r.entries[i].first);
                out += ':';
                appendResult(out, r.entries[i].second);
            }
            out += "}}";
            break;
        case HtaResult::Kind::Scalar:
            out += R"({"type":"scalar","value":)";
            appendCellJson(out, r.scalar);
            out += '}';
            break;
        case HtaResult::Kind::None:
            out += R"({"type":"none"})";
            break;
        case HtaResult::Kind::RawJson:
            out += r.rawJson;
            break;
        }
    }

} // namespace

std::string pythonFloatText(double value)
{
    if (std::isnan(value))
        return "null";
    if (std::isinf(value))
        return value > 0 ? "\"inf\"" : "\"-inf\"";
    // Shortest round-trip text, with ".0" for integral values like Python's repr.
    char buf[64];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, value);
    std::string text(buf, ptr);
    if (text.find_first_of(".eEn") == std::string::npos)
        text += ".0";
    return text;
}

std::string htaResultJson(const HtaResult& result)
{
    std::string out;
    appendResult(out, result);
    return out;
}

std::string htaCallJson(const std::string& call, const std::string& argsJson, const AnalysisOutput& output)
{
    std::string out = "{\"call\":";
    appendJsonString(out, call);
    out += ",\"args\":" + (argsJson.empty() ? std::string("{}") : argsJson);
    out += output.ok ? ",\"ok\":true" : ",\"ok\":false";
    if (!output.ok) {
        out += ",\"error\":";
        appendJsonString(out, output.error);
    }
    out += ",\"result\":";
    const HtaResult none; // both arms lvalues: a ternary with a prvalue arm would copy the whole result
    appendResult(out, output.ok ? output.result : none);
    out += "}\n";
    return out;
}

void appendCellJson(std::string& out, const Cell& cell)
{
    if (std::holds_alternative<std::monostate>(cell)) {
        out += "null";
    } else if (const auto* i = std::get_if<std::int64_t>(&cell)) {
        out += std::to_string(*i);
    } else if (const auto* d = std::get_if<double>(&cell)) {
        out += pythonFloatText(*d);
    } else if (const auto* json = std::get_if<JsonText>(&cell)) {
        out += json->json;
    } else {
        appendJsonString(out, std::get<std::string>(cell));
    }
}

} // namespace ks::core
