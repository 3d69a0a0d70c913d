#include "core/synth/output_sink.h"

#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace ks::core {

namespace {

    Error ioError(const std::string& path, const std::string& what)
    {
        Error error;
        error.code = ErrorCode::Unreadable;
        error.path = path;
        error.message = what;
        return error;
    }

    // Owns the FILE*; the JsonWriter already buffers, so stdio's own buffer is off.
    class FileHandle
    {
    public:
        explicit FileHandle(std::FILE* file)
            : m_file(file)
        {
            std::setvbuf(m_file, nullptr, _IONBF, 0);
        }

        ~FileHandle()
        {
            if (m_file)
                std::fclose(m_file);
        }

        FileHandle(const FileHandle&) = delete;
        FileHandle& operator=(const FileHandle&) = delete;

        bool write(const char* data, std::size_t size) { return std::fwrite(data, 1, size, m_file) == size; }

        bool close()
        {
            const bool ok = std::fclose(m_file) == 0;
            m_file = nullptr;
            return ok;
        }

    private:
        std::FILE* m_file;
    };

    // A sink that ends in a file: writes and closes it, counting the bytes and
    // turning a failed write or close into the sink's error.
    class FileSink : public OutputSink
    {
    public:
        FileSink(std::string path, std::FILE* file)
            : m_path(std::move(path))
            , m_file(file)
        {
        }

        std::uint64_t bytesOut() const override { return m_bytes; }

    protected:
        bool writeFile(const char* data, std::size_t size)
        {
            if (!m_file.write(data, size))
                return fail("cannot write: ");
            m_bytes += size;
            return true;
        }

        bool closeFile() { return m_file.close() || fail("cannot close: "); }

        std::string m_path;

    private:
        bool fail(const char* what)
        {
            m_error = ioError(m_path, what + std::string(std::strerror(errno)));
            return false;
        }

        FileHandle m_file;
        std::uint64_t m_bytes = 0;
    };

    class PlainFileSink : public FileSink
    {
    public:
        using FileSink::FileSink;

        bool write(const char* data, std::size_t size) override { return !m_error && writeFile(data, size); }

        bool finish() override { return !m_error && closeFile(); }
    };

    class GzipFileSink : public FileSink
    {
    public:
        GzipFileSink(std::string path, std::FILE* file, int level)
            : FileSink(std::move(path), file)
            , m_out(kOutChunk)
        {
            // windowBits 15 + 16: write a gzip header and trailer, not a zlib one.
            if (deflateInit2(&m_stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
                m_error = ioError(m_path, "cannot initialise zlib deflate");
            else
                m_initialised = true;
        }

        ~GzipFileSink() override
        {
            if (m_initialised)
                deflateEnd(&m_stream);
        }

        bool write(const char* data, std::size_t size) override
        {
            // zlib takes 32-bit lengths: feed large buffers in slices.
            while (size > 0 && !m_error) {
                const auto slice = static_cast<uInt>(size > (1u << 30) ? (1u << 30) : size);
                m_stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
                m_stream.avail_in = slice;
                if (!pump(Z_NO_FLUSH))
                    return false;
                data += slice;
                size -= slice;
            }
            return !m_error;
        }

        bool finish() override
        {
            if (m_error)
                return false;
            m_stream.next_in = nullptr;
            m_stream.avail_in = 0;
            return pump(Z_FINISH) && closeFile();
        }

    private:
        static constexpr std::size_t kOutChunk = std::size_t { 256 } * 1024;

        // Runs deflate until the input is consumed (or, for Z_FINISH, the stream ends).
        bool pump(int flush)
        {
            for (;;) {
                m_stream.next_out = reinterpret_cast<Bytef*>(m_out.data());
                m_stream.avail_out = static_cast<uInt>(m_out.size());
                const int rc = deflate(&m_stream, flush);
                if (rc == Z_STREAM_ERROR) {
                    m_error = ioError(m_path, "zlib deflate failed");
                    return false;
                }
                const std::size_t produced = m_out.size() - m_stream.avail_out;
                if (produced > 0 && !writeFile(m_out.data(), produced))
                    return false;
                if (flush == Z_FINISH ? rc == Z_STREAM_END
                                      : (m_stream.avail_in == 0 && m_stream.avail_out != 0))
                    return true;
            }
        }

        std::vector<char> m_out;
        z_stream m_stream {};
        bool m_initialised = false;
    };

} // namespace

Result<std::unique_ptr<OutputSink>> openOutputFile(const std::string& path, bool gzip, int gzipLevel)
{
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file)
        return ioError(path, std::string("cannot create file: ") + std::strerror(errno));
    std::unique_ptr<OutputSink> sink;
    if (gzip)
        sink = std::make_unique<GzipFileSink>(path, file, gzipLevel);
    else
        sink = std::make_unique<PlainFileSink>(path, file);
    if (sink->error())
        return *sink->error();
    return sink;
}

} // namespace ks::core
