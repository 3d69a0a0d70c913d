#include "core/io/gzip/gzip_stream.h"

#include "core/common/block_codec.h"

#include <zlib.h>

#include <algorithm>
#include <cstddef>
#include <cstring>

#ifdef KS_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

namespace ks::core {

namespace {

    constexpr std::size_t kInputBlock = 1u << 20;

    class ZlibInflater final : public Inflater
    {
    public:
        ZlibInflater()
        {
            std::memset(&m_stream, 0, sizeof(m_stream));
            // 16 + MAX_WBITS: expect a gzip wrapper.
            m_ok = inflateInit2(&m_stream, 16 + MAX_WBITS) == Z_OK;
        }

        ~ZlibInflater() override { inflateEnd(&m_stream); }

        void reset() override
        {
            m_trailerLeft = 0;
            if (m_raw)
                inflateReset2(&m_stream, 16 + MAX_WBITS);
            else
                inflateReset(&m_stream);
            m_raw = false;
        }

        Status inflate(const unsigned char* in, std::size_t inSize, std::size_t& inUsed, unsigned char* out,
            std::size_t outSize, std::size_t& outMade) override
        {
            inUsed = 0;
            outMade = 0;
            m_atBoundary = false;
            if (!m_ok) {
                m_error = "zlib could not be initialised";
                return Status::Error;
            }
            if (m_trailerLeft > 0) // restored raw inflate: the member's trailer is still to skip
                return skipTrailer(inSize, inUsed);
            m_stream.next_in = const_cast<unsigned char*>(in);
            m_stream.avail_in = static_cast<uInt>(inSize);
            m_stream.next_out = out;
            m_stream.avail_out = static_cast<uInt>(outSize);
            Status status = Status::Ok;
            // Z_BLOCK stops at every deflate block boundary, where an access point can be taken.
            for (;;) {
                const int rc = ::inflate(&m_stream, Z_BLOCK);
                if (rc == Z_STREAM_END) {
                    status = Status::MemberEnd;
                    break;
                }
                if (rc == Z_BUF_ERROR) {
                    status = Status::NeedInput;
                    break;
                }
                if (rc != Z_OK) {
                    m_error = m_stream.msg ? m_stream.msg : "invalid compressed data";
                    status = Status::Error;
                    break;
                }
                const bool blockEnd = (m_stream.data_type & 128) != 0 && (m_stream.data_type & 64) == 0;
                if (blockEnd && m_stream.total_out > 0) {
                    m_atBoundary = true;
                    break;
                }
                if (m_stream.avail_in == 0 || m_stream.avail_out == 0)
                    break;
            }
            inUsed = inSize - m_stream.avail_in;
            outMade = outSize - m_stream.avail_out;
            if (status == Status::MemberEnd && m_raw) {
                m_trailerLeft = 8; // CRC32 and ISIZE, which a raw inflate does not read
                std::size_t used = 0;
                status = skipTrailer(inSize - inUsed, used);
                inUsed += used;
            }
            return status;
        }

        const char* lastError() const override { return m_error; }

        const char* name() const override { return "zlib"; }

        InflateEngine engine() const override { return InflateEngine::Zlib; }

        // zran's access point: the bits left of the last byte read, that byte, and the window.
        std::vector<std::uint8_t> saveState(const unsigned char* lastInputByte) const override
        {
            const int bits = m_stream.data_type & 7;
            if (!m_atBoundary || (bits > 0 && lastInputByte == nullptr))
                return {};
            std::vector<std::uint8_t> state(2 + 32768);
            uInt windowBytes = 0;
            if (inflateGetDictionary(const_cast<z_stream*>(&m_stream), state.data() + 2, &windowBytes)
                != Z_OK)
                return {};
            state[0] = static_cast<std::uint8_t>(bits);
            state[1] = bits > 0 ? *lastInputByte : 0;
            state.resize(2 + windowBytes);
            return state;
        }

        bool restoreState(const std::vector<std::uint8_t>& state) override
        {
            if (!m_ok || state.size() < 2 || state[0] > 7)
                return false;
            m_trailerLeft = 0;
            m_raw = true; // the gzip header is behind us: go on as raw deflate
            if (inflateReset2(&m_stream, -MAX_WBITS) != Z_OK)
                return false;
            const int bits = state[0];
            if (bits > 0 && inflatePrime(&m_stream, bits, state[1] >> (8 - bits)) != Z_OK)
                return false;
            return state.size() == 2
                || inflateSetDictionary(&m_stream, state.data() + 2, static_cast<uInt>(state.size() - 2))
                == Z_OK;
        }

