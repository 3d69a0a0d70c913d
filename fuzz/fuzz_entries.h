#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

// What each fuzz target does with one input, as plain functions: the libFuzzer
// mains call them, and tst_fuzz_regressions replays the saved findings through
// the very same code in the normal build.
namespace ks::fuzz {

// What one input came to. Never a crash: a bad input is an error line.
struct FuzzOutcome
{
    std::size_t ranksLoaded = 0;
    std::vector<std::string> errors; // Error::describe() of each failure
    std::size_t analysesRun = 0; // analysis calls that produced a result or a "not applicable"
};

// The traceEvents splitter and the event parser on the bytes as inflated JSON,
// cut into pieces of a size the input's length picks (piece boundaries move).
FuzzOutcome fuzzEvents(std::span<const std::uint8_t> bytes);

// Writes the bytes to `filePath` (its name ends in .json or .json.gz) and loads
// it as a trace set, then runs the analyses, default and HTA-compatible, on
// whatever loaded.
FuzzOutcome fuzzLoadFile(std::span<const std::uint8_t> bytes, const std::string& filePath);

// The restricted unpickler on the bytes as a memory snapshot ("fuzz-input.pickle"),
// then the snapshot model, every device's summary, the allocator state at a few
// events and the snapshot compared with itself.
FuzzOutcome fuzzSnapshot(std::span<const std::uint8_t> bytes);

} // namespace ks::fuzz
