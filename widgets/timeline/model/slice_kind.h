#pragma once

// What a slice is, as the timeline colours it: its kind of work and the colour
// keys of every colour mode. The model decides them (TimelineData, draw lists);
// the renderer's palette (render/timeline_palette.h) maps keys to colours.

#include "core/analysis/cross_rank/cross_rank_path.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <string_view>

namespace ks::widgets {

// Colour keys of slices. Keys below kNameKeyBase are kinds of work (T10); keys
// from kNameKeyBase on are the stable name palette.
enum class SliceKind : std::uint8_t
{
    Compute, // GPU kernel
    Communication, // NCCL/RCCL/HCCL kernel
    Memory, // memcpy / memset / DMA
    Sync, // cuda_sync, stream waits, event waits
    GpuOther, // gpu_user_annotation and other GPU work
    CpuOp, // cpu_op, Operator
    Runtime, // cuda_runtime / cuda_driver: launches and syncs on the host
    Python, // python_function
    Annotation, // user_annotation, ProfilerStep
    CpuOther,
    CriticalPath, // T10 critical path mode: on the path
    Count_
};

constexpr std::uint8_t kNameKeyBase = 16;
constexpr std::uint8_t kNamePaletteSize = 24;
// Critical path mode: slices off the path keep a faint colour of their kind,
// key kOffPathKeyBase + kind, so the path stands out and the rest stays readable.
constexpr std::uint8_t kOffPathKeyBase = 48;

// D3 trace diff mode: how a slice's name changed between the control and test
// traces. Unchanged names keep the faint off-path colour of their kind.
enum class DiffClass : std::uint8_t
{
    Unchanged,
    Added, // only in test
    Removed, // only in control
    Slower, // more total time in test
    Faster, // less total time in test
    Count_
};

constexpr std::uint8_t kDiffKeyBase = 64;
// Job path mode (X3): a slice on the job's path takes the colour of the bound
// type the path counted it as, key kJobPathKeyBase + PathBound.
constexpr std::uint8_t kJobPathKeyBase = 72;

// The colour key of a slice in critical path mode.
constexpr std::uint8_t criticalPathKey(std::uint8_t kind, bool onPath)
{
    return onPath ? static_cast<std::uint8_t>(SliceKind::CriticalPath)
                  : static_cast<std::uint8_t>(kOffPathKeyBase + kind);
}

// The colour key of a slice in diff mode.
constexpr std::uint8_t diffColorKey(std::uint8_t kind, DiffClass diff)
{
    return diff == DiffClass::Unchanged
        ? static_cast<std::uint8_t>(kOffPathKeyBase + kind)
        : static_cast<std::uint8_t>(kDiffKeyBase + static_cast<std::uint8_t>(diff));
}

// The colour key of a slice in job path mode: its bound's when on the path.
constexpr std::uint8_t jobPathKey(std::uint8_t kind, std::optional<core::PathBound> bound)
{
    return bound ? static_cast<std::uint8_t>(kJobPathKeyBase + static_cast<std::uint8_t>(*bound))
                 : static_cast<std::uint8_t>(kOffPathKeyBase + kind);
}

QString sliceKindName(SliceKind kind);
// The kind of one slice from its track, category and name (core's kernel classification for GPU work).
SliceKind classifySlice(bool gpuTrack, std::string_view category, std::string_view name);
// Stable across runs and machines (FNV-1a of the UTF-8 name): the same kernel
// always gets the same colour.
std::uint8_t nameColorKey(std::string_view name);

} // namespace ks::widgets
