// libFuzzer target: the restricted unpickler and the memory snapshot analyses on a byte buffer.
#include "fuzz/fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    ks::fuzz::fuzzSnapshot({ data, size });
    return 0;
}
