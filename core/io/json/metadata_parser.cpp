#include "core/io/json/metadata_parser.h"

#include <simdjson.h>

#include <string>

namespace ks::core {

namespace dom = simdjson::dom;

namespace {

    std::optional<std::int64_t> intOf(dom::element e)
    {
        std::int64_t v = 0;
        if (!e.get_int64().get(v))
            return v;
        double d = 0;
        // A double outside int64's range (1e300, NaN) has no integer value;
        // converting it anyway is undefined behaviour.
        constexpr double kInt64Bound = 9223372036854775808.0; // 2^63
        if (!e.get_double().get(d))
            return d >= -kInt64Bound && d < kInt64Bound
                ? std::optional<std::int64_t>(static_cast<std::int64_t>(d))
                : std::nullopt;
        std::string_view s;
        if (!e.get_string().get(s)) {
            try {
                return std::stoll(std::string(s));
            } catch (...) {
                return std::nullopt;
            }
        }
        return std::nullopt;
    }

    std::optional<std::string> stringOf(dom::element e)
    {
        std::string_view s;
        if (!e.get_string().get(s))
            return std::string(s);
        return std::nullopt;
    }

    void parseProcessGroups(RankMetadata& m, dom::array groups)
    {
        for (dom::element g : groups) {
            dom::object o;
            if (g.get_object().get(o))
                continue;
            ProcessGroupConfig pg;
            for (auto [k, v] : o) {
                if (k == "pg_name")
                    pg.name = stringOf(v).value_or(std::string(simdjson::to_string(v)));
                else if (k == "pg_desc")
                    pg.description = stringOf(v).value_or("");
                else if (k == "backend_config")
                    pg.backendConfig = stringOf(v).value_or("");
                else if (k == "pg_size")
                    pg.size = intOf(v).value_or(0);
                else if (k == "ranks") {
                    dom::array ranks;
                    if (!v.get_array().get(ranks))
                        for (dom::element r : ranks)
                            if (auto x = intOf(r))
                                pg.ranks.push_back(*x);
                }
            }
            m.processGroups.push_back(std::move(pg));
        }
    }

    void parseDistributedInfo(RankMetadata& m, dom::element value)
    {
        dom::object o;
        if (value.get_object().get(o))
            return;
        m.hasDistributedInfo = true;
        for (auto [k, v] : o) {
            if (k == "rank")
                m.distributedRank = intOf(v);
            else if (k == "world_size")
                m.worldSize = intOf(v);
            else if (k == "backend")
                m.backend = stringOf(v);
            else if (k == "pg_count")
                m.pgCount = intOf(v);
            else if (k == "pg_config") {
                dom::array groups;
                if (!v.get_array().get(groups))
                    parseProcessGroups(m, groups);
            }
        }
    }

    void parseDeviceProperties(RankMetadata& m, dom::element value)
    {
        dom::array devices;
        if (value.get_array().get(devices))
            return;
        for (dom::element d : devices) {
            dom::object o;
            if (d.get_object().get(o))
                continue;
            DeviceProperties p;
            for (auto [k, v] : o) {
                if (k == "id")
                    p.id = intOf(v).value_or(-1);
                else if (k == "name")
                    p.name = stringOf(v).value_or("");
                else if (k == "totalGlobalMem")
                    p.totalGlobalMem = intOf(v).value_or(0);
                else if (k == "computeMajor")
                    p.computeMajor = intOf(v).value_or(0);
                else if (k == "computeMinor")
                    p.computeMinor = intOf(v).value_or(0);
                else if (k == "numSms")
                    p.numSms = intOf(v).value_or(0);
                else if (k == "gcnArchName")
                    p.gcnArchName = stringOf(v).value_or("");
            }
            m.devices.push_back(std::move(p));
        }
    }

} // namespace

void applyTopLevelKey(RankMetadata& metadata, std::string_view key, std::string_view rawValue)
{
    metadata.rawKeys.emplace_back(std::string(key), std::string(rawValue));
    if (key != "distributedInfo" && key != "deviceProperties" && key != "schemaVersion"
        && key != "baseTimeNanoseconds" && key != "traceName" && key != "displayTimeUnit")
        return;
    dom::parser parser;
    const simdjson::padded_string padded(rawValue);
    dom::element value;
    if (parser.parse(padded).get(value))
        return;
    if (key == "distributedInfo")
        parseDistributedInfo(metadata, value);
    else if (key == "deviceProperties")
        parseDeviceProperties(metadata, value);
    else if (key == "schemaVersion")
        metadata.schemaVersion = intOf(value);
    else if (key == "baseTimeNanoseconds")
        metadata.baseTimeNanoseconds = intOf(value);
    else if (key == "traceName")
        metadata.traceName = stringOf(value);
    else if (key == "displayTimeUnit")
        metadata.displayTimeUnit = stringOf(value);
}

} // namespace ks::core
