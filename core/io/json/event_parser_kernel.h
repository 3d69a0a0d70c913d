#pragma once

#include "core/common/result.h"
#include "core/io/json/json_scan.h"
#include "core/io/json/raw_event_sink.h"
#include "core/io/store_builder/rank_builder.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// One compiled copy of the parser's hot code (see parser_kernel.h). The
// sources event_parser_kernel.cpp and json_scan_kernel.cpp are built once per
// kernel, each time into its own namespace (KS_PARSER_KERNEL), so the copies
// never share a symbol; EventParser and scanValue pick one at run time.
class EventParserKernel
{
public:
    virtual ~EventParserKernel() = default;
    // Parses a buffer made by EventParser::prepare().
    virtual std::optional<Error> parsePrepared(std::vector<char>& buffer, std::size_t length,
        std::uint64_t firstIndex, std::uint64_t byteOffset) = 0;
};

// The entry points of each copy: events go to `builder`, or to `sink` when
// builder is null; scanComposite finds the end of the '{' or '[' at text[pos]
// (see scanValue).
namespace kernel_baseline {
    std::unique_ptr<EventParserKernel> makeEventParser(
        std::string path, RankBuilder* builder, RawEventSink* sink);
    json::ScanResult scanComposite(std::string_view text, std::size_t pos);
} // namespace kernel_baseline

// Built only where KS_HAVE_HASWELL_KERNEL is defined (x86-64, KS_PORTABLE_PARSER off).
namespace kernel_haswell {
    std::unique_ptr<EventParserKernel> makeEventParser(
        std::string path, RankBuilder* builder, RawEventSink* sink);
    json::ScanResult scanComposite(std::string_view text, std::size_t pos);
} // namespace kernel_haswell

} // namespace ks::core
