#pragma once

#include "core/model/event_tables.h"

#include <QtGlobal>

#include <cstdint>

namespace ks::widgets {

using core::TimeNs;

// One slice of one rank. `rank` is the position in TraceSet::ranks, not the
// rank number written in the trace.
struct SliceRef
{
    int rank = -1;
    std::uint32_t slice = core::kNoRow;

    bool valid() const { return rank >= 0 && slice != core::kNoRow; }
    bool operator==(const SliceRef&) const = default;
};

enum class ColorMode : std::uint8_t { KernelType, Name };

// T8: how ranks share the time axis.
enum class Alignment : std::uint8_t {
    AsRecorded, // every rank at its recorded timestamps
    RankStart,  // each rank shifted so it starts where the earliest rank starts
};

// What a timeline row shows.
enum class RowKind : std::uint8_t { RankHeader, Slices, Counter };

// Identifies a track across layout changes (hide, pin, reorder): rank index,
// row kind and the track or counter index inside the rank, packed in 64 bits.
struct TrackKey
{
    int rank = 0;
    RowKind kind = RowKind::Slices;
    std::uint32_t index = 0;

    quint64 packed() const
    {
        return (quint64(quint32(rank)) << 34) | (quint64(kind) << 32) | quint64(index);
    }
    static TrackKey unpack(quint64 v)
    {
        return { int(quint32(v >> 34)), RowKind(quint8((v >> 32) & 3)), quint32(v & 0xFFFFFFFFu) };
    }
    bool operator==(const TrackKey&) const = default;
};

// A closed time interval in display time (ns after alignment).
struct TimeRange
{
    TimeNs start = 0;
    TimeNs end = 0;

    TimeNs span() const { return end - start; }
    bool isEmpty() const { return end <= start; }
    bool operator==(const TimeRange&) const = default;
};

} // namespace ks::widgets
