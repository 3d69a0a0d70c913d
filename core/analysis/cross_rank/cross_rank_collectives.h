#pragma once

// The collectives the cross-rank path joins: per rank of a FrameSet, each
// collective slice with its job-wide instance id.

#include "core/analysis/frame/hta_frame.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ks::core {

// Named apart from collective_slices.h's CollectiveSlice: two classes of one
// name in one program break the one-definition rule (ASan caught the mix-up).
struct PathCollectiveSlice
{
    std::uint32_t slice = 0; // slice of the rank's trace
    std::uint32_t instance = 0; // job-wide instance id
    bool complete = true; // every member of its group is loaded and has it
};

struct PathCollectives
{
    std::vector<std::vector<PathCollectiveSlice>> byRank; // in FrameSet rank order
    std::vector<std::string> names; // by instance id
    std::vector<std::string> notes;
};

struct CollectiveMatch;

// Blocking collectives per rank: communication kernels on GPU streams and
// gloo:* slices on CPU threads.
PathCollectives pathCollectives(const FrameSet& frames);
// The same from a match already made over exactly the frames' traces, in the
// frames' rank order (a session's, shared with the timeline).
PathCollectives pathCollectives(const FrameSet& frames, const CollectiveMatch& match);
// True when `match` was made over these traces in this order: pathCollectives may use it.
bool matchCoversFrames(const FrameSet& frames, const std::vector<const RankTrace*>& matchedTraces);

} // namespace ks::core
