#pragma once

#include "app/cli/cli_args.h"
#include "core/analysis/tables/hta_result.h"

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ks::cli {

// "1,2,5" -> {1, 2, 5}. nullopt when `text` is absent or malformed; then
// `error` says which (empty when absent).
std::optional<std::vector<std::int64_t>> parseNumberList(
    const std::optional<std::string>& text, std::string& error);

// Writes a whole file; on failure says so on `err` ("<command>: cannot write PATH").
bool writeTextFile(const std::filesystem::path& path, const std::string& text, const std::string& command,
    std::ostream& err);

// Creates an output folder and its parents; on failure says so on `err`.
bool ensureDirectory(const std::filesystem::path& dir, const std::string& command, std::ostream& err);

// "--format": table (the default), csv or json; anything else sets `problem`.
std::string outputFormat(const CliArgs& args, std::string& problem);

// When the arguments are unusable (a parse error, no PATH, or `problem`),
// prints "<command>: <what is wrong>" and the usage, and returns true.
bool rejectArguments(const CliArgs& args, const std::string& problem, const std::string& command,
    const char* usage, std::ostream& err);

// Prints a result as aligned text ("table"), CSV of its first table ("csv") or
// HTA's JSON encoding ("json").
void printResult(
    const core::HtaResult& result, const std::string& format, const std::string& title, std::ostream& out);

} // namespace ks::cli
