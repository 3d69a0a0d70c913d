#include "core/model/rpc_events.h"

#include <array>
#include <cctype>
#include <charconv>

namespace ks::core {

namespace {

    constexpr std::string_view kRemoteMarker = "#remote_op: ";

    struct Prefix
    {
        std::string_view text;
        RpcCallKind kind;
    };

    constexpr std::array<Prefix, 3> kPrefixes { {
        { "rpc_async#", RpcCallKind::Async },
        { "rpc_sync#", RpcCallKind::Sync },
        { "remote#", RpcCallKind::Remote },
    } };

    std::string_view trimmed(std::string_view s)
    {
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
            s.remove_prefix(1);
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
            s.remove_suffix(1);
        return s;
    }

    std::optional<std::int64_t> numberAfter(std::string_view text, std::string_view key)
    {
        text = trimmed(text);
        if (text.substr(0, key.size()) != key)
            return std::nullopt;
        text = trimmed(text.substr(key.size()));
        std::int64_t value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc {} || end != text.data() + text.size())
            return std::nullopt;
        return value;
    }

} // namespace

bool looksLikeRpc(std::string_view name)
{
    for (const Prefix& p : kPrefixes)
        if (name.substr(0, p.text.size()) == p.text)
            return true;
    return false;
}

std::optional<RpcCall> parseRpcCall(std::string_view name)
{
    if (name.find(kRemoteMarker) != std::string_view::npos)
        return std::nullopt;
    for (const Prefix& p : kPrefixes) {
        if (name.substr(0, p.text.size()) != p.text)
            continue;
        std::string_view rest = name.substr(p.text.size());
        // The op itself may hold parentheses ("udf(x)"): the route is the last "(A -> B)".
        if (rest.empty() || rest.back() != ')')
            return std::nullopt;
        const std::size_t open = rest.rfind('(');
        if (open == std::string_view::npos || open == 0)
            return std::nullopt;
        const std::string_view route = rest.substr(open + 1, rest.size() - open - 2);
        const std::size_t arrow = route.find("->");
        if (arrow == std::string_view::npos)
            return std::nullopt;
        RpcCall call;
        call.kind = p.kind;
        call.op = std::string(rest.substr(0, open));
        call.from = std::string(trimmed(route.substr(0, arrow)));
        call.to = std::string(trimmed(route.substr(arrow + 2)));
        if (call.from.empty() || call.to.empty())
            return std::nullopt;
        return call;
    }
    return std::nullopt;
}

std::optional<RpcRemoteOp> parseRpcRemoteOp(std::string_view name)
{
    const std::size_t at = name.find(kRemoteMarker);
    if (at == std::string_view::npos)
        return std::nullopt;
    RpcRemoteOp op;
    op.callName = std::string(name.substr(0, at));
    op.op = std::string(trimmed(name.substr(at + kRemoteMarker.size())));
    if (op.op.empty() || !parseRpcCall(op.callName))
        return std::nullopt;
    return op;
}

std::optional<RpcThread> parseRpcThread(std::string_view tid)
{
    const std::size_t comma = tid.find(',');
    if (comma == std::string_view::npos)
        return std::nullopt;
    const auto node = numberAfter(tid.substr(0, comma), "node_id:");
    const auto thread = numberAfter(tid.substr(comma + 1), "thread_id:");
    if (!node || !thread)
        return std::nullopt;
    return RpcThread { *node, *thread };
}

} // namespace ks::core
