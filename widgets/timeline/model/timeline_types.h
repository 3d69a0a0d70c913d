#pragma once

#include "core/model/event_tables.h"

#include <QString>
#include <QtGlobal>

#include <cstdint>
#include <memory>
#include <vector>

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

enum class ColorMode : std::uint8_t
{
    KernelType,
    Name,
    CriticalPath, // slices on each rank's critical path (A8) against dimmed others
    Diff, // D3: slices by their name's trace diff class (added, removed, slower, faster)
    JobPath, // X3: slices on the job's critical path across ranks, by bound type, against dimmed others
};

// The ranks' instances of one chosen collective (T8, X2): each rank is shifted
// so that its instance starts where the reference rank's does.
struct CollectiveAnchor
{
    QString name; // the kernel name, as in the trace
    int ordinal = 0; // the instance's Seq or its order in its group / name (0 = first)
    QString group; // the process group it was matched in ("" when paired by name and order)
    int referenceRank = 0;
    std::vector<TimeNs> offsets; // per rank: raw time - display time (0 where the rank lacks it)
    int ranksFound = 0; // ranks that have the instance
};

// T8: how ranks share the time axis. A value: cheap to copy (the anchor is shared).
struct Alignment
{
    enum class Mode : std::uint8_t
    {
        AsRecorded, // every rank at its recorded timestamps
        RankStart, // each rank shifted so it starts where the earliest rank starts
        Collective, // each rank shifted so its instance of a chosen collective starts with the reference
                    // rank's
        EstimatedClocks, // each rank on the reference rank's clock, estimated from the ends of collectives
    };

    Mode mode = Mode::AsRecorded;
    std::shared_ptr<const CollectiveAnchor> anchor; // Collective only

    static const Alignment AsRecorded;
    static const Alignment RankStart;
    static const Alignment EstimatedClocks;

    static Alignment onCollective(std::shared_ptr<const CollectiveAnchor> anchor)
    {
        return { Mode::Collective, std::move(anchor) };
    }

    bool operator==(const Alignment&) const = default;
};

inline const Alignment Alignment::AsRecorded { Alignment::Mode::AsRecorded, nullptr };
inline const Alignment Alignment::RankStart { Alignment::Mode::RankStart, nullptr };
inline const Alignment Alignment::EstimatedClocks { Alignment::Mode::EstimatedClocks, nullptr };

// What a timeline row shows.
enum class RowKind : std::uint8_t
{
    RankHeader,
    Slices,
    Counter
};

// Identifies a track across layout changes (hide, pin, reorder): rank index,
// row kind and the track or counter index inside the rank, packed in 64 bits.
struct TrackKey
{
    int rank = 0;
    RowKind kind = RowKind::Slices;
    std::uint32_t index = 0;

    quint64 packed() const { return (quint64(quint32(rank)) << 34) | (quint64(kind) << 32) | quint64(index); }

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
