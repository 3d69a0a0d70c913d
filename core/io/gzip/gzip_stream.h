#pragma once

#include "core/io/gzip/file_reader.h"
#include "core/io/gzip/input_stream.h"

#include <memory>
#include <vector>

namespace ks::core {

// One inflate engine (ISA-L or zlib) behind a small interface, so both paths
// share the framing logic below and can be tested against each other.
class Inflater
{
public:
    enum class Status : std::uint8_t
    {
        Ok,
        MemberEnd,
        NeedInput,
        Error
    };

    virtual ~Inflater() = default;
    virtual void reset() = 0;
    // Consumes from [in, in+inSize) into [out, out+outSize); reports how much of each was used.
    virtual Status inflate(const unsigned char* in, std::size_t inSize, std::size_t& inUsed,
        unsigned char* out, std::size_t outSize, std::size_t& outMade) = 0;
    virtual const char* lastError() const = 0;
    virtual const char* name() const = 0;

    virtual InflateEngine engine() const = 0;
    // The engine's state right after inflate(), enough for a fresh engine to go
    // on from here (InflatePoint); empty where it cannot (zlib inside a block).
    virtual std::vector<std::uint8_t> saveState(const unsigned char* lastInputByte) const = 0;
    // Takes a state from saveState() of the same engine; false when it is not one.
    virtual bool restoreState(const std::vector<std::uint8_t>& state) = 0;
};

std::unique_ptr<Inflater> makeZlibInflater();
std::unique_ptr<Inflater> makeIsalInflater(); // nullptr when built without ISA-L

// Streams the inflated bytes of a gzip file (several members allowed).
class GzipStream final : public InputStream
{
public:
    GzipStream(FileReader file, std::unique_ptr<Inflater> inflater);
    // Goes on from an access point: `file` is at point.fileOffset and `inflater` restored
    // from its state; offsets count from point.jsonOffset. Takes no points of its own.
    GzipStream(FileReader file, std::unique_ptr<Inflater> inflater, const InflatePoint& point);

    Result<std::size_t> read(char* buffer, std::size_t capacity) override;

    std::uint64_t fileBytesRead() const override { return m_file.position() - (m_inEnd - m_inPos); }

    std::uint64_t fileBytesTotal() const override { return m_file.size(); }

    bool isGzip() const override { return true; }

    const char* backendName() const override { return m_inflater->name(); }

    void moveIndexInto(ArgsIndex& index) override;

private:
    Result<bool> refill(); // false at end of file
    Error errorAt(ErrorCode code, std::string message) const;
    void takePointIfDue();

    FileReader m_file;
    std::unique_ptr<Inflater> m_inflater;
    std::vector<unsigned char> m_in;
    std::size_t m_inPos = 0;
    std::size_t m_inEnd = 0;
    bool m_eof = false;
    bool m_finished = false;
    bool m_memberOpen = false;
    std::uint64_t m_outTotal = 0;
    // Access points for re-reading (ArgsIndex), one every kPointSpacing bytes of output.
    bool m_takePoints = true;
    std::uint64_t m_nextPoint = ArgsIndex::kPointSpacing;
    std::vector<InflatePoint> m_points;
};

} // namespace ks::core
