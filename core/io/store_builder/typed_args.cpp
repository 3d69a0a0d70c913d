#include "core/io/store_builder/typed_args.h"

#include "core/io/json/args_reader.h"

#include <algorithm>
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

TypedArgKey typedArgKey(std::string_view key)
{
    // Dispatch on length first: most args keys are rejected by one compare.
    switch (key.size()) {
    case 3:
        return key == "Seq" ? TypedArgKey::SequenceNumber : TypedArgKey::None;
    case 4:
        return key == "Rank" ? TypedArgKey::ProcessRank
            : key == "grid"  ? TypedArgKey::Grid
                             : TypedArgKey::None;
    case 5:
        return key == "bytes" ? TypedArgKey::Bytes
            : key == "dtype"  ? TypedArgKey::Dtype
            : key == "block"  ? TypedArgKey::Block
                              : TypedArgKey::None;
    case 6:
        return key == "stream" ? TypedArgKey::Stream
            : key == "device"  ? TypedArgKey::Device
                               : TypedArgKey::None;
    case 8:
        return key == "Comms Id" ? TypedArgKey::CommsId : TypedArgKey::None;
    case 10:
        return key == "Group size" ? TypedArgKey::GroupSize : TypedArgKey::None;
    case 11:
        return key == "correlation" ? TypedArgKey::Correlation
            : key == "External id"  ? TypedArgKey::ExternalId
                                    : TypedArgKey::None;
    case 12:
        return key == "warps per SM" ? TypedArgKey::WarpsPerSm : TypedArgKey::None;
    case 13:
        return key == "In msg nelems" ? TypedArgKey::InMsgNelems
            : key == "blocks per SM"  ? TypedArgKey::BlocksPerSm
                                      : TypedArgKey::None;
    case 14:
        return key == "Out msg nelems" ? TypedArgKey::OutMsgNelems
            : key == "wait_on_stream"  ? TypedArgKey::WaitOnStream
                                       : TypedArgKey::None;
    case 15:
        return key == "Collective name" ? TypedArgKey::CollectiveName : TypedArgKey::None;
    case 18:
        return key == "Process Group Name" ? TypedArgKey::ProcessGroupName : TypedArgKey::None;
    case 19:
        return key == "Process Group Ranks" ? TypedArgKey::ProcessGroupRanks : TypedArgKey::None;
    case 25:
        return key == "Process Group Description" ? TypedArgKey::ProcessGroupDescription
            : key == "est. achieved occupancy %"  ? TypedArgKey::AchievedOccupancy
                                                  : TypedArgKey::None;
    case 23:
        return key == "memory bandwidth (GB/s)" ? TypedArgKey::MemoryBandwidth : TypedArgKey::None;
    case 33:
        return key == "wait_on_cuda_event_record_corr_id" ? TypedArgKey::WaitOnEventRecord
                                                          : TypedArgKey::None;
    default:
        return TypedArgKey::None;
    }
}

bool isTextArg(TypedArgKey key)
{
    return key == TypedArgKey::CollectiveName || key == TypedArgKey::Dtype
        || key == TypedArgKey::ProcessGroupName || key == TypedArgKey::ProcessGroupRanks
        || key == TypedArgKey::ProcessGroupDescription;
}

bool isRealArg(TypedArgKey key)
{
    return key == TypedArgKey::MemoryBandwidth || key == TypedArgKey::BlocksPerSm
        || key == TypedArgKey::WarpsPerSm || key == TypedArgKey::AchievedOccupancy;
}

bool isDimsArg(TypedArgKey key)
{
    return key == TypedArgKey::Grid || key == TypedArgKey::Block;
}

void assignDimsArg(TypedArgs& a, TypedArgKey key, LaunchDims v)
{
    if (key == TypedArgKey::Grid)
        a.grid = v;
    else if (key == TypedArgKey::Block)
        a.block = v;
}

std::optional<LaunchDims> dimsFromText(std::string_view text)
{
    if (text.size() < 2 || text.front() != '[' || text.back() != ']')
        return std::nullopt;
    LaunchDims dims {};
    std::size_t count = 0;
    std::size_t pos = 1;
    while (pos < text.size() - 1) {
        const std::size_t comma = std::min(text.find(',', pos), text.size() - 1);
        std::string_view item = text.substr(pos, comma - pos);
        while (!item.empty() && (item.front() == ' ' || item.front() == '\n' || item.front() == '\t'))
            item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\n' || item.back() == '\t'))
            item.remove_suffix(1);
        std::int32_t value = 0;
        const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
        if (item.empty() || ec != std::errc() || ptr != item.data() + item.size() || count == dims.size())
            return std::nullopt;
        dims[count++] = value;
        pos = comma + 1;
    }
    if (count != dims.size())
        return std::nullopt;
    return dims;
}

