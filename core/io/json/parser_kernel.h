#pragma once

#include <string_view>

namespace ks::core {

// The JSON parser's hot code (simdjson on-demand and the element scanner) is
// compiled twice: for the x86-64 baseline, which runs everywhere, and for
// Haswell (AVX2, BMI), which is about twice as fast where the CPU has it. One
// package then serves every x86-64; the choice is made once per process.
enum class ParserKernel : unsigned char
{
    Baseline,
    Haswell
};

// Environment variable that forces a kernel: "baseline" (for tests and to rule
// the fast kernel out); anything else, or unset, lets the CPU decide.
inline constexpr const char* kParserKernelVariable = "KS_PARSER_KERNEL";

// The kernel this process parses with, decided at the first call: Haswell when
// it was built and the CPU has AVX2, BMI1/2, FMA, LZCNT and POPCNT (what
// -march=haswell lets the compiler use), unless KS_PARSER_KERNEL=baseline.
ParserKernel activeParserKernel();

// The decision itself, for tests: `forced` is KS_PARSER_KERNEL's value (or null).
ParserKernel chooseParserKernel(const char* forced, bool haswellBuilt, bool cpuHasHaswell);

// "haswell (AVX2)" or "baseline (x86-64)": what `info --verbose` and the benchmark print.
std::string_view parserKernelName(ParserKernel kernel);

} // namespace ks::core
