#include "core/analysis/hta/frame_args.h"

#include "core/io/json/args_reader.h"
#include "core/io/json/json_scan.h"

#include <algorithm>
#include <charconv>

namespace ks::core::frame_args {

const std::vector<ArgColumn>& defaultArgColumns()
{
    static const std::vector<ArgColumn> columns {
        { "bytes", "bytes", std::int64_t { -1 } },
        { "memory_bw_gbps", "memory bandwidth (GB/s)", 0.0 },
        { "wait_on_stream", "wait_on_stream", std::int64_t { -1 } },
        { "wait_on_cuda_event_record_corr_id", "wait_on_cuda_event_record_corr_id", std::int64_t { -1 } },
        { "input_dims", "Input Dims", std::string("-1") },
        { "input_type", "Input type", std::string("-1") },
        { "input_strides", "Input Strides", std::string("-1") },
        { "external_id", "External id", std::int64_t { -1 } },
        { "python_id", "Python id", std::int64_t { -1 } },
        { "python_parent_id", "Python parent id", std::int64_t { -1 } },
        { "collective_name", "Collective name", std::string() },
        { "in_msg_nelems", "In msg nelems", std::int64_t { 0 } },
        { "out_msg_nelems", "Out msg nelems", std::int64_t { 0 } },
        { "msg_dtype", "dtype", std::string() },
        { "group_size", "Group size", std::int64_t { 0 } },
        { "process_rank", "Rank", std::int64_t { -1 } },
        { "in_split_size", "In split size", std::string("[]") },
        { "out_split_size", "Out split size", std::string("[]") },
    };
    return columns;
}

bool hasArgColumns(const RankTrace& trace)
{
    return trace.counts.eventWithArgs;
}

std::vector<std::pair<std::string, std::string_view>> members(std::string_view args)
{
    std::vector<std::pair<std::string, std::string_view>> out;
    std::size_t pos = json::skipWhitespace(args, 0);
    if (pos >= args.size() || args[pos] != '{')
        return out;
    ++pos;
    while (true) {
        pos = json::skipWhitespace(args, pos);
        if (pos >= args.size() || args[pos] != '"')
            return out;
        const json::ScanResult key = json::scanString(args, pos);
        if (key.status != json::ScanStatus::Complete)
            return out;
        auto name = json::unescapeString(args.substr(pos, key.end - pos));
        pos = json::skipWhitespace(args, key.end);
        if (pos >= args.size() || args[pos] != ':')
            return out;
        const std::size_t valueStart = json::skipWhitespace(args, pos + 1);
        const json::ScanResult value = json::scanValue(args, valueStart);
        if (value.status != json::ScanStatus::Complete)
            return out;
        if (name) {
            const std::string_view text = args.substr(valueStart, value.end - valueStart);
            const auto same =
                std::find_if(out.begin(), out.end(), [&name](const auto& m) { return m.first == *name; });
            if (same != out.end())
                same->second = text;
            else
                out.emplace_back(std::move(*name), text);
        }
        pos = json::skipWhitespace(args, value.end);
        if (pos >= args.size() || args[pos] != ',')
            return out;
        ++pos;
    }
}

Cell valueCell(std::string_view json)
{
    if (json.empty() || json == "null")
        return std::monostate {};
    if (json.front() == '"') {
        if (auto text = json::unescapeString(json))
            return std::move(*text);
        return JsonText { std::string(json) };
    }
    if (json.front() == '[' || json.front() == '{' || json == "true" || json == "false")
        return JsonText { std::string(json) };
    const char* begin = json.data();
    const char* end = begin + json.size();
    if (json.find_first_of(".eE") == std::string_view::npos) {
        std::int64_t integer = 0;
        const auto [ptr, ec] = std::from_chars(begin, end, integer);
        if (ec == std::errc() && ptr == end)
            return integer;
    }
    double real = 0.0;
    const auto [ptr, ec] = std::from_chars(begin, end, real);
    if (ec == std::errc() && ptr == end)
        return real;
    return JsonText { std::string(json) }; // not a number we read: kept as written
}

Result<std::map<std::uint32_t, std::vector<Cell>>> argCells(
    const RankTrace& trace, std::vector<std::uint32_t> slices, const std::vector<ArgColumn>& columns)
{
    std::map<std::uint32_t, std::vector<Cell>> out;
    std::vector<Cell> defaults;
    defaults.reserve(columns.size());
    for (const ArgColumn& c : columns)
        defaults.push_back(c.fallback);
    for (const std::uint32_t s : slices)
        out.emplace(s, defaults);
    const auto error =
        forEachSliceArgs(trace, std::move(slices), [&](std::uint32_t slice, std::string_view text) {
            std::vector<Cell>& cells = out[slice];
            for (const auto& [key, value] : members(text)) {
                for (std::size_t c = 0; c < columns.size(); ++c)
                    if (columns[c].key == key)
                        cells[c] = valueCell(value);
            }
        });
    if (error)
        return *error;
    return out;
}

} // namespace ks::core::frame_args
