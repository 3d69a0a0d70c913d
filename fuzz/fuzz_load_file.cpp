// libFuzzer target: the whole-file loader and the analyses. KS_FUZZ_SUFFIX
// (".json" or ".json.gz") picks which file the bytes become; each process
// writes to its own scratch file.
#include "fuzz/fuzz_entries.h"

#include <filesystem>
#include <string>
#include <unistd.h>

namespace {

// A folder of this process's own, removed when the fuzzer exits.
class ScratchFolder
{
public:
    ScratchFolder()
        : m_dir(std::filesystem::temp_directory_path() / ("kinetoscope-fuzz-" + std::to_string(getpid())))
    {
        std::filesystem::create_directories(m_dir);
    }

    ~ScratchFolder()
    {
        std::error_code ignored;
        std::filesystem::remove_all(m_dir, ignored);
    }

    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;

    std::string file() const { return (m_dir / ("rank0" KS_FUZZ_SUFFIX)).string(); }

private:
    std::filesystem::path m_dir;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const ScratchFolder scratch;
    static const std::string path = scratch.file();
    ks::fuzz::fuzzLoadFile({ data, size }, path);
    return 0;
}