    private:
        Status skipTrailer(std::size_t available, std::size_t& used)
        {
            used = std::min<std::size_t>(m_trailerLeft, available);
            m_trailerLeft -= used;
            return m_trailerLeft == 0 ? Status::MemberEnd : Status::Ok;
        }

        z_stream m_stream {};
        bool m_ok = false;
        bool m_raw = false; // restored from an access point: raw deflate, trailer skipped by hand
        bool m_atBoundary = false; // the last inflate() stopped at a deflate block boundary
        std::size_t m_trailerLeft = 0;
        const char* m_error = "";
    };

#ifdef KS_HAVE_ISAL
    class IsalInflater final : public Inflater
    {
    public:
        IsalInflater() { reset(); }

        void reset() override
        {
            isal_inflate_init(&m_state);
            m_state.crc_flag = ISAL_GZIP;
        }

        Status inflate(const unsigned char* in, std::size_t inSize, std::size_t& inUsed, unsigned char* out,
            std::size_t outSize, std::size_t& outMade) override
        {
            m_state.next_in = const_cast<unsigned char*>(in);
            m_state.avail_in = static_cast<std::uint32_t>(inSize);
            m_state.next_out = out;
            m_state.avail_out = static_cast<std::uint32_t>(outSize);
            const int rc = isal_inflate(&m_state);
            inUsed = inSize - m_state.avail_in;
            outMade = outSize - m_state.avail_out;
            if (rc < 0) {
                m_error = describe(rc);
                return Status::Error;
            }
            if (m_state.block_state == ISAL_BLOCK_FINISH)
                return Status::MemberEnd;
            if (outMade == 0 && inUsed == 0)
                return Status::NeedInput;
            return Status::Ok;
        }

        const char* lastError() const override { return m_error; }

        const char* name() const override { return "isa-l"; }

        InflateEngine engine() const override { return InflateEngine::Isal; }

        // inflate_state is self-contained between calls: the tables of the block being
        // decoded, the bit buffer, and the last 32 KiB of output in tmp_out_buffer.
        // Only its used part is kept.
        std::vector<std::uint8_t> saveState(const unsigned char*) const override
        {
            const auto block = m_state.block_state;
            if (block != ISAL_BLOCK_NEW_HDR && block != ISAL_BLOCK_HDR && block != ISAL_BLOCK_TYPE0
                && block != ISAL_BLOCK_CODED)
                return {};
            const auto* bytes = reinterpret_cast<const std::uint8_t*>(&m_state);
            const std::size_t used =
                offsetof(inflate_state, tmp_out_buffer) + static_cast<std::size_t>(m_state.tmp_out_valid);
            return std::vector<std::uint8_t>(bytes, bytes + used);
        }

        bool restoreState(const std::vector<std::uint8_t>& state) override
        {
            if (state.size() < offsetof(inflate_state, tmp_out_buffer)
                || state.size() > sizeof(inflate_state))
                return false;
            std::memcpy(&m_state, state.data(), state.size());
            m_state.next_in = nullptr;
            m_state.avail_in = 0;
            m_state.next_out = nullptr;
            m_state.avail_out = 0;
            return true;
        }

    private:
        static const char* describe(int rc)
        {
            switch (rc) {
            case ISAL_INVALID_BLOCK:
                return "invalid deflate block";
            case ISAL_INVALID_SYMBOL:
                return "invalid deflate symbol";
            case ISAL_INVALID_LOOKBACK:
                return "invalid lookback distance";
            case ISAL_INVALID_WRAPPER:
                return "invalid gzip header";
            case ISAL_UNSUPPORTED_METHOD:
                return "unsupported compression method";
            case ISAL_INCORRECT_CHECKSUM:
                return "incorrect checksum";
            default:
                return "invalid compressed data";
            }
        }

