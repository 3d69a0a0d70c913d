#include "core/io/input_stream.h"

#include "core/io/file_reader.h"
#include "core/io/gzip_stream.h"

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

} // namespace ks::core
