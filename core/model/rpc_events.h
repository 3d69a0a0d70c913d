#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ks::core {

// PyTorch's RPC profiler names (torch.distributed.rpc): a call on the caller is
// "rpc_async#OP(worker0 -> worker1)" (also rpc_sync#, remote#); the ops it ran
// on the callee are recorded on the caller as "<call name>#remote_op: OP" on a
// thread named " node_id:N, thread_id:T ".
enum class RpcCallKind : std::uint8_t
{
    Async,
    Sync,
    Remote,
};

struct RpcCall
{
    RpcCallKind kind = RpcCallKind::Async;
    std::string op; // "aten::add", "udf_with_ops"
    std::string from; // "worker0"
    std::string to; // "worker1"
};

struct RpcRemoteOp
{
    std::string callName; // the full name of the call that caused it
    std::string op; // "aten::add"
};

struct RpcThread
{
    std::int64_t node = -1;
    std::int64_t thread = -1;
};

// True when the name starts like an RPC call or remote op (whether or not it parses).
bool looksLikeRpc(std::string_view name);
// The call in a name without "#remote_op:"; nullopt when it does not parse.
std::optional<RpcCall> parseRpcCall(std::string_view name);
// The parts of a remote op's name; nullopt when it is not one or does not parse.
std::optional<RpcRemoteOp> parseRpcRemoteOp(std::string_view name);
// " node_id:1, thread_id:6 " -> {1, 6}; nullopt for anything else.
std::optional<RpcThread> parseRpcThread(std::string_view tid);

} // namespace ks::core
