// libFuzzer target: the traceEvents splitter and the event parser on a byte buffer.
#include "fuzz/fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    ks::fuzz::fuzzEvents({ data, size });
    return 0;
}
