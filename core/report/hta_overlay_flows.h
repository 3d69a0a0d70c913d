#pragma once

#include "core/analysis/critical_path/critical_path.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace ks::core {

// The flow arrows of HTA's overlaid critical-path trace (hta-semantics §11.7),
// for `critical-path --hta-compat --write-trace`. HTA builds each arrow end
// from the raw traceEvents element of the edge's event, so the writer hands
// over those elements' values as they stand in the file.

// Raw JSON value texts of one endpoint event (empty when the key is absent).
struct RawFlowEndpoint
{
    std::string pid;
    std::string tid;
    std::string ts;
    std::string dur;
    std::string device; // args.device
    bool seen = false;
};

// HTA draws only these path edges (DEFAULT_EDGE_TYPES_IN_VIZ): dependencies,
// kernel launch delays and sync dependencies; never an operator span nor a
// kernel-kernel delay.
bool htaDrawsEdge(CpEdgeType type);

// The arrow end's time as HTA writes it, with Python's number semantics
// (integer tokens stay exact integers, others are doubles): int(ts) at a start
// node; at an end node int(ts + dur), less min(1, dur) first when
// args.device >= 0. nullopt when ts or dur is not a number.
std::optional<std::int64_t> htaFlowTimestamp(const RawFlowEndpoint& event, bool atStartNode);

// One arrow end: {"ph":"s"|"f","id":ID,"pid":..,"tid":..,"ts":..,"cat":"critical_path",
// "name":"critical_path","args":{"weight":W,"critical":true,"type":"<edge type>"}}
// ("bp":"e" on the finish), W = int(edge weight in µs), the edge object's weight.
std::string htaFlowEvent(
    const RawFlowEndpoint& event, std::int64_t ts, const CpEdge& edge, std::size_t id, bool start);

} // namespace ks::core
