#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ks::core {

// A kernel's "grid" or "block": three dimensions, each >= 1 as CUDA launches them.
using LaunchDims = std::array<std::int32_t, 3>;

// The args analyses need, pulled from the raw args JSON text by key.
struct TypedArgs
{
    std::optional<std::int64_t> stream;
    std::optional<std::int64_t> correlation;
    std::optional<std::int64_t> externalId;
    std::optional<std::int64_t> device;
    std::optional<std::int64_t> bytes;
    std::optional<double> memoryBandwidthGBps;
    std::optional<std::int64_t> waitOnStream;
    std::optional<std::int64_t> waitOnEventRecordCorrelation;
    std::optional<std::string> collectiveName;
    std::optional<std::int64_t> inMsgNelems;
    std::optional<std::int64_t> outMsgNelems;
    std::optional<std::string> dtype;
    std::optional<std::int64_t> groupSize;
    std::optional<std::int64_t> processRank;
    std::optional<std::string> processGroupName;
    std::optional<std::int64_t> sequenceNumber;
    std::optional<std::string> processGroupRanks; // a string's content, or a JSON array's text
    std::optional<std::string> processGroupDescription;
    // CUDA kernels' launch figures (Kineto writes them on every kernel)
    std::optional<double> blocksPerSm;
    std::optional<double> warpsPerSm;
    std::optional<double> occupancyPct; // "est. achieved occupancy %"
    std::optional<LaunchDims> grid;
    std::optional<LaunchDims> block;

    bool hasActivity() const { return stream || correlation || hasExtra() || hasLaunch(); }

    bool hasExtra() const
    {
        return bytes || memoryBandwidthGBps || waitOnStream || waitOnEventRecordCorrelation || collectiveName
            || inMsgNelems || outMsgNelems || dtype || groupSize || processRank || processGroupName
            || sequenceNumber || processGroupRanks || processGroupDescription;
    }

    bool hasLaunch() const { return blocksPerSm || warpsPerSm || occupancyPct || grid || block; }
};

// Which typed arg a key names; None for args kept only as text.
enum class TypedArgKey : std::uint8_t
{
    None,
    Stream,
    Correlation,
    ExternalId,
    Device,
    Bytes,
    MemoryBandwidth,
    WaitOnStream,
    WaitOnEventRecord,
    CollectiveName,
    InMsgNelems,
    OutMsgNelems,
    Dtype,
    GroupSize,
    ProcessRank,
    ProcessGroupName,
    SequenceNumber,
    ProcessGroupRanks,
    ProcessGroupDescription,
    BlocksPerSm,
    WarpsPerSm,
    AchievedOccupancy,
    Grid,
    Block,
    CommsId // NCCL kernels' communicator hash, a uint64: read for the diagnostics only, not kept
};

TypedArgKey typedArgKey(std::string_view key);
bool isTextArg(TypedArgKey key); // stored from a JSON string
bool isRealArg(TypedArgKey key); // stored as double
void assignIntArg(TypedArgs& args, TypedArgKey key, std::int64_t value);
void assignRealArg(TypedArgs& args, TypedArgKey key, double value);
void assignTextArg(TypedArgs& args, TypedArgKey key, std::string value);
bool isDimsArg(TypedArgKey key); // "grid" and "block": a JSON array of three integers
void assignDimsArg(TypedArgs& args, TypedArgKey key, LaunchDims value);
// "[a, b, c]" as three integers; nullopt for anything else.
std::optional<LaunchDims> dimsFromText(std::string_view arrayText);

// Calls visit(key, rawValueToken) for each member of a JSON object text. Keys
// are unescaped only when they contain escapes. Returns false on malformed text.
template <typename Visit>
bool forEachMember(std::string_view objectText, Visit&& visit);

TypedArgs extractTypedArgs(std::string_view argsText);

class RankTrace;
// A slice's "External id", re-read from its file (the store keeps no column for it:
// only sync events' refs need it); -1 when the slice has none or the file cannot be
// re-read. Not for hot loops.
std::int64_t rereadExternalId(const RankTrace& trace, std::uint32_t slice);

// Numbers from raw tokens: integers (also "7" strings and 7.0 floats) and doubles.
std::optional<std::int64_t> tokenToInt(std::string_view token);
std::optional<double> tokenToDouble(std::string_view token);
std::optional<std::string> tokenToString(std::string_view token);

// All members with numeric values (for counter events).
std::vector<std::pair<std::string, double>> numericMembers(std::string_view objectText);

} // namespace ks::core

#include "core/io/store_builder/typed_args_impl.h"
