#include "core/report/hta_overlay_flows.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

namespace ks::core {

namespace {

    // A JSON number as Python's json module reads it: an int when the token has
    // no fraction or exponent, else a float (a correctly rounded double, as strtod).
    struct PyNumber
    {
        bool isInt = true;
        std::int64_t i = 0;
        double d = 0.0;

        double asDouble() const { return isInt ? static_cast<double>(i) : d; }
    };

    std::optional<PyNumber> parseNumber(std::string_view text)
    {
        if (text.empty())
            return std::nullopt;
        PyNumber n;
        if (text.find_first_of(".eE") == std::string_view::npos) {
            const auto r = std::from_chars(text.data(), text.data() + text.size(), n.i);
            if (r.ec == std::errc() && r.ptr == text.data() + text.size())
                return n;
        }
        const std::string copy(text);
        char* end = nullptr;
        n.isInt = false;
        n.d = std::strtod(copy.c_str(), &end);
        if (end != copy.c_str() + copy.size())
            return std::nullopt;
        return n;
    }

    PyNumber add(const PyNumber& a, const PyNumber& b, int sign)
    {
        if (a.isInt && b.isInt)
            return { true, sign > 0 ? a.i + b.i : a.i - b.i, 0.0 };
        return { false, 0, sign > 0 ? a.asDouble() + b.asDouble() : a.asDouble() - b.asDouble() };
    }

    // Python's int(x): truncation toward zero.
    std::int64_t truncate(const PyNumber& n)
    {
        return n.isInt ? n.i : static_cast<std::int64_t>(std::trunc(n.d));
    }

} // namespace

bool htaDrawsEdge(CpEdgeType type)
{
    return type == CpEdgeType::Dependency || type == CpEdgeType::KernelLaunchDelay
        || type == CpEdgeType::SyncDependency;
}

std::optional<std::int64_t> htaFlowTimestamp(const RawFlowEndpoint& event, bool atStartNode)
{
    const auto ts = parseNumber(event.ts);
    if (!ts)
        return std::nullopt;
    if (atStartNode)
        return truncate(*ts);
    const auto dur = parseNumber(event.dur);
    if (!dur)
        return std::nullopt;
    PyNumber end = add(*ts, *dur, +1);
    // An arrow into the very end of a GPU event is drawn 1 µs inside it.
    const auto device = parseNumber(event.device);
    if (device && device->asDouble() >= 0) {
        // min(1, dur) keeps the int 1 unless dur is smaller.
        const PyNumber one { true, 1, 0.0 };
        end = add(end, dur->asDouble() < 1.0 ? *dur : one, -1);
    }
    return truncate(end);
}

std::string htaFlowEvent(
    const RawFlowEndpoint& event, std::int64_t ts, const CpEdge& edge, std::size_t id, bool start)
{
    // HTA's weights are µs; int() truncates toward zero, as integer division does.
    const std::int64_t weight = edge.weight / 1000;
    std::string out = start ? R"({"ph":"s","id":)" : R"({"ph":"f","id":)";
    out += std::to_string(id);
    out += ",\"pid\":" + event.pid + ",\"tid\":" + event.tid + ",\"ts\":" + std::to_string(ts);
    out += R"(,"cat":"critical_path","name":"critical_path","args":{"weight":)" + std::to_string(weight);
    out += R"(,"critical":true,"type":")";
    out += cpEdgeTypeName(edge.type);
    out += start ? "\"}}" : "\"},\"bp\":\"e\"}";
    return out;
}

} // namespace ks::core
