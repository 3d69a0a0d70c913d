#include "core/io/json/parser_kernel.h"

#include <cstdlib>
#include <cstring>

namespace ks::core {

namespace {

    bool cpuHasHaswell()
    {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
        // libgcc's checks include the operating system's support for the AVX registers.
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi")
            && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("fma")
            && __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("pclmul");
#else
        return false;
#endif
    }

    constexpr bool kHaswellBuilt =
#ifdef KS_HAVE_HASWELL_KERNEL
        true;
#else
        false;
#endif

} // namespace

ParserKernel chooseParserKernel(const char* forced, bool haswellBuilt, bool cpuHasHaswellKernel)
{
    if (forced && std::strcmp(forced, "baseline") == 0)
        return ParserKernel::Baseline;
    return haswellBuilt && cpuHasHaswellKernel ? ParserKernel::Haswell : ParserKernel::Baseline;
}

ParserKernel activeParserKernel()
{
    // A constant once decided (thread-safe initialisation): the scanner asks for
    // every element, and one process never mixes kernels.
    static const ParserKernel kernel =
        chooseParserKernel(std::getenv(kParserKernelVariable), kHaswellBuilt, cpuHasHaswell());
    return kernel;
}

std::string_view parserKernelName(ParserKernel kernel)
{
    return kernel == ParserKernel::Haswell ? "haswell (AVX2)" : "baseline (x86-64)";
}

} // namespace ks::core
