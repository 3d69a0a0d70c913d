#pragma once

#include "core/common/result.h"
#include "core/summary/sqlite_db.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ks::core {

// What a summary's meta table says about the job it describes.
struct SummaryMeta
{
    int schemaVersion = 0;
    std::string jobId;
    std::string mode; // "default" or "hta-compat"
    int bins = 0;
    std::int64_t binWidthNs = 0;
    std::int64_t binOriginNs = 0;
    std::size_t filesTotal = 0;
    std::size_t shardCount = 1;
    std::vector<std::size_t> shards; // the shards it holds (all of 0..count-1 when whole)
    std::map<std::string, std::string> values; // every meta row
};

// Opens a .kssum for reading after checking that it is one this build can
// read: an SQLite file (not truncated or damaged), with Kinetoscope's meta
// table, schema version kSummarySchemaVersion, and marked complete by its
// writer. Otherwise one clear error naming the file and what is wrong.
Result<SqliteDb> openSummary(const std::string& path, SummaryMeta& meta);

// "0,2,3" <-> {0, 2, 3}.
std::string formatShardList(const std::vector<std::size_t>& shards);
std::vector<std::size_t> parseShardList(const std::string& text);

} // namespace ks::core
