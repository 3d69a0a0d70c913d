#include "core/io/gzip/input_stream.h"

#include "core/common/block_codec.h"
#include "core/io/gzip/file_reader.h"
#include "core/io/gzip/gzip_stream.h"

#include <array>
#include <cstdio>

namespace ks::core {

namespace {

    class PlainStream final : public InputStream
    {
    public:
        explicit PlainStream(FileReader file)
            : m_file(std::move(file))
        {
        }

        Result<std::size_t> read(char* buffer, std::size_t capacity) override
        {
            return m_file.read(buffer, capacity);
        }

        std::uint64_t fileBytesRead() const override { return m_file.position(); }

        std::uint64_t fileBytesTotal() const override { return m_file.size(); }

        bool isGzip() const override { return false; }

        const char* backendName() const override { return "plain"; }

    private:
        FileReader m_file;
    };

    Result<bool> startsWithGzipMagic(const std::string& path)
    {
        std::FILE* f = std::fopen(path.c_str(), "rb");
        if (!f)
            return Error { ErrorCode::Unreadable, "cannot open", path, {} };
        std::array<unsigned char, 2> magic {};
        const std::size_t n = std::fread(magic.data(), 1, magic.size(), f);
        std::fclose(f);
        return n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    }

} // namespace

Result<std::unique_ptr<InputStream>> openInputStream(const std::string& path, InflateBackend backend)
{
    auto file = FileReader::open(path);
    if (!file)
        return file.error();
    if (file.value().size() == 0)
        return Error { ErrorCode::EmptyFile, "empty file", path, {} };
    auto gzip = startsWithGzipMagic(path);
    if (!gzip)
        return gzip.error();
    if (!gzip.value())
        return std::unique_ptr<InputStream>(std::make_unique<PlainStream>(std::move(file).value()));
    std::unique_ptr<Inflater> inflater;
    if (backend != InflateBackend::Zlib)
        inflater = makeIsalInflater();
    if (!inflater)
        inflater = makeZlibInflater();
    return std::unique_ptr<InputStream>(
        std::make_unique<GzipStream>(std::move(file).value(), std::move(inflater)));
}

Result<std::unique_ptr<InputStream>> reopenInputStream(
    const std::string& path, const ArgsIndex& index, std::uint64_t jsonOffset, std::uint64_t& startOffset)
{
    auto file = FileReader::open(path);
    if (!file)
        return file.error();
    if (!index.gzip) {
        if (auto err = file.value().seek(jsonOffset))
            return *err;
        startOffset = jsonOffset;
        return std::unique_ptr<InputStream>(std::make_unique<PlainStream>(std::move(file).value()));
    }
    std::unique_ptr<Inflater> inflater =
        index.engine == InflateEngine::Isal ? makeIsalInflater() : makeZlibInflater();
    if (!inflater)
        return Error { ErrorCode::Unreadable, "loaded with ISA-L, which this build lacks", path, {} };
    const InflatePoint* point = index.pointBefore(jsonOffset);
    if (!point) {
        startOffset = 0;
        return std::unique_ptr<InputStream>(
            std::make_unique<GzipStream>(std::move(file).value(), std::move(inflater), InflatePoint {}));
    }
    std::string state;
    if (!decompressBlock(point->state, point->stateBytes, state)
        || !inflater->restoreState(std::vector<std::uint8_t>(state.begin(), state.end())))
        return Error { ErrorCode::CorruptGzip, "an inflate access point does not restore", path, {} };
    if (auto err = file.value().seek(point->fileOffset))
        return *err;
    startOffset = point->jsonOffset;
    return std::unique_ptr<InputStream>(
        std::make_unique<GzipStream>(std::move(file).value(), std::move(inflater), *point));
}

} // namespace ks::core
