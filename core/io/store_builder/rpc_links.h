#pragma once

#include "core/model/rank_trace.h"

namespace ks::core {

// Links each RPC call ("rpc_async#OP(A -> B)") to the ops it ran on the callee
// ("<call>#remote_op: OP"), as LinkKind::RpcCall. A remote op goes to the call
// of the same name whose span holds its start, else the latest call of that
// name starting before it. Names that do not parse, remote ops without their
// call and nodes that name no worker the caller called are RpcUnresolved
// diagnostics; the events stay as they are.
void linkRpcCalls(RankTrace& trace);

} // namespace ks::core
