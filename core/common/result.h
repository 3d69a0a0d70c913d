#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace ks::core {

// Why a load or an analysis could not produce a value. Fatal problems only;
// recoverable anomalies go to Diagnostics instead.
enum class ErrorCode : std::uint8_t
{
    Unreadable,
    NotJson,
    TruncatedGzip,
    CorruptGzip,
    NoTraceEvents,
    WrongType,
    EmptyFile,
    EmptyFolder,
    TooLarge,
    Cancelled,
    NotApplicable,
    InvalidArgument,
    OutOfMemory, // an allocation failed while loading or analysing
    FileChanged, // re-reading a loaded file found it changed, gone or corrupt
};

const char* errorCodeName(ErrorCode code);

struct Error
{
    ErrorCode code = ErrorCode::Unreadable;
    std::string message; // what is wrong, for a person
    std::string path; // the file it is about, if any
    std::optional<std::uint64_t> byteOffset; // where in the (inflated) JSON, when known

    // One line: "<path>: <message> (at byte N)"; out of memory reads
    // "not enough memory to load <path>: <message>".
    std::string describe() const;
};

// "not enough memory to load PATH: about N MB needed" (ErrorCode::OutOfMemory).
Error notEnoughMemory(const std::string& path, std::uint64_t bytesNeeded);

// Either a value or an Error. No exceptions cross the core boundary.
template <typename T>
class Result
{
public:
    Result(T value)
        : m_data(std::move(value))
    {
    }

    Result(Error error)
        : m_data(std::move(error))
    {
    }

    bool ok() const { return std::holds_alternative<T>(m_data); }

    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<T>(m_data); }

    const T& value() const& { return std::get<T>(m_data); }

    T&& value() && { return std::get<T>(std::move(m_data)); }

    const Error& error() const { return std::get<Error>(m_data); }

private:
    std::variant<T, Error> m_data;
};

} // namespace ks::core
