#include "core/io/gzip_stream.h"

#include <zlib.h>

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

        void reset() override { inflateReset(&m_stream); }

        Status inflate(const unsigned char* in, std::size_t inSize, std::size_t& inUsed, unsigned char* out,
            std::size_t outSize, std::size_t& outMade) override
        {
            if (!m_ok) {
                m_error = "zlib could not be initialised";
                return Status::Error;
            }
            m_stream.next_in = const_cast<unsigned char*>(in);
            m_stream.avail_in = static_cast<uInt>(inSize);
            m_stream.next_out = out;
            m_stream.avail_out = static_cast<uInt>(outSize);
            const int rc = ::inflate(&m_stream, Z_NO_FLUSH);
            inUsed = inSize - m_stream.avail_in;
            outMade = outSize - m_stream.avail_out;
            switch (rc) {
            case Z_OK:
                return Status::Ok;
            case Z_STREAM_END:
                return Status::MemberEnd;
            case Z_BUF_ERROR:
                return Status::NeedInput;
            default:
                m_error = m_stream.msg ? m_stream.msg : "invalid compressed data";
                return Status::Error;
            }
        }

        const char* lastError() const override { return m_error; }

        const char* name() const override { return "zlib"; }

    private:
        z_stream m_stream {};
        bool m_ok = false;
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
