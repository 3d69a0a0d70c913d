#include "core/io/json/event_parser.h"

#include "core/io/json/event_parser_kernel.h"
#include "core/io/json/parser_kernel.h"

#include <simdjson.h>

#include <cstring>

namespace ks::core {

namespace {

    std::unique_ptr<EventParserKernel> makeKernel(std::string path, RankBuilder* builder, RawEventSink* sink)
    {
#ifdef KS_HAVE_HASWELL_KERNEL
        if (activeParserKernel() == ParserKernel::Haswell)
            return kernel_haswell::makeEventParser(std::move(path), builder, sink);
#endif
        return kernel_baseline::makeEventParser(std::move(path), builder, sink);
    }

} // namespace

EventParser::EventParser(std::string path, RankBuilder& builder)
    : m_kernel(makeKernel(std::move(path), &builder, nullptr))
{
}

EventParser::EventParser(std::string path, RawEventSink& sink)
    : m_kernel(makeKernel(std::move(path), nullptr, &sink))
{
}

EventParser::~EventParser() = default;

std::optional<Error> EventParser::parse(
    std::string_view elements, std::uint64_t firstIndex, std::uint64_t byteOffset)
{
    const std::size_t length = prepare(elements, m_padded);
    return m_kernel->parsePrepared(m_padded, length, firstIndex, byteOffset);
}

std::size_t EventParser::prepare(std::string_view elements, std::vector<char>& buffer)
{
    const std::size_t length = elements.size() + 2;
    if (buffer.size() < length + simdjson::SIMDJSON_PADDING)
        buffer.resize(length + length / 4 + simdjson::SIMDJSON_PADDING);
    buffer[0] = '[';
    std::memcpy(buffer.data() + 1, elements.data(), elements.size());
    buffer[length - 1] = ']';
    std::memset(buffer.data() + length, ' ', simdjson::SIMDJSON_PADDING);
    return length;
}

std::optional<Error> EventParser::parsePrepared(
    std::vector<char>& buffer, std::size_t length, std::uint64_t firstIndex, std::uint64_t byteOffset)
{
    return m_kernel->parsePrepared(buffer, length, firstIndex, byteOffset);
}

} // namespace ks::core
