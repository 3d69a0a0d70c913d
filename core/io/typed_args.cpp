#include "core/io/typed_args.h"

#include <charconv>
#include <cmath>

namespace ks::core {

std::optional<std::int64_t> tokenToInt(std::string_view token)
{
    if (token.size() >= 2 && token.front() == '"') // stream ids are sometimes written as strings
        token = token.substr(1, token.size() - 2);
    std::int64_t value = 0;
    auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec == std::errc() && ptr == token.data() + token.size())
        return value;
    // 7.0 or 1e3 written for an integer field
    auto d = tokenToDouble(token);
    if (d && std::isfinite(*d) && std::fabs(*d) < 9.2e18 && std::floor(*d) == *d)
        return static_cast<std::int64_t>(*d);
    return std::nullopt;
}

std::optional<double> tokenToDouble(std::string_view token)
{
    double value = 0;
    auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec == std::errc() && ptr == token.data() + token.size())
        return value;
    return std::nullopt;
}

std::optional<std::string> tokenToString(std::string_view token)
{
    if (token.empty() || token.front() != '"')
        return std::nullopt;
    if (token.find('\\') == std::string_view::npos)
        return std::string(token.substr(1, token.size() - 2));
    return json::unescapeString(token);
}

TypedArgs extractTypedArgs(std::string_view argsText)
{
    TypedArgs a;
    forEachMember(argsText, [&a](std::string_view key, std::string_view value) {
        switch (key.size()) {
        case 3:
            if (key == "Seq")
                a.sequenceNumber = tokenToInt(value);
            break;
        case 4:
            if (key == "Rank")
                a.processRank = tokenToInt(value);
            break;
        case 5:
            if (key == "bytes")
                a.bytes = tokenToInt(value);
            else if (key == "dtype")
                a.dtype = tokenToString(value);
            break;
        case 6:
            if (key == "stream")
                a.stream = tokenToInt(value);
            else if (key == "device")
                a.device = tokenToInt(value);
            break;
        case 10:
            if (key == "Group size")
                a.groupSize = tokenToInt(value);
            break;
        case 11:
            if (key == "correlation")
                a.correlation = tokenToInt(value);
            else if (key == "External id")
                a.externalId = tokenToInt(value);
            break;
        case 13:
            if (key == "In msg nelems")
                a.inMsgNelems = tokenToInt(value);
            break;
        case 14:
            if (key == "Out msg nelems")
                a.outMsgNelems = tokenToInt(value);
            else if (key == "wait_on_stream")
                a.waitOnStream = tokenToInt(value);
            break;
        case 15:
            if (key == "Collective name")
                a.collectiveName = tokenToString(value);
            break;
        case 18:
            if (key == "Process Group Name")
                a.processGroupName = tokenToString(value);
            break;
        case 23:
            if (key == "memory bandwidth (GB/s)")
                a.memoryBandwidthGBps = tokenToDouble(value);
            break;
        case 33:
            if (key == "wait_on_cuda_event_record_corr_id")
                a.waitOnEventRecordCorrelation = tokenToInt(value);
            break;
        default:
            break;
        }
    });
    return a;
}

std::vector<std::pair<std::string, double>> numericMembers(std::string_view objectText)
{
    std::vector<std::pair<std::string, double>> out;
    forEachMember(objectText, [&out](std::string_view key, std::string_view value) {
        if (auto d = tokenToDouble(value))
            out.emplace_back(std::string(key), *d);
    });
    return out;
}

} // namespace ks::core