        inflate_state m_state {};
        const char* m_error = "";
    };
#endif

} // namespace

std::unique_ptr<Inflater> makeZlibInflater()
{
    return std::make_unique<ZlibInflater>();
}

std::unique_ptr<Inflater> makeIsalInflater()
{
#ifdef KS_HAVE_ISAL
    return std::make_unique<IsalInflater>();
#else
    return nullptr;
#endif
}

bool isalAvailable()
{
#ifdef KS_HAVE_ISAL
    return true;
#else
    return false;
#endif
}

GzipStream::GzipStream(FileReader file, std::unique_ptr<Inflater> inflater)
    : m_file(std::move(file))
    , m_inflater(std::move(inflater))
    , m_in(kInputBlock)
{
}

GzipStream::GzipStream(FileReader file, std::unique_ptr<Inflater> inflater, const InflatePoint& point)
    : m_file(std::move(file))
    , m_inflater(std::move(inflater))
    , m_in(kInputBlock)
    , m_memberOpen(!point.state.empty())
    , m_outTotal(point.jsonOffset)
    , m_takePoints(false)
{
}

void GzipStream::moveIndexInto(ArgsIndex& index)
{
    index.gzip = true;
    index.engine = m_inflater->engine();
    index.points = std::move(m_points);
    m_points.clear();
}

void GzipStream::takePointIfDue()
{
    if (!m_takePoints || m_outTotal < m_nextPoint)
        return;
    std::vector<std::uint8_t> state =
        m_inflater->saveState(m_inPos > 0 ? m_in.data() + m_inPos - 1 : nullptr);
    if (state.empty())
        return; // zlib inside a block: try again at its end
    InflatePoint point;
    point.fileOffset = fileBytesRead();
    point.jsonOffset = m_outTotal;
    point.stateBytes = static_cast<std::uint32_t>(state.size());
    point.state = compressBlock(std::string_view(reinterpret_cast<const char*>(state.data()), state.size()));
    m_points.push_back(std::move(point));
    m_nextPoint = m_outTotal + ArgsIndex::kPointSpacing;
}

Error GzipStream::errorAt(ErrorCode code, std::string message) const
{
    // The offset is in the inflated JSON: that is where a person would look.
    return Error { code, std::move(message), m_file.path(), m_outTotal };
}

Result<bool> GzipStream::refill()
{
    if (m_eof)
        return false;
    if (m_inPos < m_inEnd) {
        std::memmove(m_in.data(), m_in.data() + m_inPos, m_inEnd - m_inPos);
        m_inEnd -= m_inPos;
    } else {
        m_inEnd = 0;
    }
    m_inPos = 0;
    auto n = m_file.read(reinterpret_cast<char*>(m_in.data()) + m_inEnd, m_in.size() - m_inEnd);
    if (!n)
        return n.error();
    if (n.value() == 0)
        m_eof = true;
    m_inEnd += n.value();
    return n.value() > 0;
}

Result<std::size_t> GzipStream::read(char* buffer, std::size_t capacity)
{
    std::size_t made = 0;
    auto* out = reinterpret_cast<unsigned char*>(buffer);
    while (made < capacity && !m_finished) {
        if (m_inPos == m_inEnd) {
            auto more = refill();
            if (!more)
                return more.error();
            if (!more.value()) {
                if (m_memberOpen)
                    return errorAt(
                        ErrorCode::TruncatedGzip, "truncated gzip: the file ends inside compressed data");
                m_finished = true;
                break;
            }
        }
        if (!m_memberOpen) {
            // Between members: trailing zero padding is allowed and ends the stream.
            if (m_in[m_inPos] == 0) {
                m_inPos = m_inEnd;
                continue;
            }
            if (m_inEnd - m_inPos >= 2 && (m_in[m_inPos] != 0x1f || m_in[m_inPos + 1] != 0x8b))
                return errorAt(
                    ErrorCode::CorruptGzip, "corrupt gzip: unexpected bytes after the compressed data");
            m_inflater->reset();
            m_memberOpen = true;
        }
        std::size_t inUsed = 0;
        std::size_t outMade = 0;
        const auto status = m_inflater->inflate(
            m_in.data() + m_inPos, m_inEnd - m_inPos, inUsed, out + made, capacity - made, outMade);
        m_inPos += inUsed;
        made += outMade;
        m_outTotal += outMade;
        switch (status) {
        case Inflater::Status::Error:
            return errorAt(ErrorCode::CorruptGzip, std::string("corrupt gzip: ") + m_inflater->lastError());
        case Inflater::Status::MemberEnd:
            m_memberOpen = false;
            break;
        case Inflater::Status::NeedInput:
        case Inflater::Status::Ok:
            takePointIfDue();
            if (inUsed == 0 && outMade == 0) {
                // The engine needs more input than is buffered.
                auto more = refill();
                if (!more)
                    return more.error();
                if (!more.value())
                    return errorAt(
                        ErrorCode::TruncatedGzip, "truncated gzip: the file ends inside compressed data");
            }
            break;
        }
    }
    return made;
}

} // namespace ks::core