namespace {

    void assignLaunchFigure(TypedArgs& a, TypedArgKey key, double v)
    {
        if (key == TypedArgKey::BlocksPerSm)
            a.blocksPerSm = v;
        else if (key == TypedArgKey::WarpsPerSm)
            a.warpsPerSm = v;
        else if (key == TypedArgKey::AchievedOccupancy)
            a.occupancyPct = v;
    }

} // namespace

void assignIntArg(TypedArgs& a, TypedArgKey key, std::int64_t v)
{
    switch (key) {
    case TypedArgKey::Stream:
        a.stream = v;
        break;
    case TypedArgKey::Correlation:
        a.correlation = v;
        break;
    case TypedArgKey::ExternalId:
        a.externalId = v;
        break;
    case TypedArgKey::Device:
        a.device = v;
        break;
    case TypedArgKey::Bytes:
        a.bytes = v;
        break;
    case TypedArgKey::WaitOnStream:
        a.waitOnStream = v;
        break;
    case TypedArgKey::WaitOnEventRecord:
        a.waitOnEventRecordCorrelation = v;
        break;
    case TypedArgKey::InMsgNelems:
        a.inMsgNelems = v;
        break;
    case TypedArgKey::OutMsgNelems:
        a.outMsgNelems = v;
        break;
    case TypedArgKey::GroupSize:
        a.groupSize = v;
        break;
    case TypedArgKey::ProcessRank:
        a.processRank = v;
        break;
    case TypedArgKey::SequenceNumber:
        a.sequenceNumber = v;
        break;
    case TypedArgKey::MemoryBandwidth:
        a.memoryBandwidthGBps = static_cast<double>(v);
        break;
    case TypedArgKey::BlocksPerSm:
    case TypedArgKey::WarpsPerSm:
    case TypedArgKey::AchievedOccupancy:
        assignLaunchFigure(a, key, static_cast<double>(v));
        break;
    default:
        break;
    }
}

void assignRealArg(TypedArgs& a, TypedArgKey key, double v)
{
    if (key == TypedArgKey::MemoryBandwidth)
        a.memoryBandwidthGBps = v;
    else if (isRealArg(key))
        assignLaunchFigure(a, key, v);
    else if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9.2e18)
        assignIntArg(a, key, static_cast<std::int64_t>(v));
}

void assignTextArg(TypedArgs& a, TypedArgKey key, std::string v)
{
    if (key == TypedArgKey::CollectiveName)
        a.collectiveName = std::move(v);
    else if (key == TypedArgKey::Dtype)
        a.dtype = std::move(v);
    else if (key == TypedArgKey::ProcessGroupName)
        a.processGroupName = std::move(v);
    else if (key == TypedArgKey::ProcessGroupRanks)
        a.processGroupRanks = std::move(v);
    else if (key == TypedArgKey::ProcessGroupDescription)
        a.processGroupDescription = std::move(v);
    else if (auto n = tokenToInt("\"" + v + "\""))
        assignIntArg(a, key, *n); // "stream": "7"
}

TypedArgs extractTypedArgs(std::string_view argsText)
{
    TypedArgs a;
    forEachMember(argsText, [&a](std::string_view key, std::string_view value) {
        const TypedArgKey k = typedArgKey(key);
        if (k == TypedArgKey::None)
            return;
        if (k == TypedArgKey::ProcessGroupRanks && !value.empty() && value.front() == '[') {
            a.processGroupRanks = std::string(value); // a JSON array instead of a string
        } else if (isDimsArg(k)) {
            if (const auto dims = dimsFromText(value))
                assignDimsArg(a, k, *dims);
        } else if (isTextArg(k) || (!value.empty() && value.front() == '"')) {
            if (auto s = tokenToString(value))
                assignTextArg(a, k, std::move(*s));
        } else if (isRealArg(k)) {
            if (auto d = tokenToDouble(value))
                assignRealArg(a, k, *d);
        } else if (auto i = tokenToInt(value)) {
            assignIntArg(a, k, *i);
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

std::int64_t rereadExternalId(const RankTrace& trace, std::uint32_t slice)
{
    const auto text = sliceArgs(trace, slice);
    if (!text)
        return -1;
    return extractTypedArgs(text.value()).externalId.value_or(-1);
}

} // namespace ks::core
