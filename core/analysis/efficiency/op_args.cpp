#include "core/analysis/efficiency/op_args.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <vector>

namespace ks::core {

namespace {

    using simdjson::dom::element;

    const std::vector<std::int64_t> kNoShape;

    std::optional<std::vector<std::int64_t>> flatIntList(element e)
    {
        simdjson::dom::array list;
        if (e.get_array().get(list))
            return std::nullopt;
        std::vector<std::int64_t> out;
        for (element v : list) {
            std::int64_t n = 0;
            if (v.get_int64().get(n))
                return std::nullopt;
            out.push_back(n);
        }
        return out;
    }

    // Python's str() of the element: lists with ", ", strings quoted.
    void appendPython(std::string& out, element e)
    {
        simdjson::dom::array list;
        std::string_view text;
        if (!e.get_array().get(list)) {
            out += '[';
            bool first = true;
            for (element v : list) {
                if (!first)
                    out += ", ";
                first = false;
                appendPython(out, v);
            }
            out += ']';
        } else if (!e.get_string().get(text)) {
            out += '\'';
            out += text;
            out += '\'';
        } else if (e.is_null()) {
            out += "None";
        } else {
            out += simdjson::minify(e);
        }
    }

    bool readStrings(element e, std::vector<std::string>& out)
    {
        simdjson::dom::array list;
        if (e.get_array().get(list))
            return false;
        for (element v : list) {
            std::string_view s;
            out.emplace_back(v.get_string().get(s) ? std::string() : std::string(s));
        }
        return true;
    }

    std::string_view trimmed(std::string_view text)
    {
        while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
            text.remove_prefix(1);
        while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
            text.remove_suffix(1);
        return text;
    }

} // namespace

const std::vector<std::int64_t>& OpArgs::shape(std::size_t i) const
{
    return hasDims(i) ? *dims[i] : kNoShape;
}

struct OpArgsParser::Buffers
{
    simdjson::dom::parser parser;
    std::vector<char> padded; // the text, then simdjson's padding
};

OpArgsParser::OpArgsParser()
    : m_buffers(std::make_unique<Buffers>())
{
}

OpArgsParser::~OpArgsParser() = default;

ParsedArgs parseOpArgs(std::string_view argsJson)
{
    return OpArgsParser().parse(argsJson);
}

ParsedArgs OpArgsParser::parse(std::string_view argsJson)
{
    ParsedArgs parsed;
    if (argsJson.find("\"Input Dims\"") == std::string_view::npos)
        return parsed; // NoShapes
    parsed.problem = ArgsProblem::Malformed;
    std::vector<char>& padded = m_buffers->padded;
    padded.resize(argsJson.size() + simdjson::SIMDJSON_PADDING);
    std::copy(argsJson.begin(), argsJson.end(), padded.begin());
    std::fill(padded.begin() + static_cast<std::ptrdiff_t>(argsJson.size()), padded.end(), '\0');
    simdjson::dom::object object;
    if (m_buffers->parser.parse(padded.data(), argsJson.size(), false).get_object().get(object))
        return parsed;
    OpArgs args;
    element dims;
    simdjson::dom::array dimsList;
    if (object["Input Dims"].get(dims) || dims.get_array().get(dimsList))
        return parsed;
    for (element d : dimsList)
        args.dims.push_back(flatIntList(d));
    appendPython(args.dimsText, dims);
    element types;
    if (!object["Input type"].get(types)) {
        if (!readStrings(types, args.types))
            return parsed;
        appendPython(args.typesText, types);
    }
    element strides;
    simdjson::dom::array strideList;
    if (!object["Input Strides"].get(strides) && !strides.get_array().get(strideList)) {
        for (element s : strideList)
            args.strides.push_back(flatIntList(s).value_or(std::vector<std::int64_t> {}));
        appendPython(args.stridesText, strides);
    }
    element concrete;
    if (!object["Concrete Inputs"].get(concrete))
        readStrings(concrete, args.concrete);
    parsed.args = std::move(args);
    return parsed;
}

std::optional<bool> concreteBool(std::string_view text)
{
    text = trimmed(text);
    if (text == "True" || text == "true" || text == "1")
        return true;
    if (text == "False" || text == "false" || text == "0")
        return false;
    return std::nullopt;
}

std::optional<std::int64_t> concreteInt(std::string_view text)
{
    text = trimmed(text);
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return value;
}

std::optional<double> concreteDouble(std::string_view text)
{
    text = trimmed(text);
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return value;
}

std::optional<std::vector<std::int64_t>> concreteIntList(std::string_view text)
{
    text = trimmed(text);
    if (text.size() < 2 || (text.front() != '[' && text.front() != '(')
        || (text.back() != ']' && text.back() != ')'))
        return std::nullopt;
    text = text.substr(1, text.size() - 2);
    std::vector<std::int64_t> values;
    while (!trimmed(text).empty()) {
        const std::size_t comma = text.find(',');
        const auto value = concreteInt(text.substr(0, comma));
        if (!value)
            return std::nullopt;
        values.push_back(*value);
        if (comma == std::string_view::npos)
            break;
        text.remove_prefix(comma + 1);
    }
    return values;
}

double elementCount(const std::vector<std::int64_t>& shape)
{
    double n = 1;
    for (const std::int64_t d : shape)
        n *= static_cast<double>(d);
    return n;
}

} // namespace ks::core
