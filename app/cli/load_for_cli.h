#pragma once

#include "core/model/trace_set.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ks::cli {

// Loads paths on all cores (or --threads N). Prints one line per failed file
// to `err`; returns nullopt when nothing loaded.
std::optional<core::TraceSet> loadForCli(const std::vector<std::string>& paths, const std::optional<std::string>& threads,
    std::ostream& err);

} // namespace ks::cli
