#include "core/common/result.h"

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
    }
    return "unknown";
}

std::string Error::describe() const
{
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

} // namespace ks::core
