#pragma once

#include "core/analysis/memory_snapshot/memory_snapshot.h"

#include <string>

namespace ks::core {

// memory_viz's frame filter: false for interpreter and dispatcher frames
// (unwind::unwind, PyEval_, ceval.c, core/boxing, ...), which it never prints.
bool memoryVizKeepsFrame(const SnapshotFrame& frame);

// "filename:line:name", as memory_viz prints a frame.
std::string frameText(const SnapshotFrame& frame);

inline constexpr const char* kNoFrames = "<no frames>";
inline constexpr const char* kNoPythonFrame = "<no python frame>";

// The first line memory_viz prints under an allocation: its innermost kept
// frame (under stacks='all' usually the caching allocator's malloc), or
// "<no frames>".
std::string memoryVizTopFrame(const MemorySnapshot& snapshot, SnapshotStackId stack);

enum class UserFrameKind : std::uint8_t
{
    User, // a .py file outside torch/: the program's own line
    Torch, // no such frame: the innermost kept .py frame inside torch
    None, // no Python frame at all ("<no python frame>") or no frames ("<no frames>")
};

const char* userFrameKindName(UserFrameKind kind); // "user", "torch", "none"

struct UserFrame
{
    std::string text;
    UserFrameKind kind = UserFrameKind::None;
};

// Where in the program an allocation comes from: the innermost kept frame of
// a .py file with no path component "torch" (either slash).
UserFrame userFrame(const MemorySnapshot& snapshot, SnapshotStackId stack);

} // namespace ks::core
