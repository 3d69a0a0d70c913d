#pragma once

// `kinetoscope-cli memory`: what the command shares between its modes. The
// trace analysis is memory_command.cpp; a PyTorch memory snapshot
// (`--snapshot FILE.pickle`) is a mode of its own in its own files
// (memory_snapshot_cli.h): runMemoryCommand dispatches to it before the trace
// options are parsed, as its options differ (its --device is an index).

#include "app/cli/cli_args.h"
#include "core/analysis/memory/memory_report.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace ks::cli {

// Exit code of `memory` on traces without any [memory] event: nothing to
// measure, as `check` says it (the one line on stdout says so).
inline constexpr int kNoMemoryEventsExit = 3;

// The trace mode's options.
struct MemoryTraceArgs
{
    core::MemoryOptions options;
    std::optional<std::string> device; // "CPU", "GPU0"
    std::string format = "table";
    std::size_t curvePoints = 0; // 0: no curve in the output
    bool events = false; // the allocations table in `table` format
    std::string csvTable = "stats";
};

// The value options and flags the trace mode takes (a mode of its own extends its own lists).
std::vector<std::string> memoryTraceValueOptions();
std::vector<std::string> memoryTraceFlags();

// "GPU0", "CPU", or a bare GPU index "0"; nullopt when it names none.
std::optional<std::string> memoryDeviceArgument(const std::string& text);

// `memory JOB.kssum`: what the summary keeps of each rank's memory (peaks, growth per step,
// top operators), with --ranks, --device, --format and --table devices|steps|stats; exit 3
// with one line when it holds no memory data (written before summaries stored it, or no
// rank had [memory] events).
int memoryFromSummary(const std::string& path, const MemoryTraceArgs& args, const std::string& csvTable,
    std::ostream& out, std::ostream& err);

// The report as the command's JSON (field names documented in docs/guide/memory.md).
// Streamed to `out` as it is made (HTA #223's rows can be hundreds of MB).
void writeMemoryReportJson(std::ostream& out, const core::MemoryReport& report, const MemoryTraceArgs& args);

} // namespace ks::cli
