#include "core/synth/trace_input.h"

#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

namespace ks::core {

namespace {

    Error inputError(ErrorCode code, const std::string& path, const std::string& message)
    {
        Error error;
        error.code = code;
        error.path = path;
        error.message = message;
        return error;
    }

    Result<std::vector<char>> readBytes(const std::string& path)
    {
        // fopen opens a folder too; only the first read would fail, with no hint why.
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec))
            return inputError(ErrorCode::Unreadable, path,
                "is a folder: scaling takes one trace file (a .json or .json.gz of one rank)");
        std::FILE* file = std::fopen(path.c_str(), "rb");
        if (!file)
            return inputError(
                ErrorCode::Unreadable, path, std::string("cannot open: ") + std::strerror(errno));
        std::vector<char> bytes;
        char chunk[1 << 16];
        std::size_t got = 0;
        while ((got = std::fread(chunk, 1, sizeof chunk, file)) > 0)
            bytes.insert(bytes.end(), chunk, chunk + got);
        const bool failed = std::ferror(file) != 0;
        const int readErrno = errno;
        std::fclose(file);
        if (failed)
            return inputError(
                ErrorCode::Unreadable, path, std::string("read error: ") + std::strerror(readErrno));
        return bytes;
    }

    // Inflates every gzip member (concatenated members are valid gzip).
    Result<std::string> inflateAll(const std::vector<char>& in, const std::string& path)
    {
        std::string out;
        z_stream stream {};
        // 15 + 32: accept a gzip or zlib header, detected automatically.
        if (inflateInit2(&stream, 15 + 32) != Z_OK)
            return inputError(ErrorCode::CorruptGzip, path, "cannot initialise zlib inflate");
        stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
        stream.avail_in = static_cast<uInt>(in.size());
        std::vector<char> buffer(1 << 20);
        int rc = Z_OK;
        for (;;) {
            stream.next_out = reinterpret_cast<Bytef*>(buffer.data());
            stream.avail_out = static_cast<uInt>(buffer.size());
            rc = inflate(&stream, Z_NO_FLUSH);
            out.append(buffer.data(), buffer.size() - stream.avail_out);
            if (rc == Z_STREAM_END) {
                if (stream.avail_in == 0)
                    break;
                inflateReset(&stream); // another member follows
                continue;
            }
            if (rc == Z_BUF_ERROR && stream.avail_in == 0)
                break; // input ended inside the stream
            if (rc != Z_OK) {
                inflateEnd(&stream);
                return inputError(ErrorCode::CorruptGzip, path,
                    std::string("corrupt gzip data: ") + (stream.msg ? stream.msg : "inflate failed"));
            }
        }
        inflateEnd(&stream);
        if (rc != Z_STREAM_END)
            return inputError(ErrorCode::TruncatedGzip, path, "gzip data ends early (truncated file)");
        return out;
    }

} // namespace

Result<simdjson::padded_string> readTraceText(const std::string& path)
{
    auto bytes = readBytes(path);
    if (!bytes)
        return bytes.error();
    const std::vector<char>& raw = bytes.value();
    if (raw.empty())
        return inputError(ErrorCode::EmptyFile, path, "file is empty");
    if (raw.size() > UINT32_MAX)
        return inputError(ErrorCode::TooLarge, path, "too large to scale (over 4 GiB)");
    const bool gzip = raw.size() >= 2 && static_cast<unsigned char>(raw[0]) == 0x1f
        && static_cast<unsigned char>(raw[1]) == 0x8b;
    if (!gzip)
        return simdjson::padded_string(raw.data(), raw.size());
    auto text = inflateAll(raw, path);
    if (!text)
        return text.error();
    if (text.value().size() > UINT32_MAX)
        return inputError(ErrorCode::TooLarge, path, "inflated JSON over 4 GiB: too large to scale");
    return simdjson::padded_string(text.value());
}

} // namespace ks::core
