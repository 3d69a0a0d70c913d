#include "core/common/block_codec.h"

#include <zlib.h>

#include <cstring>
#include <memory>

#ifdef KS_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

namespace ks::core {

namespace {

    std::vector<std::uint8_t> compressWithZlib(std::string_view text)
    {
        z_stream zs {};
        deflateInit2(&zs, 1, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
        std::vector<std::uint8_t> out(deflateBound(&zs, static_cast<uLong>(text.size())));
        zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
        zs.avail_in = static_cast<uInt>(text.size());
        zs.next_out = out.data();
        zs.avail_out = static_cast<uInt>(out.size());
        deflate(&zs, Z_FINISH);
        out.resize(zs.total_out);
        deflateEnd(&zs);
        return out;
    }

} // namespace

std::vector<std::uint8_t> compressBlock(std::string_view text)
{
#ifdef KS_HAVE_ISAL
    std::vector<std::uint8_t> out(text.size() + text.size() / 8 + 1024);
    std::vector<std::uint8_t> levelBuffer(ISAL_DEF_LVL1_DEFAULT);
    isal_zstream zs;
    isal_deflate_stateless_init(&zs);
    zs.level = 1;
    zs.level_buf = levelBuffer.data();
    zs.level_buf_size = static_cast<std::uint32_t>(levelBuffer.size());
    zs.next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(text.data()));
    zs.avail_in = static_cast<std::uint32_t>(text.size());
    zs.next_out = out.data();
    zs.avail_out = static_cast<std::uint32_t>(out.size());
    zs.end_of_stream = 1;
    if (isal_deflate_stateless(&zs) == COMP_OK) {
        out.resize(zs.total_out);
        out.shrink_to_fit();
        return out;
    }
#endif
    return compressWithZlib(text);
}

bool decompressBlock(const std::vector<std::uint8_t>& compressed, std::size_t originalSize, std::string& out)
{
    out.resize(originalSize);
    z_stream zs {};
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK)
        return false;
    zs.next_in = const_cast<Bytef*>(compressed.data());
    zs.avail_in = static_cast<uInt>(compressed.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    const int rc = inflate(&zs, Z_FINISH);
    const bool ok = rc == Z_STREAM_END && zs.total_out == originalSize;
    inflateEnd(&zs);
    return ok;
}

} // namespace ks::core
