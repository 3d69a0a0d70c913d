#include "core/io/store_builder/rpc_links.h"

#include "core/model/rpc_events.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

namespace ks::core {

namespace {

    void note(RankTrace& trace, std::uint32_t slice, const std::string& why)
    {
        trace.diagnostics.add(DiagnosticKind::RpcUnresolved,
            "event #" + std::to_string(trace.slices.eventIndex[slice]) + " \""
                + std::string(trace.sliceName(slice)) + "\": " + why,
            trace.slices.eventIndex[slice]);
    }

    // The call a remote op belongs to among the calls of its name (by start).
    std::uint32_t callOf(const RankTrace& trace, const std::vector<std::uint32_t>& calls, TimeNs ts)
    {
        std::uint32_t best = kNoRow;
        for (std::uint32_t c : calls) {
            if (trace.slices.start[c] > ts)
                break;
            best = c;
            if (trace.slices.end(c) >= ts)
                return c;
        }
        return best;
    }

} // namespace

void linkRpcCalls(RankTrace& trace)
{
    std::unordered_map<std::string_view, std::vector<std::uint32_t>> callsByName;
    std::vector<std::uint32_t> remoteOps;
    std::set<std::string> workers; // every worker a call names
    for (std::uint32_t i = 0; i < trace.slices.size(); ++i) {
        const std::string_view name = trace.sliceName(i);
        if (!looksLikeRpc(name))
            continue;
        if (name.find("#remote_op:") != std::string_view::npos) {
            remoteOps.push_back(i);
            continue;
        }
        const auto call = parseRpcCall(name);
        if (!call) {
            note(trace, i, "an RPC call name that does not parse (expected rpc_async#OP(A -> B))");
            continue;
        }
        callsByName[name].push_back(i);
        workers.insert(call->from);
        workers.insert(call->to);
    }
    if (remoteOps.empty() && callsByName.empty())
        return;
    for (auto& [name, calls] : callsByName)
        std::sort(calls.begin(), calls.end(), [&trace](std::uint32_t a, std::uint32_t b) {
            return trace.slices.start[a] < trace.slices.start[b];
        });
    std::set<std::int64_t> unknownNodes;
    for (std::uint32_t op : remoteOps) {
        const auto remote = parseRpcRemoteOp(trace.sliceName(op));
        if (!remote) {
            note(trace, op,
                "a remote op name that does not parse (expected rpc_async#OP(A -> B)#remote_op: OP)");
            continue;
        }
        const TrackId track = trace.trackOf(op);
        const std::int64_t node = track.valid() ? trace.tracks[track.value].rpcNode : -1;
        if (node >= 0 && !workers.count(parseRpcCall(remote->callName)->to)
            && unknownNodes.insert(node).second)
            note(trace, op, "node " + std::to_string(node) + " names no worker the caller called");
        const auto it = callsByName.find(remote->callName);
        const std::uint32_t call =
            it == callsByName.end() ? kNoRow : callOf(trace, it->second, trace.slices.start[op]);
        if (call == kNoRow) {
            note(trace, op, "its call \"" + remote->callName + "\" is not in the trace");
            continue;
        }
        trace.links.from.push_back(call);
        trace.links.to.push_back(op);
        trace.links.kind.push_back(LinkKind::RpcCall);
    }
}

} // namespace ks::core
