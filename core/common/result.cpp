#include "core/common/result.h"

#include <algorithm>

namespace ks::core {

const char* errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::Unreadable:
        return "unreadable";
    case ErrorCode::NotJson:
        return "not-json";
    case ErrorCode::TruncatedGzip:
        return "truncated-gzip";
    case ErrorCode::CorruptGzip:
        return "corrupt-gzip";
    case ErrorCode::NoTraceEvents:
        return "no-trace-events";
    case ErrorCode::WrongType:
        return "wrong-type";
    case ErrorCode::EmptyFile:
        return "empty-file";
    case ErrorCode::EmptyFolder:
        return "empty-folder";
    case ErrorCode::TooLarge:
        return "too-large";
    case ErrorCode::Cancelled:
        return "cancelled";
    case ErrorCode::NotApplicable:
        return "not-applicable";
    case ErrorCode::InvalidArgument:
        return "invalid-argument";
    case ErrorCode::OutOfMemory:
        return "out-of-memory";
    case ErrorCode::FileChanged:
        return "file-changed";
    }
    return "unknown";
}

std::string Error::describe() const
{
    if (code == ErrorCode::OutOfMemory) // the file is part of the sentence
        return "not enough memory to load " + (path.empty() ? std::string("the trace") : path) + ": "
            + message;
    std::string line;
    if (!path.empty()) {
        line += path;
        line += ": ";
    }
    line += message;
    if (byteOffset) {
        line += " (at byte ";
        line += std::to_string(*byteOffset);
        line += ')';
    }
    return line;
}

Error notEnoughMemory(const std::string& path, std::uint64_t bytesNeeded)
{
    constexpr std::uint64_t kMB = 1'000'000;
    const std::uint64_t mb = std::max<std::uint64_t>(1, (bytesNeeded + kMB - 1) / kMB);
    return Error { ErrorCode::OutOfMemory, "about " + std::to_string(mb) + " MB needed", path, {} };
}

} // namespace ks::core
