#pragma once

#include "core/io/gzip/input_stream.h"
#include "core/io/load_timeline.h"

namespace ks::core {

// An InputStream that counts its reads as the Inflate stage of a load's
// timeline (file read and inflate: one call does both).
class TimedInputStream final : public InputStream
{
public:
    TimedInputStream(InputStream& inner, LoadTimeline& timeline, LoadLane lane)
        : m_inner(inner)
        , m_timeline(timeline)
        , m_lane(lane)
    {
    }

    Result<std::size_t> read(char* buffer, std::size_t capacity) override
    {
        const StageScope inflate(&m_timeline, m_lane, LoadStage::Inflate);
        return m_inner.read(buffer, capacity);
    }

    std::uint64_t fileBytesRead() const override { return m_inner.fileBytesRead(); }

    std::uint64_t fileBytesTotal() const override { return m_inner.fileBytesTotal(); }

    bool isGzip() const override { return m_inner.isGzip(); }

    const char* backendName() const override { return m_inner.backendName(); }

    void moveIndexInto(ArgsIndex& index) override { m_inner.moveIndexInto(index); }

private:
    InputStream& m_inner;
    LoadTimeline& m_timeline;
    LoadLane m_lane;
};

} // namespace ks::core
