#pragma once

#include "core/common/result.h"

#include <string>
#include <utility>

namespace ks::core {

// The error of work stopped by its CancelToken: the caller superseded or
// abandoned the request and will not show the result.
inline Error cancelledError(std::string path = {})
{
    return Error { ErrorCode::Cancelled, "cancelled", std::move(path), std::nullopt };
}

} // namespace ks::core
