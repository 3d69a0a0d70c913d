#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ks::core {

// How the rank of a file was decided (product spec L2).
enum class RankSource : std::uint8_t
{
    DistributedInfo, // distributedInfo.rank in the JSON
    FileName, // a number in the file name: rank-3, rank_3, worker3
    FileOrder, // the file's position among the folder's files, by name
};

std::string_view rankSourceName(RankSource source);

struct ProcessGroupConfig
{
    std::string name;
    std::string description;
    std::string backendConfig;
    std::int64_t size = 0;
    std::vector<std::int64_t> ranks;
};

struct DeviceProperties
{
    std::int64_t id = -1;
    std::string name;
    std::int64_t totalGlobalMem = 0;
    std::int64_t computeMajor = 0;
    std::int64_t computeMinor = 0;
    std::int64_t numSms = 0;
    std::string gcnArchName; // AMD: "gfx942" (or "gfx942:sramecc+:xnack-"); empty on NVIDIA
};

// The top-level keys of a Kineto trace other than traceEvents.
struct RankMetadata
{
    std::optional<std::int64_t> schemaVersion;
    std::optional<std::int64_t> baseTimeNanoseconds;
    std::optional<std::string> traceName;
    std::optional<std::string> displayTimeUnit;

    bool hasDistributedInfo = false;
    std::optional<std::int64_t> distributedRank;
    std::optional<std::int64_t> worldSize;
    std::optional<std::string> backend;
    std::optional<std::int64_t> pgCount;
    std::vector<ProcessGroupConfig> processGroups;

    std::vector<DeviceProperties> devices;

    // Every top-level key except traceEvents, with its raw JSON text, in file order.
    std::vector<std::pair<std::string, std::string>> rawKeys;
};

} // namespace ks::core
